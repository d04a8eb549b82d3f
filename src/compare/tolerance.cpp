// Records compared with a tolerance on floating-point values (tolerance.h): both tables read
// in step as locate_record_differences reads them; rows whose record digests differ are
// looked at field by field, the floating-point fields by value.
#include "odf_hash/compare/tolerance.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "odf_hash/core/parallel.h"
#include "odf_hash/internal/io/arrow_module.h"
#include "row_sides.h"

namespace odf_hash::compare {

namespace {

using detail::Side;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

double half_to_double(uint16_t h) {
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  double v = 0;
  if (exponent == 0) {
    v = std::ldexp(mantissa, -24);  // subnormal
  } else if (exponent == 31) {
    v = mantissa != 0 ? std::numeric_limits<double>::quiet_NaN() : kInfinity;
  } else {
    v = std::ldexp(mantissa + 1024, exponent - 25);
  }
  return (h & 0x8000) != 0 ? -v : v;
}

// The floating-point width of a side's column `c` (2, 4 or 8 bytes), 0 for any other type (a
// dictionary of floats included: compared exactly).
int float_width(const Side& side, size_t c) {
  const ArrowSchema* f = side.schema.value.children[side.leaves[c].at(0)];
  if (f->dictionary != nullptr) return 0;
  if (std::strcmp(f->format, "e") == 0) return 2;
  if (std::strcmp(f->format, "f") == 0) return 4;
  if (std::strcmp(f->format, "g") == 0) return 8;
  return 0;
}

// The value of a side's float column `c` at row `r` of its batch (from `pos`), nullopt for a
// null. The batch's rows were checked (ColumnValueEncoder::check): its buffers hold them.
std::optional<double> float_at(const Side& side, size_t c, int width, int64_t r) {
  const ArrowArray& batch = side.batch.value;
  const ArrowArray* col = batch.children[side.leaves[c].at(0)];
  const int64_t i = batch.offset + col->offset + side.pos + r;
  if (!Side::valid_at(*col, i)) return std::nullopt;
  const void* values = col->buffers[1];
  switch (width) {
    case 2: return half_to_double(static_cast<const uint16_t*>(values)[i]);
    case 4: return double(static_cast<const float*>(values)[i]);
    default: return static_cast<const double*>(values)[i];
  }
}

// Two values the same: bit for bit (as float64), or both NaN.
bool same_value(double x, double y) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  return std::memcmp(&x, &y, sizeof x) == 0;
}

double deviation(double x, double y) {
  if (!std::isfinite(x) || !std::isfinite(y)) return kInfinity;  // not both the same: above
  return std::fabs(y - x);
}

class ToleranceComparer {
 public:
  ToleranceComparer(const io_internal::ArrowModuleApi& api, Side& a, Side& b,
                    const Tolerance& tolerance, const RowDiffOptions& options, ToleranceCheck& out)
      : api_(api), a_(a), b_(b), tolerance_(tolerance), options_(options), out_(out) {
    for (size_t c = 0; c < out_.rows.columns.size(); ++c) {
      const int wa = float_width(a_, c), wb = float_width(b_, c);
      widths_.emplace_back(wa, wb);
      deviation_of_.push_back(wa != 0 && wb != 0 ? int(out_.deviations.size()) : -1);
      if (wa != 0 && wb != 0) out_.deviations.push_back({out_.rows.columns[c].column});
    }
    located_.assign(out_.deviations.size(), false);
  }

  // The next n rows of both sides' batches.
  Status compare(int64_t n) {
    // Each side's record digests on a thread of its own (the costly part of this read).
    Status da = Status::ok(), db = Status::ok();
    side_by_side([&] { da = a_.digest_records(0, n); }, [&] { db = b_.digest_records(0, n); });
    ODF_HASH_RETURN_IF_ERROR(da);
    ODF_HASH_RETURN_IF_ERROR(db);
    bool checked = false;
    // Per deviation: its largest in this batch and the row (rendered once, at the end).
    std::vector<std::pair<double, int64_t>> largest(out_.deviations.size(), {-1.0, -1});
    for (int64_t r = 0; r < n; ++r) {
      if (a_.digests[size_t(r)] == b_.digests[size_t(r)]) continue;
      if (!checked) {
        for (size_t c = 0; c < out_.rows.columns.size(); ++c) {
          ODF_HASH_RETURN_IF_ERROR(a_.values[c].check(a_.batch.value, a_.pos, n));
          ODF_HASH_RETURN_IF_ERROR(b_.values[c].check(b_.batch.value, b_.pos, n));
        }
        checked = true;
      }
      bool beyond = false;
      for (size_t c = 0; c < out_.rows.columns.size(); ++c) {
        ODF_HASH_ASSIGN_OR_RETURN(bool ok, deviation_of_[c] >= 0
                                               ? compare_float(c, r, largest[deviation_of_[c]])
                                               : compare_exactly(c, r));
        if (!ok) {
          beyond = true;
          ODF_HASH_RETURN_IF_ERROR(record(c, r));
        }
      }
      out_.rows.differing_records += beyond ? 1 : 0;
    }
    for (size_t c = 0; c < deviation_of_.size(); ++c) {
      if (deviation_of_[c] < 0) continue;
      const size_t k = size_t(deviation_of_[c]);
      const auto& [dev, row] = largest[k];
      ColumnDeviation& d = out_.deviations[k];
      if (row < 0 || (located_[k] && !(dev > d.max_deviation))) continue;
      d.max_deviation = dev;
      located_[k] = true;
      ODF_HASH_ASSIGN_OR_RETURN(
          d.at, detail::differing_row(api_, a_, b_, c, row, options_.max_value_chars));
    }
    return Status::ok();
  }

 private:
  // Whether the floating-point column `c` is the same at row `r`, or close; counts it.
  Result<bool> compare_float(size_t c, int64_t r, std::pair<double, int64_t>& largest) {
    const std::optional<double> x = float_at(a_, c, widths_[c].first, r);
    const std::optional<double> y = float_at(b_, c, widths_[c].second, r);
    if (!x && !y) return true;
    if (x && y && same_value(*x, *y)) return true;
    ColumnDeviation& d = out_.deviations[size_t(deviation_of_[c])];
    ++d.differing_rows;
    const double dev = x && y ? deviation(*x, *y) : kInfinity;
    if (dev > largest.first) largest = {dev, r};
    const bool close = x && y && within_tolerance(tolerance_, *x, *y);
    d.outside_rows += close ? 0 : 1;
    return close;
  }

  Result<bool> compare_exactly(size_t c, int64_t r) {
    if (!a_.values[c].encode_row(a_.batch.value, a_.pos + r, va_) ||
        !b_.values[c].encode_row(b_.batch.value, b_.pos + r, vb_)) {
      return Status::invalid_argument("column \"" + out_.rows.columns[c].column +
                                      "\": a string or binary view points outside its data");
    }
    return va_ == vb_;
  }

  Status record(size_t c, int64_t r) {
    return detail::note_difference(api_, a_, b_, out_.rows.columns[c], c, r, options_);
  }

  const io_internal::ArrowModuleApi& api_;
  Side& a_;
  Side& b_;
  const Tolerance& tolerance_;
  const RowDiffOptions& options_;
  ToleranceCheck& out_;
  std::vector<std::pair<int, int>> widths_;  // per field: each side's float width, or 0
  std::vector<int> deviation_of_;            // per field: its index in deviations, or -1
  std::vector<bool> located_;                // per deviation: `at` set
  std::vector<uint8_t> va_, vb_;
};

}  // namespace

bool within_tolerance(const Tolerance& t, double original, double reproduced) {
  if (std::isnan(original) || std::isnan(reproduced)) {
    return std::isnan(original) && std::isnan(reproduced);
  }
  if (std::isinf(original) || std::isinf(reproduced)) return original == reproduced;
  return std::fabs(reproduced - original) <= t.atol + t.rtol * std::fabs(original);
}

Result<ToleranceCheck> compare_within_tolerance(
    const std::vector<std::shared_ptr<ObjectReader>>& original,
    const std::vector<std::shared_ptr<ObjectReader>>& reproduced, const Tolerance& tolerance,
    const RowDiffOptions& options, RowWindow original_window, RowWindow reproduced_window,
    const std::vector<std::string>& ignore) {
  for (const double v : {tolerance.rtol, tolerance.atol}) {
    if (!(v >= 0) || std::isinf(v)) {
      return Status::invalid_argument("a tolerance is a finite number >= 0, not " +
                                      std::to_string(v));
    }
  }
  ODF_HASH_RETURN_IF_ERROR(detail::check_groups(original, reproduced, "compare_within_tolerance"));
  ODF_HASH_ASSIGN_OR_RETURN(const io_internal::ArrowModuleApi* api, io_internal::arrow_module());
  ToleranceCheck out;
  out.tolerance = tolerance;
  Side a, b;
  Result<std::vector<std::string>> fields = detail::open_record_sides(
      *api, original, reproduced, original_window, reproduced_window, ignore, a, b);
  if (fields.status().code() == StatusCode::kInvalidArgument) {
    out.error = fields.status().message();  // the columns differ: no value to compare
    return out;
  }
  ODF_HASH_RETURN_IF_ERROR(fields.status());
  for (const auto& f : *fields) {
    out.rows.columns.emplace_back();
    out.rows.columns.back().column = f;
  }
  out.rows.record_fields = *fields;
  ToleranceComparer comparer(*api, a, b, tolerance, options, out);
  ODF_HASH_RETURN_IF_ERROR(
      detail::read_in_step(a, b, out.rows, [&](int64_t n) { return comparer.compare(n); }));
  std::erase_if(out.rows.columns,
                [](const ColumnRowDifferences& c) { return c.differing_rows == 0; });
  std::erase_if(out.deviations, [](const ColumnDeviation& d) { return d.differing_rows == 0; });
  out.within =
      out.rows.original_rows == out.rows.reproduced_rows && out.rows.differing_records == 0;
  return out;
}

}  // namespace odf_hash::compare
