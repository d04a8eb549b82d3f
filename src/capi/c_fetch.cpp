// The C ABI's fetch (odf_hash.h, "Obtaining a dataset") over odf/fetch.h.
#include <string>

#include "c_errors.h"
#include "odf_hash/core/multihash.h"
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
    odf_hash::odf::FetchOptions o;
    o.jobs = 1;  // the C ABI's rule: jobs 0 means 1
    if (options != nullptr) {
      if (options->struct_size != sizeof(odf_hash_fetch_options)) {
        return invalid(err,
                       "odf_hash_fetch: struct_size is not sizeof(odf_hash_fetch_options) "
                       "of this library");
      }
      o.jobs = options->jobs == 0 ? 1 : options->jobs;
      o.force = options->force != 0;
      if (options->expect_head != nullptr) {
        auto head = odf_hash::Multihash::parse(options->expect_head);
        if (!head.is_ok()) return report(err, head.status());
        o.expect_head = *head;
      }
    }
    auto fetched = odf_hash::odf::fetch_dataset(source, dest, o);
    if (!fetched.is_ok()) return report(err, fetched.status());
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
