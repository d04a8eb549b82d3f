// Fuzzes the reading of a kamu node's signed query answer (untrusted JSON given to
// `odf-hash verify-query`, verify_query.h) and kamu's canonical JSON (canonical_json.h).
// Beyond "no crash, no hang", checks invariants: a refused answer is a parse error with a
// short message of printable ASCII (hostile bytes never reach a terminal); an answer read is
// canonical JSON too, and reports at least the answer itself; the canonical form of a
// document is its own canonical form.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "odf_hash/query/canonical_json.h"
#include "odf_hash/query/query_json.h"
#include "odf_hash/query/verify_query.h"

namespace {

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "query_answer_fuzz: invariant violated: %s\n", what);
    std::abort();
  }
}

// Printable ASCII, and the "…" escape_untrusted (store.h) appends to a cut text.
bool printable_ascii(std::string_view s, bool ellipsis = false) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (ellipsis && s.substr(i).starts_with("\xE2\x80\xA6")) {
      i += 2;
      continue;
    }
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c >= 0x7F) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto canonical = odf_hash::query::canonical_json(text);
  if (canonical.is_ok()) {
    auto again = odf_hash::query::canonical_json(*canonical);
    require(again.is_ok() && *again == *canonical, "the canonical form is not canonical");
    require(printable_ascii(*canonical), "canonical JSON that is not printable ASCII");
  } else {
    require(canonical.status().code() == odf_hash::StatusCode::kParseError,
            "canonical_json refused with another code than a parse error");
  }
  auto report = odf_hash::query::verify_query(text, {});
  if (!report.is_ok()) {
    const std::string m = report.status().message();
    require(report.status().code() == odf_hash::StatusCode::kParseError,
            "an answer refused with another code than a parse error");
    require(m.size() < 2048, "an error message longer than 2 KiB");
    require(printable_ascii(m, true), "an error message holding bytes of the answer as they are");
    return 0;
  }
  require(canonical.is_ok(), "an answer read that is not canonical JSON");
  require(!report->queries.empty() && report->queries[0].path.empty(),
          "a report without the answer");
  require(!report->summary().empty(), "an empty summary");
  require(!odf_hash::query::query_report_json(*report).empty(), "an empty JSON report");
  return 0;
}
