// verify_query of odf_hash._odf_hash (odf_hash/_query.py builds QueryCheck from the JSON it
// returns): a kamu node's signed query answer checked offline.
#include <Python.h>
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "common.h"
#include "interruptible.h"
#include "odf_hash/query/query_json.h"
#include "odf_hash/query/verify_query.h"
#include "os_string.h"

namespace odf_hash_py {

using namespace nb::literals;

namespace {

// (verdict, report JSON) of the answer `answer` (its bytes as the node sent them).
std::tuple<int, std::string> verify_query(nb::bytes answer, std::vector<std::string> trust,
                                          const std::vector<OsString>& trust_files,
                                          std::vector<std::string> datasets, unsigned jobs,
                                          uint64_t max_bytes, const StoreTuple& store) {
  odf_hash::query::QueryVerifyArgs args;
  args.trust = std::move(trust);
  for (const OsString& f : trust_files) args.trust_files.push_back(f.value);
  args.datasets = std::move(datasets);
  const std::string text(answer.c_str(), answer.size());
  odf_hash::CancelFlag cancel{false};
  auto r = run_interruptible(cancel, [&]() -> odf_hash::Result<odf_hash::query::QueryReport> {
    ODF_HASH_ASSIGN_OR_RETURN(odf_hash::query::QueryVerifyOptions o,
                              odf_hash::query::query_verify_options(args));
    o.verify.jobs = jobs == 0 ? 1 : jobs;
    o.verify.store = store_for(store, cancel);
    if (max_bytes != 0) o.max_bytes = max_bytes;
    return odf_hash::query::verify_query(text, o);
  });
  const odf_hash::query::QueryReport report = value_or_raise(std::move(r));
  return {static_cast<int>(report.verdict()), odf_hash::query::query_report_json(report)};
}

}  // namespace

void bind_query(nb::module_& m) {
  m.def("verify_query", &verify_query, "answer"_a, "trust"_a, "trust_files"_a, "datasets"_a,
        "jobs"_a, "max_bytes"_a, "store"_a);
}

}  // namespace odf_hash_py
