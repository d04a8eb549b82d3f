// The C ABI (include/odf_hash/odf_hash.h) over the C++ library. Every entry point converts
// Status values to codes and catches every exception (memory exhaustion included), so that
// nothing unwinds into C.
#include "odf_hash/odf_hash.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <tuple>
#include <vector>

#include "c_errors.h"
#include "odf_hash/api/verify.h"
#include "odf_hash/compare/compare.h"
#include "odf_hash/compare/compare_json.h"
#include "odf_hash/core/multihash.h"
#include "odf_hash/core/sha3.h"
#include "odf_hash/io/physical.h"
#include "odf_hash/io/table.h"
#include "odf_hash/logical/logical.h"
#include "odf_hash/odf/verify.h"
#include "odf_hash/odf/verify_json.h"
#include "odf_hash/query/query_json.h"
#include "odf_hash/query/verify_query.h"
#include "odf_hash/remote/hash_path_or_url.h"
#include "odf_hash/remote/open_store.h"
#include "odf_hash/remote/open_table.h"

using odf_hash::Status;
using odf_hash::StatusCode;
using odf_hash::capi::guarded;
using odf_hash::capi::invalid;
using odf_hash::capi::ok;
using odf_hash::capi::report;

struct odf_hash_sha3 {
  odf_hash::Sha3_256 hasher;
};

struct odf_hash_logical_result {
  odf_hash::LogicalDigest digest;
};

struct odf_hash_comparison {
  int verdict;
  int records;
  bool verified;
  std::string json;
};

struct odf_hash_query_check {
  int verdict;
  std::string summary;
  std::string json;
};

struct odf_hash_report {
  odf_hash::odf::DatasetReport report;
  std::vector<std::string> blocks;  // problems[i].block as text ("" when absent)
  // problems[i].expected and .actual as text: a hash, or a number's decimal digits ("" when
  // absent).
  std::vector<std::pair<std::string, std::string>> values;
  std::string json;
  std::string verdict;  // report.verdict()
};

namespace {

static_assert(static_cast<int>(StatusCode::kInvalidArgument) == ODF_HASH_INVALID_ARGUMENT);
static_assert(static_cast<int>(StatusCode::kParseError) == ODF_HASH_PARSE_ERROR);
static_assert(static_cast<int>(StatusCode::kNotFound) == ODF_HASH_NOT_FOUND);
static_assert(static_cast<int>(StatusCode::kIoError) == ODF_HASH_IO_ERROR);
static_assert(static_cast<int>(StatusCode::kUnsupported) == ODF_HASH_UNSUPPORTED);
static_assert(static_cast<int>(StatusCode::kInternal) == ODF_HASH_INTERNAL);
static_assert(static_cast<int>(StatusCode::kCancelled) == ODF_HASH_CANCELLED);
static_assert(odf_hash::kMaxMultihashTextLength + 1 == ODF_HASH_MULTIHASH_TEXT_SIZE);
static_assert(static_cast<int>(odf_hash::query::QueryVerdict::kValid) == ODF_HASH_QUERY_VALID);
static_assert(static_cast<int>(odf_hash::query::QueryVerdict::kMismatch) ==
              ODF_HASH_QUERY_MISMATCH);
static_assert(static_cast<int>(odf_hash::query::QueryVerdict::kUnsupported) ==
              ODF_HASH_QUERY_UNSUPPORTED);
static_assert(static_cast<int>(odf_hash::query::QueryVerdict::kUntrusted) ==
              ODF_HASH_QUERY_UNTRUSTED);

// The strings of a C array (NULL with a count of 0 is empty); nullopt when one is NULL.
std::optional<std::vector<std::string>> strings(const char* const* items, size_t count) {
  std::vector<std::string> out;
  if (count != 0 && items == nullptr) return std::nullopt;
  for (size_t i = 0; i < count; ++i) {
    if (items[i] == nullptr) return std::nullopt;
    out.emplace_back(items[i]);
  }
  return out;
}

void to_c(const odf_hash::Multihash& mh, odf_hash_multihash* out) noexcept {
  out->code = static_cast<uint64_t>(mh.code());
  std::memcpy(out->digest, mh.digest().data(), ODF_HASH_DIGEST_SIZE);
}

std::optional<odf_hash::Multihash> from_c(const odf_hash_multihash& mh) {
  odf_hash::Digest256 digest;
  std::memcpy(digest.data(), mh.digest, digest.size());
  switch (mh.code) {
    case ODF_HASH_CODE_SHA3_256: return odf_hash::Multihash::sha3_256(digest);
    case ODF_HASH_CODE_ARROW0_SHA3_256: return odf_hash::Multihash::arrow0_sha3_256(digest);
    default: return std::nullopt;
  }
}

std::optional<odf_hash::multibase::Base> base_from_prefix(char prefix) {
  for (odf_hash::multibase::Base b : odf_hash::multibase::all_bases()) {
    if (static_cast<char>(b) == prefix) return b;
  }
  return std::nullopt;
}

odf_hash::LogicalHashOptions logical_options(uint32_t threads) {
  odf_hash::LogicalHashOptions options;
  options.threads = threads;
  return options;
}

int give_result(odf_hash::LogicalDigest digest, odf_hash_logical_result** out,
                odf_hash_error* err) {
  *out = new odf_hash_logical_result{std::move(digest)};
  return ok(err);
}

}  // namespace

extern "C" {

const char* odf_hash_version(void) {
  return ODF_HASH_VERSION_STRING;
}

int odf_hash_abi_version(void) {
  return ODF_HASH_ABI_VERSION;
}

const char* odf_hash_status_name(int code) {
  if (code < 0 || code > ODF_HASH_CANCELLED) return "unknown";
  return odf_hash::status_code_name(static_cast<StatusCode>(code));
}

int odf_hash_multihash_parse(const char* text, size_t len, odf_hash_multihash* out,
                             odf_hash_error* err) {
  return guarded(err, [&] {
    if ((text == nullptr && len != 0) || out == nullptr) {
      return invalid(err, "odf_hash_multihash_parse: NULL argument");
    }
    auto mh = odf_hash::Multihash::parse(std::string_view(text == nullptr ? "" : text, len));
    if (!mh.is_ok()) return report(err, mh.status());
    to_c(*mh, out);
    return ok(err);
  });
}

int odf_hash_multihash_format(const odf_hash_multihash* mh, char base, char* buf, size_t capacity,
                              size_t* len_out, odf_hash_error* err) {
  return guarded(err, [&] {
    if (mh == nullptr || (buf == nullptr && capacity != 0)) {
      return invalid(err, "odf_hash_multihash_format: NULL argument");
    }
    auto value = from_c(*mh);
    if (!value) {
      char message[96];
      std::snprintf(message, sizeof message, "odf_hash_multihash_format: unknown hash code 0x%llx",
                    static_cast<unsigned long long>(mh->code));
      return invalid(err, message);
    }
    auto b = base_from_prefix(base);
    if (!b) {
      return invalid(err, (std::string("odf_hash_multihash_format: '") + base +
                           "' is not the prefix of a final multibase encoding")
                              .c_str());
    }
    const std::string text = value->to_string(*b);
    if (len_out != nullptr) *len_out = text.size();
    if (capacity < text.size() + 1) {
      return invalid(err,
                     ("odf_hash_multihash_format: the buffer holds " + std::to_string(capacity) +
                      " bytes, " + std::to_string(text.size() + 1) + " are needed")
                         .c_str());
    }
    std::memcpy(buf, text.c_str(), text.size() + 1);
    return ok(err);
  });
}

int odf_hash_multihash_equal(const odf_hash_multihash* a, const odf_hash_multihash* b) {
  if (a == nullptr || b == nullptr) return 0;
  return a->code == b->code && std::memcmp(a->digest, b->digest, ODF_HASH_DIGEST_SIZE) == 0;
}

int odf_hash_physical_file(const char* path, odf_hash_multihash* out, uint64_t* size_out,
                           odf_hash_error* err) {
  return guarded(err, [&] {
    if (path == nullptr || out == nullptr) {
      return invalid(err, "odf_hash_physical_file: NULL argument");
    }
    auto d = odf_hash::physical_hash_path_or_url(path);
    if (!d.is_ok()) return report(err, d.status());
    to_c(d->hash, out);
    if (size_out != nullptr) *size_out = d->size;
    return ok(err);
  });
}

odf_hash_sha3* odf_hash_sha3_new(void) {
  try {
    return new odf_hash_sha3{};
  } catch (...) {
    return nullptr;
  }
}

void odf_hash_sha3_update(odf_hash_sha3* hasher, const void* data, size_t len) {
  if (hasher == nullptr || (data == nullptr && len != 0)) return;
  hasher->hasher.update(data, len);
}

void odf_hash_sha3_finalize(odf_hash_sha3* hasher, odf_hash_multihash* out) {
  if (hasher == nullptr) return;
  const odf_hash::Digest256 d = hasher->hasher.finalize();
  if (out != nullptr) to_c(odf_hash::Multihash::sha3_256(d), out);
}

void odf_hash_sha3_free(odf_hash_sha3* hasher) {
  delete hasher;
}

int odf_hash_logical_stream(struct ArrowArrayStream* stream, uint32_t threads,
                            odf_hash_logical_result** out, odf_hash_error* err) {
  return guarded(err, [&] {
    if (out == nullptr) {
      if (stream != nullptr && stream->release != nullptr) stream->release(stream);
      return invalid(err, "odf_hash_logical_stream: NULL output");
    }
    // Consumes the stream on every path, as documented.
    auto digest = odf_hash::logical_hash_any_stream(stream, logical_options(threads));
    if (!digest.is_ok()) return report(err, digest.status());
    return give_result(std::move(digest).value(), out, err);
  });
}

int odf_hash_logical_array(const struct ArrowSchema* schema, const struct ArrowArray* array,
                           uint32_t threads, odf_hash_logical_result** out, odf_hash_error* err) {
  return guarded(err, [&] {
    if (schema == nullptr || array == nullptr || out == nullptr || schema->release == nullptr ||
        array->release == nullptr) {
      return invalid(err, "odf_hash_logical_array: NULL or released argument");
    }
    auto digest = odf_hash::logical_hash_any_array(*schema, *array, logical_options(threads));
    if (!digest.is_ok()) return report(err, digest.status());
    return give_result(std::move(digest).value(), out, err);
  });
}

int odf_hash_logical_file(const char* path, uint32_t threads, odf_hash_logical_result** out,
                          odf_hash_error* err) {
  return guarded(err, [&] {
    if (path == nullptr || out == nullptr) {
      return invalid(err, "odf_hash_logical_file: NULL argument");
    }
    auto digest = odf_hash::logical_hash_path_or_url(path, logical_options(threads));
    if (!digest.is_ok()) return report(err, digest.status());
    return give_result(std::move(digest).value(), out, err);
  });
}

void odf_hash_logical_result_digest(const odf_hash_logical_result* result,
                                    odf_hash_multihash* out) {
  if (result == nullptr || out == nullptr) return;
  to_c(result->digest.multihash(), out);
}

uint64_t odf_hash_logical_result_num_rows(const odf_hash_logical_result* result) {
  return result == nullptr ? 0 : result->digest.num_rows;
}

size_t odf_hash_logical_result_column_count(const odf_hash_logical_result* result) {
  return result == nullptr ? 0 : result->digest.columns.size();
}

int odf_hash_logical_result_column(const odf_hash_logical_result* result, size_t index,
                                   const char** path_out, const char** type_out,
                                   uint8_t digest_out[ODF_HASH_DIGEST_SIZE]) {
  if (result == nullptr || index >= result->digest.columns.size()) {
    return ODF_HASH_INVALID_ARGUMENT;
  }
  const odf_hash::ColumnDigest& c = result->digest.columns[index];
  if (path_out != nullptr) *path_out = c.path.c_str();
  if (type_out != nullptr) *type_out = c.type.c_str();
  if (digest_out != nullptr) std::memcpy(digest_out, c.digest.data(), ODF_HASH_DIGEST_SIZE);
  return ODF_HASH_OK;
}

const char* odf_hash_logical_result_column_reference_gap(const odf_hash_logical_result* result,
                                                         size_t index) {
  if (result == nullptr || index >= result->digest.columns.size()) return nullptr;
  return result->digest.columns[index].reference_gap.c_str();
}

void odf_hash_logical_result_free(odf_hash_logical_result* result) {
  delete result;
}

int odf_hash_verify(const char* path, uint32_t jobs, int integrity_only, odf_hash_report** out,
                    odf_hash_error* err) {
  return odf_hash_verify_ex(path, jobs, integrity_only != 0 ? ODF_HASH_VERIFY_INTEGRITY_ONLY : 0u,
                            out, err);
}

int odf_hash_verify_ex(const char* path, uint32_t jobs, uint32_t flags, odf_hash_report** out,
                       odf_hash_error* err) {
  return odf_hash_verify_modes_ex(path, jobs, flags, nullptr, out, err);
}

int odf_hash_verify_modes_ex(const char* path, uint32_t jobs, uint32_t flags,
                             const odf_hash_verify_modes* modes, odf_hash_report** out,
                             odf_hash_error* err) {
  return guarded(err, [&] {
    if (path == nullptr || out == nullptr) return invalid(err, "odf_hash_verify: NULL argument");
    if ((flags &
         ~(ODF_HASH_VERIFY_INTEGRITY_ONLY | ODF_HASH_VERIFY_STRICT | ODF_HASH_VERIFY_DEEP)) != 0) {
      return invalid(err, "odf_hash_verify_ex: unknown flag");
    }
    // A request of the api layer (api/verify.h), as the command and Python make one; the
    // C-only rules first: jobs 0 means 1, a seed is always given with a sample.
    odf_hash::api::VerifyRequest request;
    request.locations = {path};
    request.target = odf_hash::api::Target::kDataset;
    request.jobs = jobs == 0 ? 1 : jobs;
    request.integrity_only = (flags & ODF_HASH_VERIFY_INTEGRITY_ONLY) != 0;
    request.strict = (flags & ODF_HASH_VERIFY_STRICT) != 0;
    request.deep = (flags & ODF_HASH_VERIFY_DEEP) != 0;
    request.spelling = odf_hash::odf::ArgSpelling::kKeywords;
    request.stop_at_error = true;
    if (modes != nullptr) {
      if (modes->struct_size != sizeof(odf_hash_verify_modes)) {
        return invalid(err,
                       "odf_hash_verify_modes_ex: struct_size is not "
                       "sizeof(odf_hash_verify_modes) of this library");
      }
      if (modes->expect_head != nullptr) request.modes.expect_head = modes->expect_head;
      if (modes->since != nullptr) request.modes.since = modes->since;
      const bool fraction = modes->sample_fraction != 0;
      if (fraction && !(modes->sample_fraction > 0 && modes->sample_fraction <= 1)) {
        return invalid(err, "odf_hash_verify_modes_ex: sample_fraction must be in (0, 1]");
      }
      if (fraction && modes->sample_count != 0) {
        return invalid(err, "odf_hash_verify_modes_ex: sample_fraction or sample_count, not both");
      }
      if (fraction) {
        // The shortest text that reads back as the same double, always as a fraction
        // (verify_args.h reads "1" as a count of files).
        char spec[64];
        auto [end, ec] = std::to_chars(spec, spec + sizeof spec - 3, modes->sample_fraction);
        if (ec != std::errc()) return invalid(err, "odf_hash_verify_modes_ex: sample_fraction");
        std::string text(spec, end);
        if (text.find_first_of(".eE") == std::string::npos) text += ".0";
        request.modes.sample = text;
      } else if (modes->sample_count != 0) {
        request.modes.sample = std::to_string(modes->sample_count);
      }
      if (request.modes.sample) request.modes.seed = std::to_string(modes->sample_seed);
    }
    struct Keep final : odf_hash::api::VerifyObserver {
      void dataset(const odf_hash::api::DatasetOutcome& o) override { report = o.result->report; }
      odf_hash::odf::DatasetReport report;
    } keep;
    auto verified = odf_hash::api::verify(request, keep);
    if (!verified.is_ok()) return report(err, verified.status());
    auto* rep = new odf_hash_report{std::move(keep.report), {}, {}, {}, {}};
    for (const auto& p : rep->report.problems) {
      rep->blocks.push_back(p.block ? p.block->to_string() : std::string());
      rep->values.emplace_back(p.expected.to_string(), p.actual.to_string());
    }
    rep->json = odf_hash::odf::verify_report_json(rep->report);
    rep->verdict = rep->report.verdict();
    *out = rep;
    return ok(err);
  });
}

const char* odf_hash_report_verdict(const odf_hash_report* report) {
  return report == nullptr ? "" : report->verdict.c_str();
}

int odf_hash_report_complete(const odf_hash_report* report) {
  return report != nullptr && !report->report.scope.partial() ? 1 : 0;
}

int odf_hash_report_valid(const odf_hash_report* report) {
  return report != nullptr && report->report.valid() ? 1 : 0;
}

size_t odf_hash_report_problem_count(const odf_hash_report* report) {
  return report == nullptr ? 0 : report->report.problems.size();
}

int odf_hash_report_problem(const odf_hash_report* rep, size_t index, odf_hash_problem* out,
                            odf_hash_error* err) {
  if (rep == nullptr || out == nullptr) {
    return invalid(err, "odf_hash_report_problem: NULL argument");
  }
  if (index >= rep->report.problems.size()) {
    return invalid(err, "odf_hash_report_problem: index out of range");
  }
  const odf_hash::odf::Problem& p = rep->report.problems[index];
  auto text = [](const std::string& s) { return s.empty() ? nullptr : s.c_str(); };
  out->kind = odf_hash::odf::problem_kind_name(p.kind);
  out->block = text(rep->blocks[index]);
  out->has_sequence_number = p.sequence_number.has_value() ? 1 : 0;
  out->sequence_number = p.sequence_number.value_or(0);
  out->file = text(p.file);
  out->expected = text(rep->values[index].first);
  out->actual = text(rep->values[index].second);
  out->has_expected_number = p.expected.is_number() ? 1 : 0;
  out->expected_number = p.expected.as_number().value_or(0);
  out->has_actual_number = p.actual.is_number() ? 1 : 0;
  out->actual_number = p.actual.as_number().value_or(0);
  out->unit = odf_hash::odf::problem_unit_name(p.unit);
  out->message = p.message.c_str();
  return ok(err);
}

size_t odf_hash_report_unreferenced_count(const odf_hash_report* report) {
  return report == nullptr ? 0 : report->report.unreferenced.size();
}

uint64_t odf_hash_report_unreferenced_bytes(const odf_hash_report* report) {
  return report == nullptr ? 0 : report->report.unreferenced_bytes();
}

int odf_hash_report_unreferenced(const odf_hash_report* rep, size_t index,
                                 odf_hash_unreferenced* out, odf_hash_error* err) {
  if (rep == nullptr || out == nullptr) {
    return invalid(err, "odf_hash_report_unreferenced: NULL argument");
  }
  if (index >= rep->report.unreferenced.size()) {
    return invalid(err, "odf_hash_report_unreferenced: index out of range");
  }
  const odf_hash::odf::UnreferencedEntry& e = rep->report.unreferenced[index];
  out->file = e.file.c_str();
  out->kind = odf_hash::odf::entry_kind_name(e.kind);
  out->size = e.size;
  out->canonical_name = e.canonical_name.empty() ? nullptr : e.canonical_name.c_str();
  return ok(err);
}

const char* odf_hash_report_json(const odf_hash_report* report) {
  return report == nullptr ? "" : report->json.c_str();
}

void odf_hash_report_free(odf_hash_report* report) {
  delete report;
}

int odf_hash_compare(const char* original, const char* reproduced, uint32_t threads, uint32_t rows,
                     odf_hash_comparison** out, odf_hash_error* err) {
  return guarded(err, [&] {
    if (original == nullptr || reproduced == nullptr || out == nullptr) {
      return invalid(err, "odf_hash_compare: NULL argument");
    }
    odf_hash::compare::CompareOptions options;
    options.locate_rows = rows > 0;
    options.rows.max_rows = rows;
    auto r = [&]() -> odf_hash::Result<odf_hash::compare::FileComparison> {
      ODF_HASH_ASSIGN_OR_RETURN(odf_hash::Table a, odf_hash::open_table(original));
      ODF_HASH_ASSIGN_OR_RETURN(odf_hash::Table b, odf_hash::open_table(reproduced));
      return odf_hash::compare::compare(a, b, logical_options(threads), options);
    }();
    if (!r.is_ok()) return report(err, r.status());
    const int verdict =
        r->verdict == odf_hash::compare::CompareVerdict::kIdentical    ? ODF_HASH_IDENTICAL
        : r->verdict == odf_hash::compare::CompareVerdict::kEquivalent ? ODF_HASH_EQUIVALENT
                                                                       : ODF_HASH_DIFFERENT;
    using Records = odf_hash::compare::FileComparison::Records;
    const int records = r->records == Records::kEqual            ? ODF_HASH_RECORDS_EQUAL
                        : r->records == Records::kSameOtherOrder ? ODF_HASH_RECORDS_SAME_OTHER_ORDER
                        : r->records == Records::kDifferent      ? ODF_HASH_RECORDS_DIFFERENT
                                                                 : ODF_HASH_RECORDS_UNKNOWN;
    *out = new odf_hash_comparison{verdict, records, odf_hash::compare::reproduction_verified(*r),
                                   odf_hash::compare::file_comparison_json(*r)};
    return ok(err);
  });
}

int odf_hash_comparison_verdict(const odf_hash_comparison* comparison) {
  return comparison == nullptr ? ODF_HASH_DIFFERENT : comparison->verdict;
}

int odf_hash_comparison_records(const odf_hash_comparison* comparison) {
  return comparison == nullptr ? ODF_HASH_RECORDS_UNKNOWN : comparison->records;
}

int odf_hash_comparison_verified(const odf_hash_comparison* comparison) {
  return comparison != nullptr && comparison->verified ? 1 : 0;
}

const char* odf_hash_comparison_json(const odf_hash_comparison* comparison) {
  return comparison == nullptr ? "" : comparison->json.c_str();
}

void odf_hash_comparison_free(odf_hash_comparison* comparison) {
  delete comparison;
}

int odf_hash_verify_query(const char* answer, size_t len, const odf_hash_query_options* options,
                          odf_hash_query_check** out, odf_hash_error* err) {
  return guarded(err, [&] {
    if ((answer == nullptr && len != 0) || out == nullptr) {
      return invalid(err, "odf_hash_verify_query: NULL argument");
    }
    odf_hash::query::QueryVerifyArgs args;
    uint32_t jobs = 1;
    uint64_t max_bytes = odf_hash::query::kMaxAnswerBytes;
    if (options != nullptr) {
      if (options->struct_size != sizeof(odf_hash_query_options)) {
        return invalid(err,
                       "odf_hash_verify_query: struct_size is not sizeof(odf_hash_query_options) "
                       "of this library");
      }
      auto trust = strings(options->trust, options->trust_count);
      auto files = strings(options->trust_files, options->trust_file_count);
      auto datasets = strings(options->datasets, options->dataset_count);
      if (!trust || !files || !datasets) {
        return invalid(err, "odf_hash_verify_query: a NULL string in the options");
      }
      args = {std::move(*trust), std::move(*files), std::move(*datasets)};
      jobs = options->jobs == 0 ? 1 : options->jobs;
      if (options->max_bytes != 0) max_bytes = options->max_bytes;
    }
    auto o = odf_hash::query::query_verify_options(args);
    if (!o.is_ok()) return report(err, o.status());
    o->verify.jobs = jobs;
    o->max_bytes = max_bytes;
    auto r =
        odf_hash::query::verify_query(std::string_view(answer == nullptr ? "" : answer, len), *o);
    if (!r.is_ok()) return report(err, r.status());
    *out = new odf_hash_query_check{static_cast<int>(r->verdict()), r->summary(),
                                    odf_hash::query::query_report_json(*r)};
    return ok(err);
  });
}

int odf_hash_query_check_verdict(const odf_hash_query_check* check) {
  return check == nullptr ? ODF_HASH_QUERY_MISMATCH : check->verdict;
}

const char* odf_hash_query_check_summary(const odf_hash_query_check* check) {
  return check == nullptr ? "" : check->summary.c_str();
}

const char* odf_hash_query_check_json(const odf_hash_query_check* check) {
  return check == nullptr ? "" : check->json.c_str();
}

void odf_hash_query_check_free(odf_hash_query_check* check) {
  delete check;
}

}  // extern "C"
