// Fuzzes the JSON forms of verification plans, file tasks and check results
// (verify_plan_json.h): text a worker or a driver receives from elsewhere. The first byte
// picks the parser, the rest is the text. Bad input must give a kParseError with a message;
// what parses must write back to JSON that parses to the same JSON (a fixed point after one
// round), and a plan's tasks must be numbered by position. abort() marks a bug.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "odf_hash/odf/verify_plan_json.h"

namespace {

using namespace odf_hash;
using namespace odf_hash::odf;

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "verify_plan_fuzz: invariant violated: %s\n", what);
  std::abort();
}

template <typename T, typename Parse, typename Write>
void round_trip(std::string_view text, Parse parse, Write write) {
  Result<T> parsed = parse(text);
  if (!parsed.is_ok()) {
    if (parsed.status().code() != StatusCode::kParseError) fail("error other than kParseError");
    if (parsed.status().message().empty()) fail("error without a message");
    return;
  }
  const std::string once = write(*parsed);
  Result<T> again = parse(once);
  if (!again.is_ok()) fail("written JSON does not parse back");
  if (write(*again) != once) fail("round trip is not a fixed point");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0: round_trip<FileTask>(text, parse_file_task_json, file_task_json); break;
    case 1: round_trip<FileCheckResult>(text, parse_check_result_json, check_result_json); break;
    default: {
      round_trip<VerifyPlan>(text, parse_verify_plan_json, verify_plan_json);
      auto plan = parse_verify_plan_json(text);
      if (plan.is_ok()) {
        for (size_t i = 0; i < plan->tasks.size(); ++i) {
          if (plan->tasks[i].id != i) fail("plan task not numbered by position");
        }
      }
      break;
    }
  }
  return 0;
}
