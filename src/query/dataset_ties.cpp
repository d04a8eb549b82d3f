// Dataset ties (dataset_ties.h).
#include "dataset_ties.h"

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "odf_hash/core/text.h"
#include "odf_hash/io/store.h"
#include "odf_hash/odf/verify_pins.h"
#include "odf_hash/remote/open_store.h"

namespace odf_hash::query::detail {

namespace {

bool has_problem(const odf::DatasetReport& r, odf::ProblemKind kind) {
  for (const odf::Problem& p : r.problems) {
    if (p.kind == kind) return true;
  }
  return false;
}

// The tie's status and message from the copy's verification.
void judge(DatasetTie& tie, const odf::DatasetReport& r) {
  const std::string block = tie.block_hash->to_string();
  const std::string where = "the copy at " + tie.location;
  if (has_problem(r, odf::ProblemKind::kDatasetIdMismatch)) {
    tie.status = TieStatus::kCopyInvalid;
    tie.message = where + " is another dataset: its Seed names " +
                  (r.dataset_id ? *r.dataset_id : std::string("another id"));
  } else if (!r.scope.expected_head_found) {
    tie.status = TieStatus::kNotOnChain;
    tie.message = "computed over a history this copy does not contain: block " + block +
                  " is not on the chain of " + where;
  } else if (!r.valid()) {
    tie.status = TieStatus::kCopyInvalid;
    tie.message =
        "block " + block + " is on the chain of " + where + ", but the copy is " + r.verdict();
  } else {
    tie.status = TieStatus::kOnChain;
    tie.message = "block " + block + " (sequence number " +
                  std::to_string(*r.scope.expected_head_sequence) +
                  ") is on the verified chain of " + where + " (head " +
                  (r.head ? r.head->to_string() : std::string("?")) + ")";
  }
}

// The index of the --dataset naming `tie`, or -1; an error when two do.
Result<int> named_by(const DatasetTie& tie, const std::vector<std::string>& ids,
                     const QueryVerifyOptions& options) {
  int found = -1;
  for (size_t i = 0; i < options.datasets.size(); ++i) {
    const std::string& name = options.datasets[i].name;
    if (ids[i] != tie.id && name != tie.alias) continue;
    if (found >= 0) {
      return Status::invalid_argument("--dataset " + options.datasets[found].name + " and " +
                                      "--dataset " + name + " name one dataset, " +
                                      escape_untrusted(tie.alias, 80) + " (" + tie.id + ")");
    }
    found = static_cast<int>(i);
  }
  return found;
}

}  // namespace

Status tie_datasets(QueryReport& report, const QueryVerifyOptions& options) {
  // Each name as a canonical dataset id when it is one (any multibase spelling), else "".
  std::vector<std::string> ids;
  for (const DatasetLocation& d : options.datasets) {
    auto id = d.name.starts_with("did:") ? odf::canonical_dataset_id(d.name)
                                         : Result<std::string>(std::string());
    if (!id.is_ok()) return id.status().with_context("--dataset " + d.name);
    ids.push_back(*id);
  }
  std::vector<bool> used(options.datasets.size(), false);
  // One verification per (location, block, id), whatever the number of queries naming it.
  std::map<std::tuple<size_t, std::string, std::string>, odf::DatasetReport> verified;
  for (QueryCheck& q : report.queries) {
    for (DatasetTie& tie : q.datasets) {
      ODF_HASH_ASSIGN_OR_RETURN(int index, named_by(tie, ids, options));
      if (index < 0) continue;
      used[index] = true;
      const DatasetLocation& d = options.datasets[index];
      tie.location = redact_url(d.location);
      if (!tie.block_hash) {
        tie.status = TieStatus::kNoBlockHash;
        tie.message = "the answer gives no block hash for it: nothing to tie to " + tie.location;
        continue;
      }
      const auto key = std::make_tuple(size_t(index), tie.block_hash->to_string(), tie.id);
      auto it = verified.find(key);
      if (it == verified.end()) {
        odf::VerifyOptions o = options.verify;
        o.expect_head = tie.block_hash;
        o.expect_dataset_id = tie.id;
        auto r = odf::verify_dataset(d.location, o);
        if (!r.is_ok()) return r.status().with_context("--dataset " + d.name);
        it = verified.emplace(key, std::move(*r)).first;
      }
      tie.report = it->second;
      judge(tie, it->second);
    }
  }
  for (size_t i = 0; i < options.datasets.size(); ++i) {
    if (used[i]) continue;
    std::string named;
    for (const QueryCheck& q : report.queries) {
      for (const DatasetTie& t : q.datasets) {
        named += (named.empty() ? "" : ", ") + escape_untrusted(t.alias, 80) + " (" + t.id + ")";
      }
    }
    return Status::invalid_argument("--dataset " + options.datasets[i].name +
                                    ": the answer has no input dataset of that id or alias (" +
                                    (named.empty() ? "it names none" : "it names " + named) + ")");
  }
  return Status::ok();
}

}  // namespace odf_hash::query::detail

namespace odf_hash::query {

Result<DatasetLocation> parse_dataset_location(std::string_view text) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size()) {
    return Status::invalid_argument("--dataset \"" + escape_untrusted(text, 100) +
                                    "\": give NAME=LOCATION (NAME an input dataset's id or "
                                    "alias, LOCATION where a copy of it is)");
  }
  return DatasetLocation{std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

}  // namespace odf_hash::query
