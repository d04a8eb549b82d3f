// The sides of a row-by-row comparison (internal to compare): each table's record stream
// read in step with the other's, batch by batch, with what row_diff.cpp and tolerance.cpp
// need of it (the columns asked, their encoders, record digests, the `offset` column, which
// file of a group holds a row). Memory: one batch per side.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "odf_hash/compare/row_diff.h"
#include "odf_hash/core/status.h"
#include "odf_hash/internal/io/arrow_module.h"
#include "odf_hash/internal/io/concat_stream.h"
#include "odf_hash/internal/io/owned_c_data.h"
#include "odf_hash/io/row_window.h"
#include "odf_hash/io/store.h"
#include "odf_hash/logical/record_digest.h"

namespace odf_hash::compare::detail {

using io_internal::Owned;

// The child indices leading from a struct schema to the leaf at `path` (field names joined
// with '.', names that hold dots matched whole), or empty when there is none.
std::vector<int> find_leaf(const ArrowSchema& s, std::string_view path);

int find_top(const ArrowSchema& s, std::string_view name);

// One file being read: its projected stream and where it is in it.
struct Side {
  std::string name;
  Owned<ArrowSchema> schema;  // of the stream read (projected when it could be)
  Owned<ArrowArrayStream> stream;
  Owned<ArrowArray> batch;
  // `batch` imported for rendering its values, once for all shown (reset with the batch).
  io_internal::RenderBatchHandle render;
  int64_t pos = 0;    // next row of `batch`
  uint64_t base = 0;  // rows before `batch`
  bool done = false;
  std::vector<std::vector<int>> leaves;    // per column asked: child indices in `schema`
  std::vector<size_t> digest_index;        // per column asked: its index in LogicalDigest::columns
  int offset_child = -1;                   // the top-level `offset` column, when there is one
  std::optional<RecordDigester> records;   // over the top-level fields of the columns asked
  std::vector<ColumnValueEncoder> values;  // per column asked
  // Of the records in the segments whose digests differ (the others are equal on both
  // sides, so they add the same to both sums and are left out).
  UnorderedDigest multiset;
  std::vector<Digest256> digests;  // of the records being compared
  // A group of files: the row each file starts at (set as the stream opens them).
  std::vector<uint64_t> file_start;

  // The index of the file holding row `row` of the group.
  size_t file_at(uint64_t row) const {
    size_t f = 0;
    while (f + 1 < file_start.size() && file_start[f + 1] <= row) ++f;
    return f;
  }

  // Record digests of the rows [start, start + n) after `pos` into `digests`, and the
  // multiset.
  Status digest_records(int64_t start, int64_t n) {
    digests.clear();
    ODF_HASH_RETURN_IF_ERROR(records->digest_rows(batch.value, pos + start, n, digests));
    for (const auto& d : digests) multiset.add(d);
    return Status::ok();
  }

  // The value of column `c` (of the columns asked) at row `row` of the batch, as text.
  Result<std::string> render_value(const io_internal::ArrowModuleApi& api, size_t c, int64_t row,
                                   size_t max_chars) {
    if (!render) {
      ODF_HASH_ASSIGN_OR_RETURN(render,
                                io_internal::open_render_batch(api, schema.value, batch.value));
    }
    ODF_HASH_ASSIGN_OR_RETURN(std::vector<std::string> v,
                              api.render_batch_values(render.get(), leaves[c], {row}, max_chars));
    return v.at(0);
  }

  int64_t remaining() const { return batch.value.release ? batch.value.length - pos : 0; }

  // Moves to the next batch holding rows (or to the end).
  Status advance() {
    while (!done && remaining() == 0) {
      if (batch.value.release != nullptr) base += uint64_t(batch.value.length);
      render.reset();
      batch.reset();
      pos = 0;
      if (stream.value.get_next(&stream.value, &batch.value) != 0) {
        const char* err = stream.value.get_last_error(&stream.value);
        return Status::io_error(name + ": " + (err != nullptr ? err : "reading a batch failed"));
      }
      if (batch.value.release == nullptr) done = true;
    }
    return Status::ok();
  }

  // Whether slot `i` (the batch's and the column's offsets added) of a column is not null.
  static bool valid_at(const ArrowArray& column, int64_t i) {
    const auto* validity = static_cast<const uint8_t*>(column.buffers[0]);
    return column.null_count == 0 || validity == nullptr || ((validity[i >> 3] >> (i & 7)) & 1);
  }

  std::optional<int64_t> offset_at(int64_t row) const {
    if (offset_child < 0) return std::nullopt;
    const ArrowArray& b = batch.value;
    const ArrowArray* c = b.children[offset_child];
    const std::string f = schema.value.children[offset_child]->format;
    const int64_t i = b.offset + c->offset + row;
    if (!valid_at(*c, i)) return std::nullopt;
    if (c->buffers[1] == nullptr) return std::nullopt;
    if (f == "l" || f == "L") return static_cast<const int64_t*>(c->buffers[1])[i];
    if (f == "i") return static_cast<const int32_t*>(c->buffers[1])[i];
    if (f == "I") return static_cast<const uint32_t*>(c->buffers[1])[i];
    return std::nullopt;
  }
};

// Opens a side's stream over `objects` (each file opened by `open`) and reads its schema.
// `open_from`: see concatenate_streams (Side::file_start is then not to be read).
Status open_stream(const std::vector<std::shared_ptr<ObjectReader>>& objects,
                   io_internal::StreamOpener open, Side& side, RowWindow window,
                   io_internal::StreamOpenerFrom open_from = {});

// A side whose records are compared whole (locate_record_differences), its stream open: the
// top-level `fields` (the original's, in its order, but the `ignored`) found by name, each
// with its encoder.
Status bind_record_fields(const std::vector<std::string>& fields,
                          const std::vector<std::string>& ignored, Side& side);

// Both sides opened for their records compared whole (locate_record_differences): each
// group's record stream, the original's top-level fields but the `ignored` bound on both
// (bind_record_fields); returns those fields. Every field ignored is kInvalidArgument.
Result<std::vector<std::string>> open_record_sides(
    const io_internal::ArrowModuleApi& api,
    const std::vector<std::shared_ptr<ObjectReader>>& original,
    const std::vector<std::shared_ptr<ObjectReader>>& reproduced, RowWindow original_window,
    RowWindow reproduced_window, const std::vector<std::string>& ignore, Side& a, Side& b);

// Row `r` of both sides' batches (counted from their `pos`) as a differing row of column `c`
// (of the columns asked): its index, `offset`, the files holding it, both values as text.
Result<DifferingRow> differing_row(const io_internal::ArrowModuleApi& api, Side& a, Side& b,
                                   size_t c, int64_t r, size_t max_chars);

// Counts row `r` (from both sides' `pos`) as differing in column `c`, `col` its entry of the
// result; the first RowDiffOptions::max_rows of them rendered (differing_row).
Status note_difference(const io_internal::ArrowModuleApi& api, Side& a, Side& b,
                       ColumnRowDifferences& col, size_t c, int64_t r,
                       const RowDiffOptions& options);

// Whether both groups hold objects (`what` names the caller in the error).
Status check_groups(const std::vector<std::shared_ptr<ObjectReader>>& original,
                    const std::vector<std::shared_ptr<ObjectReader>>& reproduced,
                    const std::string& what);

// Reads both sides in step, `compare(n)` called on the next n rows both batches have; then
// the longer side's remaining rows counted (with them the multisets cannot be the same), and
// the row counts and multiset set in `out`.
template <typename Compare>
Status read_in_step(Side& a, Side& b, RowDiff& out, Compare&& compare) {
  while (true) {
    ODF_HASH_RETURN_IF_ERROR(a.advance());
    ODF_HASH_RETURN_IF_ERROR(b.advance());
    if (a.done || b.done) break;
    const int64_t n = std::min(a.remaining(), b.remaining());
    ODF_HASH_RETURN_IF_ERROR(compare(n));
    a.pos += n;
    b.pos += n;
  }
  for (Side* s : {&a, &b}) {
    while (!s->done) {
      s->pos = s->batch.value.release ? s->batch.value.length : 0;
      ODF_HASH_RETURN_IF_ERROR(s->advance());
    }
  }
  out.same_record_multiset = a.base == b.base && a.multiset.sum() == b.multiset.sum() &&
                             a.records->schema_bytes() == b.records->schema_bytes();
  out.original_rows = a.base;
  out.reproduced_rows = b.base;
  return Status::ok();
}

}  // namespace odf_hash::compare::detail
