// locate_row_differences (row_diff.h): two record streams read in step, row segments hashed
// with the logical hasher and halved where their digests differ.
#include "odf_hash/compare/row_diff.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "odf_hash/internal/io/arrow_module.h"
#include "odf_hash/internal/io/concat_stream.h"
#include "odf_hash/internal/io/deferred_object.h"
#include "odf_hash/internal/io/owned_c_data.h"
#include "odf_hash/logical/logical.h"
#include "odf_hash/logical/record_digest.h"
#include "row_sides.h"

namespace odf_hash::compare {

namespace {

using detail::check_groups;
using detail::find_leaf;
using detail::find_top;
using detail::open_record_sides;
using detail::open_stream;
using detail::read_in_step;
using detail::Side;
using io_internal::Owned;

// A differing segment of at most this many rows has its values compared row by row (both
// sides are in memory: comparing encoded values costs less than hashing each row) instead
// of being halved again; so has a larger one whose halves both differ in every column (the
// differences are dense there: halving would hash every row at every level).
constexpr int64_t kRowsComparedDirectly = 256;

void release_nothing(ArrowArray* a) {
  a->release = nullptr;
}

// `cast_like` (not null): the side's fields read cast to the types `cast_like` gives them
// (open_cast_stream of the Arrow module), without the `offset` column.
Status open_side(const std::vector<std::shared_ptr<ObjectReader>>& objects,
                 const io_internal::ArrowModuleApi& api, const std::vector<std::string>& columns,
                 std::vector<std::string>& fields, Side& side, RowWindow window,
                 std::shared_ptr<ObjectReader> cast_like = nullptr) {
  const std::shared_ptr<ObjectReader>& object = objects.at(0);
  side.name = object->name();
  Owned<ArrowSchema> whole_schema;
  {
    Owned<ArrowArrayStream> whole;
    ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectReader> first, open_if_deferred(object));
    ODF_HASH_RETURN_IF_ERROR(api.open_record_stream(first, &whole.value));
    if (whole.value.get_schema(&whole.value, &whole_schema.value) != 0) {
      return Status::io_error(side.name + ": reading the stream's schema failed");
    }
  }
  std::vector<int> top;
  for (const auto& c : columns) {
    std::vector<int> leaf = find_leaf(whole_schema.value, c);
    if (leaf.empty()) return Status::invalid_argument(side.name + ": no column \"" + c + "\"");
    top.push_back(leaf[0]);
    const std::string field = whole_schema.value.children[leaf[0]]->name;
    if (std::find(fields.begin(), fields.end(), field) == fields.end()) fields.push_back(field);
  }
  if (int o = find_top(whole_schema.value, "offset"); o >= 0 && !cast_like) top.push_back(o);
  std::sort(top.begin(), top.end());
  top.erase(std::unique(top.begin(), top.end()), top.end());
  // Every file of a group is read through the fields of the first's schema (the stream
  // checks that each has the first's schema over them).
  io_internal::StreamOpener open = [&api, top](std::shared_ptr<ObjectReader> o,
                                               ArrowArrayStream* out) {
    Status st = api.open_parquet_fields_stream(o, top, out);
    if (st.code() == StatusCode::kUnsupported) st = api.open_record_stream(o, out);
    return st;
  };
  if (cast_like) {
    ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectReader> like, open_if_deferred(cast_like));
    std::vector<std::string> names;
    for (int i : top) names.push_back(whole_schema.value.children[i]->name);
    open = [&api, like, names](std::shared_ptr<ObjectReader> o, ArrowArrayStream* out) {
      return api.open_cast_stream(std::move(o), like, names, true, out);
    };
  }
  ODF_HASH_RETURN_IF_ERROR(open_stream(objects, open, side, window));
  for (const auto& c : columns) side.leaves.push_back(find_leaf(side.schema.value, c));
  ODF_HASH_ASSIGN_OR_RETURN(RecordDigester records,
                            RecordDigester::create(side.schema.value, fields));
  side.records.emplace(std::move(records));
  for (const auto& leaf : side.leaves) {
    ODF_HASH_ASSIGN_OR_RETURN(ColumnValueEncoder e,
                              ColumnValueEncoder::create(side.schema.value, leaf));
    side.values.push_back(std::move(e));
  }
  // Where each column's digest sits among the hasher's leaf columns.
  ODF_HASH_ASSIGN_OR_RETURN(LogicalHasher empty, LogicalHasher::create(side.schema.value));
  ODF_HASH_ASSIGN_OR_RETURN(LogicalDigest d, std::move(empty).finalize());
  for (const auto& c : columns) {
    auto it = std::find_if(d.columns.begin(), d.columns.end(),
                           [&](const ColumnDigest& cd) { return cd.path == c; });
    if (it == d.columns.end()) {
      return Status::invalid_argument(side.name + ": no column \"" + c + "\"");
    }
    side.digest_index.push_back(size_t(it - d.columns.begin()));
  }
  return Status::ok();
}

// The logical digests of the rows [start, start + n) of a side's batch, per column asked.
Result<std::vector<Digest256>> hash_rows(const Side& side, int64_t start, int64_t n) {
  ArrowArray slice = side.batch.value;  // shares everything; the hasher only reads it
  slice.offset += side.pos + start;
  slice.length = n;
  slice.null_count = 0;
  slice.release = &release_nothing;
  ODF_HASH_ASSIGN_OR_RETURN(LogicalHasher h, LogicalHasher::create(side.schema.value));
  ODF_HASH_RETURN_IF_ERROR(h.update(slice));
  ODF_HASH_ASSIGN_OR_RETURN(LogicalDigest d, std::move(h).finalize());
  std::vector<Digest256> out;
  for (size_t i : side.digest_index) out.push_back(d.columns[i].digest);
  return out;
}

class Locator {
 public:
  Locator(const io_internal::ArrowModuleApi& api, Side& a, Side& b, const RowDiffOptions& options,
          RowDiff& out)
      : api_(api), a_(a), b_(b), options_(options), out_(out) {}

  // Compares the next n rows of both sides' batches for the columns `which`.
  Status compare(int64_t start, int64_t n, const std::vector<size_t>& which) {
    ODF_HASH_ASSIGN_OR_RETURN(std::vector<size_t> differ, differing(start, n, which));
    return differ.empty() ? Status::ok() : narrow(start, n, differ);
  }

  // Compares the next n rows of both sides' batches as records, and the fields of those that
  // differ (the columns are top-level fields: locate_record_differences).
  Status compare_records(int64_t n) {
    ODF_HASH_RETURN_IF_ERROR(a_.digest_records(0, n));
    ODF_HASH_RETURN_IF_ERROR(b_.digest_records(0, n));
    bool checked = false;
    std::vector<uint8_t> va, vb;
    for (int64_t r = 0; r < n; ++r) {
      if (a_.digests[size_t(r)] == b_.digests[size_t(r)]) continue;
      ++out_.differing_records;
      for (size_t c = 0; c < out_.columns.size(); ++c) {
        if (!checked) {
          ODF_HASH_RETURN_IF_ERROR(a_.values[c].check(a_.batch.value, a_.pos, n));
          ODF_HASH_RETURN_IF_ERROR(b_.values[c].check(b_.batch.value, b_.pos, n));
        }
        if (!a_.values[c].encode_row(a_.batch.value, a_.pos + r, va) ||
            !b_.values[c].encode_row(b_.batch.value, b_.pos + r, vb)) {
          return Status::invalid_argument("column \"" + out_.columns[c].column +
                                          "\": a string or binary view points outside its data");
        }
        if (va == vb) continue;
        if ((va.at(0) == 0) != (vb.at(0) == 0)) ++out_.columns[c].null_on_one_side;
        ODF_HASH_RETURN_IF_ERROR(record(c, r));
      }
      checked = true;
    }
    return Status::ok();
  }

 private:
  // The columns of `which` whose digests differ over rows [start, start + n).
  Result<std::vector<size_t>> differing(int64_t start, int64_t n,
                                        const std::vector<size_t>& which) {
    ODF_HASH_ASSIGN_OR_RETURN(std::vector<Digest256> da, hash_rows(a_, start, n));
    ODF_HASH_ASSIGN_OR_RETURN(std::vector<Digest256> db, hash_rows(b_, start, n));
    std::vector<size_t> out;
    for (size_t c : which) {
      if (da[c] != db[c]) out.push_back(c);
    }
    return out;
  }

  // Rows [start, start + n) differ in the columns `which`: halve, or compare rows.
  Status narrow(int64_t start, int64_t n, const std::vector<size_t>& which) {
    if (n <= kRowsComparedDirectly) return compare_rows(start, n, which);
    const int64_t half = n / 2;
    ODF_HASH_ASSIGN_OR_RETURN(std::vector<size_t> d1, differing(start, half, which));
    ODF_HASH_ASSIGN_OR_RETURN(std::vector<size_t> d2, differing(start + half, n - half, which));
    // Neither half differs: the reference's validity rule for nested structs depends on the
    // nulls of the whole slice hashed (docs/divergences.md, section 1), so bytes under null
    // slots can count in a segment and not in its halves. compare_rows says so.
    if ((d1.empty() && d2.empty()) || (d1 == which && d2 == which)) {
      return compare_rows(start, n, which);
    }
    if (!d1.empty()) ODF_HASH_RETURN_IF_ERROR(narrow(start, half, d1));
    if (!d2.empty()) ODF_HASH_RETURN_IF_ERROR(narrow(start + half, n - half, d2));
    return Status::ok();
  }

  // Compares rows [start, start + n) value by value (and as records).
  Status compare_rows(int64_t start, int64_t n, const std::vector<size_t>& which) {
    ODF_HASH_RETURN_IF_ERROR(a_.digest_records(start, n));
    ODF_HASH_RETURN_IF_ERROR(b_.digest_records(start, n));
    for (int64_t r = 0; r < n; ++r) {
      if (a_.digests[size_t(r)] != b_.digests[size_t(r)]) ++out_.differing_records;
    }
    std::vector<uint8_t> va, vb;
    for (size_t c : which) {
      ODF_HASH_RETURN_IF_ERROR(a_.values[c].check(a_.batch.value, a_.pos + start, n));
      ODF_HASH_RETURN_IF_ERROR(b_.values[c].check(b_.batch.value, b_.pos + start, n));
      ColumnRowDifferences& col = out_.columns[c];
      const uint64_t before = col.differing_rows;
      for (int64_t r = start; r < start + n; ++r) {
        if (!a_.values[c].encode_row(a_.batch.value, a_.pos + r, va) ||
            !b_.values[c].encode_row(b_.batch.value, b_.pos + r, vb)) {
          return Status::invalid_argument("column \"" + col.column +
                                          "\": a string or binary view points outside its data");
        }
        if (va != vb) ODF_HASH_RETURN_IF_ERROR(record(c, r));
      }
      // The digests differ and no value does: bytes under null slots (see narrow).
      if (col.differing_rows == before && col.hidden_segments++ == 0) {
        col.first_hidden_row = a_.base + uint64_t(a_.pos + start);
        col.first_hidden_rows = uint64_t(n);
      }
    }
    return Status::ok();
  }

  Status record(size_t c, int64_t start) {
    return detail::note_difference(api_, a_, b_, out_.columns[c], c, start, options_);
  }

  const io_internal::ArrowModuleApi& api_;
  Side& a_;
  Side& b_;
  const RowDiffOptions& options_;
  RowDiff& out_;
};

}  // namespace

Result<RowDiff> locate_row_differences(std::shared_ptr<ObjectReader> original,
                                       std::shared_ptr<ObjectReader> reproduced,
                                       const std::vector<std::string>& columns,
                                       const RowDiffOptions& options) {
  return locate_row_differences(std::vector{std::move(original)},
                                std::vector{std::move(reproduced)}, columns, options);
}

Result<RowDiff> locate_row_differences(const std::vector<std::shared_ptr<ObjectReader>>& original,
                                       const std::vector<std::shared_ptr<ObjectReader>>& reproduced,
                                       const std::vector<std::string>& columns,
                                       const RowDiffOptions& options, RowWindow original_window,
                                       RowWindow reproduced_window) {
  return locate_cast_differences(original, reproduced, columns, CastSide::kNone, options,
                                 original_window, reproduced_window);
}

Result<RowDiff> locate_cast_differences(
    const std::vector<std::shared_ptr<ObjectReader>>& original,
    const std::vector<std::shared_ptr<ObjectReader>>& reproduced,
    const std::vector<std::string>& columns, CastSide cast, const RowDiffOptions& options,
    RowWindow original_window, RowWindow reproduced_window) {
  ODF_HASH_RETURN_IF_ERROR(check_groups(original, reproduced, "locate_row_differences"));
  ODF_HASH_ASSIGN_OR_RETURN(const io_internal::ArrowModuleApi* api, io_internal::arrow_module());
  RowDiff out;
  for (const auto& c : columns) {
    out.columns.emplace_back();
    out.columns.back().column = c;
  }
  if (columns.empty()) return out;
  Side a, b;
  std::vector<std::string> fields_a, fields_b;
  ODF_HASH_RETURN_IF_ERROR(open_side(original, *api, columns, fields_a, a, original_window,
                                     cast == CastSide::kOriginal ? reproduced[0] : nullptr));
  ODF_HASH_RETURN_IF_ERROR(open_side(reproduced, *api, columns, fields_b, b, reproduced_window,
                                     cast == CastSide::kReproduced ? original[0] : nullptr));
  out.record_fields = fields_a;
  std::vector<size_t> all(columns.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  Locator locator(*api, a, b, options, out);
  ODF_HASH_RETURN_IF_ERROR(
      read_in_step(a, b, out, [&](int64_t n) { return locator.compare(0, n, all); }));
  return out;
}

Result<RowDiff> locate_record_differences(
    const std::vector<std::shared_ptr<ObjectReader>>& original,
    const std::vector<std::shared_ptr<ObjectReader>>& reproduced, const RowDiffOptions& options,
    RowWindow original_window, RowWindow reproduced_window,
    const std::vector<std::string>& ignore) {
  ODF_HASH_RETURN_IF_ERROR(check_groups(original, reproduced, "locate_record_differences"));
  ODF_HASH_ASSIGN_OR_RETURN(const io_internal::ArrowModuleApi* api, io_internal::arrow_module());
  Side a, b;
  ODF_HASH_ASSIGN_OR_RETURN(std::vector<std::string> fields,
                            open_record_sides(*api, original, reproduced, original_window,
                                              reproduced_window, ignore, a, b));
  RowDiff out;
  for (const auto& f : fields) {
    out.columns.emplace_back();
    out.columns.back().column = f;
  }
  out.record_fields = fields;
  Locator locator(*api, a, b, options, out);
  ODF_HASH_RETURN_IF_ERROR(
      read_in_step(a, b, out, [&](int64_t n) { return locator.compare_records(n); }));
  // Only the fields that differ somewhere.
  std::erase_if(out.columns, [](const ColumnRowDifferences& c) { return c.differing_rows == 0; });
  return out;
}

}  // namespace odf_hash::compare
