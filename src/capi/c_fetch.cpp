// The C ABI's fetch (odf_hash.h, "Obtaining a dataset") over odf/fetch.h.
#include <string>

#include "c_errors.h"
#include "odf_hash/api/fetch.h"
#include "odf_hash/odf/fetch.h"
#include "odf_hash/odf/fetch_json.h"
#include "odf_hash/odf_hash.h"

using odf_hash::capi::guarded;
using odf_hash::capi::invalid;
using odf_hash::capi::ok;
using odf_hash::capi::report;

struct odf_hash_fetch_result {
  int verdict;
  std::string summary;
  std::string json;
};

extern "C" {

int odf_hash_fetch(const char* source, const char* dest, const odf_hash_fetch_options* options,
                   odf_hash_fetch_result** out, odf_hash_error* err) {
  return guarded(err, [&] {
    if (source == nullptr || dest == nullptr || out == nullptr) {
      return invalid(err, "odf_hash_fetch: NULL argument");
    }
    odf_hash::api::FetchRequest request;
    request.source = source;
    request.dest = dest;
    request.jobs = 1;  // the C ABI's rule: jobs 0 means 1
    request.spelling = odf_hash::odf::ArgSpelling::kKeywords;
    if (options != nullptr) {
      if (options->struct_size != sizeof(odf_hash_fetch_options)) {
        return invalid(err,
                       "odf_hash_fetch: struct_size is not sizeof(odf_hash_fetch_options) "
                       "of this library");
      }
      request.jobs = options->jobs == 0 ? 1 : options->jobs;
      request.force = options->force != 0;
      if (options->expect_head != nullptr) request.expect_head = options->expect_head;
      if (options->dataset != nullptr) request.dataset = options->dataset;
      if (options->alias != nullptr) request.alias = options->alias;
    }
    auto result = odf_hash::api::fetch(request);
    if (!result.is_ok()) return report(err, result.status());
    const odf_hash::odf::FetchReport* fetched = &result->report;
    const int verdict = fetched->fetched()    ? ODF_HASH_FETCH_FETCHED
                        : fetched->rejected() ? ODF_HASH_FETCH_REJECTED
                                              : ODF_HASH_FETCH_INCOMPLETE;
    *out = new odf_hash_fetch_result{verdict, fetched->verdict(),
                                     odf_hash::odf::fetch_report_json(*fetched)};
    return ok(err);
  });
}

int odf_hash_fetch_result_verdict(const odf_hash_fetch_result* result) {
  return result == nullptr ? ODF_HASH_FETCH_INCOMPLETE : result->verdict;
}

const char* odf_hash_fetch_result_summary(const odf_hash_fetch_result* result) {
  return result == nullptr ? "" : result->summary.c_str();
}

const char* odf_hash_fetch_result_json(const odf_hash_fetch_result* result) {
  return result == nullptr ? "" : result->json.c_str();
}

void odf_hash_fetch_result_free(odf_hash_fetch_result* result) {
  delete result;
}

}  // extern "C"
