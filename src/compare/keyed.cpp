// compare_keyed (keyed.h): keys and value digests spilled to partitions by key (step 1), the
// partitions merged pairwise (step 2, keyed_merge.cpp), the first differences read again
// and rendered (step 3).
#include "odf_hash/compare/keyed.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <map>
#include <memory>
#include <tuple>

#include "keyed_entries.h"
#include "odf_hash/core/parallel.h"
#include "odf_hash/internal/core/sha3_multi.h"
#include "odf_hash/internal/io/arrow_module.h"
#include "odf_hash/internal/io/concat_stream.h"
#include "odf_hash/internal/io/owned_c_data.h"
#include "odf_hash/io/cancel.h"
#include "odf_hash/logical/record_digest.h"
#include "row_sides.h"

namespace odf_hash::compare {

namespace {

using detail::Entry;
using detail::kExactKeyBytes;
using detail::key_hash;
using detail::kHashedKey;
using detail::kKeyBytes;
using detail::kMaxRows;
using detail::kValueBytes;
using detail::partition_of;
using detail::Shown;
using detail::Side;
using detail::Spill;
using io_internal::Owned;

std::vector<std::string> top_names(const ArrowSchema& s) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < s.n_children; ++i) {
    out.emplace_back(s.children[i]->name != nullptr ? s.children[i]->name : "");
  }
  return out;
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// One table read for step 1: its stream, its key encoders and value digester, and what it
// adds up.
struct KeyedReader {
  std::string name;
  Owned<ArrowArrayStream> stream;
  Owned<ArrowSchema> schema;
  std::optional<RecordDigester> keys;    // the key columns' bytes (and schema: types checked)
  std::optional<RecordDigester> values;  // none when every other column is ignored
  UnorderedDigest key_sum;               // of the hashed keys' whole digests
  UnorderedDigest value_sum;
  uint64_t rows = 0;

  Status open(const Table& table) {
    ODF_HASH_ASSIGN_OR_RETURN(const io_internal::ArrowModuleApi* api, io_internal::arrow_module());
    name = table.name();
    ODF_HASH_RETURN_IF_ERROR(io_internal::concatenate_streams(
        table.objects, api->open_record_stream, &stream.value, {}, table.window));
    if (stream.value.get_schema(&stream.value, &schema.value) != 0) {
      return Status::io_error(name + ": reading the stream's schema failed");
    }
    return Status::ok();
  }

  Status bind(const std::vector<std::string>& key_fields,
              const std::vector<std::string>& value_fields) {
    ODF_HASH_ASSIGN_OR_RETURN(RecordDigester k, RecordDigester::create(schema.value, key_fields));
    keys.emplace(std::move(k));
    if (!value_fields.empty()) {
      ODF_HASH_ASSIGN_OR_RETURN(RecordDigester v,
                                RecordDigester::create(schema.value, value_fields));
      values.emplace(std::move(v));
    }
    return Status::ok();
  }

  // The entries of the rows [begin, begin + n) of a batch: keys (exact or hashed, see above),
  // value digests, row indices, each entry's partition in `parts`.
  Status make_entries(const ArrowArray& batch, int64_t begin, int64_t n) {
    entries.assign(size_t(n), Entry{});
    parts.resize(size_t(n));
    Status st = keys->encode_rows(batch, begin, n, key_bytes, key_ends);
    if (st.is_ok() && values) {
      value_digests.clear();
      st = values->digest_rows(batch, begin, n, value_digests);
    }
    if (!st.is_ok()) return Status(st.code(), name + ": " + st.message());
    long_ends.clear();
    long_rows.clear();
    long_bytes.clear();
    uint64_t at = 0;
    for (size_t i = 0; i < size_t(n); ++i) {
      Entry& e = entries[i];
      const uint64_t len = key_ends[i] - at;
      if (len <= kExactKeyBytes) {
        e.key[0] = uint8_t(len);
        std::memcpy(e.key.data() + 1, key_bytes.data() + at, len);
      } else {
        long_bytes.insert(long_bytes.end(), key_bytes.begin() + std::ptrdiff_t(at),
                          key_bytes.begin() + std::ptrdiff_t(key_ends[i]));
        long_ends.push_back(long_bytes.size());
        long_rows.push_back(i);
      }
      at = key_ends[i];
      if (values) {
        std::memcpy(e.value.data(), value_digests[i].data(), kValueBytes);
        value_sum.add(value_digests[i]);
      }
      const uint64_t row = rows + uint64_t(begin) + i;
      std::memcpy(e.row_le.data(), &row, e.row_le.size());
    }
    if (!long_rows.empty()) {
      long_digests.resize(long_rows.size());
      sha3_256_each(long_bytes.data(), long_ends.data(), long_rows.size(), long_digests.data());
      for (size_t k = 0; k < long_rows.size(); ++k) {
        Entry& e = entries[long_rows[k]];
        e.key[0] = kHashedKey;
        std::memcpy(e.key.data() + 1, long_digests[k].data(), kKeyBytes - 1);
        key_sum.add(long_digests[k]);
      }
    }
    for (size_t i = 0; i < size_t(n); ++i) parts[i] = partition_of(key_hash(entries[i].key));
    return Status::ok();
  }

  // Step 1 for this table: every row's key and value digest spilled by key, a run of rows at
  // a time (their keys, digests and entries stay in the cache from making to spilling).
  Status read(Spill& spill, const CancelFlag* cancel) {
    constexpr int64_t kRun = 1024;
    while (true) {
      if (cancel_requested(cancel)) return Status::cancelled(name + ": cancelled");
      Owned<ArrowArray> batch;
      if (stream.value.get_next(&stream.value, &batch.value) != 0) {
        const char* err = stream.value.get_last_error(&stream.value);
        return Status::io_error(name + ": " + (err != nullptr ? err : "reading a batch failed"));
      }
      if (batch.value.release == nullptr) return Status::ok();
      const int64_t n = batch.value.length;
      if (rows + uint64_t(n) > kMaxRows) {
        return Status::unsupported(name + ": more than 2^40 records");
      }
      for (int64_t r = 0; r < n; r += kRun) {
        const int64_t k = std::min(kRun, n - r);
        ODF_HASH_RETURN_IF_ERROR(make_entries(batch.value, r, k));
        for (size_t i = 0; i < size_t(k); ++i) {
          ODF_HASH_RETURN_IF_ERROR(spill.add(parts[i], entries[i]));
        }
      }
      rows += uint64_t(n);
    }
  }

 private:
  // make_entries' buffers, kept from run to run.
  std::vector<Entry> entries;
  std::vector<unsigned> parts;
  std::vector<uint8_t> key_bytes, long_bytes;
  std::vector<uint64_t> key_ends, long_ends;
  std::vector<size_t> long_rows;
  std::vector<Digest256> value_digests, long_digests;
};

// The key, value and ignored columns, checked on both schemas.
struct Columns {
  std::vector<std::string> key;
  std::vector<std::string> values;  // in the original's order
  std::vector<std::string> ignored;
};

Result<Columns> choose_columns(KeyedOptions options, const KeyedReader& a, const KeyedReader& b) {
  Columns out;
  if (options.ignore_time_columns) {  // two tables: the ODF defaults (compare.h)
    for (const char* t : {"system_time", "event_time"}) {
      if (!contains(options.ignore, t) && !contains(options.key, t)) options.ignore.push_back(t);
    }
  }
  if (options.key.empty()) return Status::invalid_argument("compare --key: no key column");
  const std::vector<std::string> na = top_names(a.schema.value), nb = top_names(b.schema.value);
  for (const auto& k : options.key) {
    if (contains(out.key, k)) continue;
    if (contains(options.ignore, k)) {
      return Status::invalid_argument("key column \"" + k + "\" is also ignored");
    }
    for (const auto* side : {&a, &b}) {
      if (!contains(side == &a ? na : nb, k)) {
        return Status::invalid_argument(side->name + ": no key column \"" + k + "\"");
      }
    }
    out.key.push_back(k);
  }
  for (const auto& f : na) {
    if (contains(out.key, f)) continue;
    if (contains(options.ignore, f)) {
      if (!contains(out.ignored, f)) out.ignored.push_back(f);
      continue;
    }
    if (!contains(nb, f)) {
      return Status::invalid_argument(b.name + ": no column \"" + f +
                                      "\" (leave it out with --ignore-columns)");
    }
    out.values.push_back(f);
  }
  for (const auto& f : nb) {
    if (contains(out.key, f) || contains(out.values, f)) continue;
    if (contains(options.ignore, f)) {
      if (!contains(out.ignored, f)) out.ignored.push_back(f);
      continue;
    }
    return Status::invalid_argument(a.name + ": no column \"" + f +
                                    "\" (leave it out with --ignore-columns)");
  }
  return out;
}

// Keys are matched by their digests' bytes: one type up to encodings on both sides.
Status check_key_types(const Columns& columns, const KeyedReader& a, const KeyedReader& b,
                       const std::vector<SchemaDifference>& differences) {
  if (a.keys->schema_bytes() == b.keys->schema_bytes()) return Status::ok();
  for (const auto& d : differences) {
    if (d.kind == SchemaDifference::Kind::kType && !d.encoding_only &&
        (contains(columns.key, d.field) ||
         std::any_of(columns.key.begin(), columns.key.end(),
                     [&](const std::string& k) { return d.field.rfind(k + ".", 0) == 0; }))) {
      return Status::invalid_argument("key column \"" + d.field + "\" is " + d.original +
                                      " in the original and " + d.reproduced +
                                      " in the reproduction: keys are matched by value, one "
                                      "type on both sides");
    }
  }
  return Status::invalid_argument(
      "the key columns have other types on the two sides: keys are matched by value, one type "
      "on both sides");
}

// A row read again for step 3: its offset, and per top-level field its bytes and its text.
struct ReadRow {
  uint64_t row = 0;
  std::optional<int64_t> offset;
  std::vector<std::vector<uint8_t>> bytes;
  std::vector<std::string> text;
};

// Step 3 for one table: the rows shown read again.
// Rows further apart than this are read from streams of their own, each opened at its first
// row (a Parquet file's row groups before it are never decoded); nearer ones in one stream.
constexpr uint64_t kReopenGap = uint64_t{1} << 20;

// The rows [next, end) of `rows` (sorted) read from one stream opened at the first of them.
Status read_run(const Table& table, const std::vector<uint64_t>& rows, size_t next, size_t end,
                size_t max_chars, std::vector<std::string>& names, std::vector<ReadRow>& out) {
  ODF_HASH_ASSIGN_OR_RETURN(const io_internal::ArrowModuleApi* api, io_internal::arrow_module());
  const uint64_t first = rows[next];
  RowWindow window{table.window.skip + first, std::nullopt};
  if (table.window.limit) window.limit = *table.window.limit - first;
  Side side;
  ODF_HASH_RETURN_IF_ERROR(detail::open_stream(table.objects, api->open_record_stream, side, window,
                                               api->open_record_stream_from));
  names = top_names(side.schema.value);
  for (size_t c = 0; c < names.size(); ++c) {
    side.leaves.push_back({int(c)});
    ODF_HASH_ASSIGN_OR_RETURN(ColumnValueEncoder e,
                              ColumnValueEncoder::create(side.schema.value, {int(c)}));
    side.values.push_back(std::move(e));
  }
  while (next < end) {
    if (cancel_requested(table.cancel)) return Status::cancelled(side.name + ": cancelled");
    ODF_HASH_RETURN_IF_ERROR(side.advance());
    if (side.done) break;
    const uint64_t batch_end = first + side.base + uint64_t(side.remaining());
    for (; next < end && rows[next] < batch_end; ++next) {
      const int64_t r = int64_t(rows[next] - first - side.base);
      ReadRow row;
      row.row = rows[next];
      row.offset = side.offset_at(r);
      for (size_t c = 0; c < names.size(); ++c) {
        ODF_HASH_RETURN_IF_ERROR(side.values[c].check(side.batch.value, r, 1));
        std::vector<uint8_t> bytes;
        if (!side.values[c].encode_row(side.batch.value, r, bytes)) {
          return Status::invalid_argument(side.name + ": column \"" + names[c] +
                                          "\": a string or binary view points outside its data");
        }
        row.bytes.push_back(std::move(bytes));
        ODF_HASH_ASSIGN_OR_RETURN(std::string text, side.render_value(*api, c, r, max_chars));
        row.text.push_back(std::move(text));
      }
      out.push_back(std::move(row));
    }
    side.pos = side.batch.value.length;  // on to the next batch
  }
  return Status::ok();
}

// The rows `rows` (sorted, each once) of a table, read again, in runs of near rows.
Result<std::vector<ReadRow>> read_rows(const Table& table, const std::vector<uint64_t>& rows,
                                       size_t max_chars, std::vector<std::string>& names) {
  std::vector<ReadRow> out;
  for (size_t next = 0; next < rows.size();) {
    size_t end = next + 1;
    while (end < rows.size() && rows[end] - rows[end - 1] <= kReopenGap) ++end;
    ODF_HASH_RETURN_IF_ERROR(read_run(table, rows, next, end, max_chars, names, out));
    next = end;
  }
  return out;
}

const ReadRow* find_row(const std::vector<ReadRow>& rows, uint64_t row) {
  auto it = std::lower_bound(rows.begin(), rows.end(), row,
                             [](const ReadRow& r, uint64_t x) { return r.row < x; });
  return it != rows.end() && it->row == row ? &*it : nullptr;
}

std::string record_text(const ReadRow& row, const std::vector<std::string>& names) {
  std::string text;
  for (size_t c = 0; c < names.size(); ++c) {
    text += (c ? ", " : "") + names[c] + "=" + row.text[c];
  }
  return text;
}

std::vector<UnorderedRecordRef> refs(const std::vector<uint64_t>& rows,
                                     const std::vector<ReadRow>& read,
                                     const std::vector<std::string>& names) {
  std::vector<UnorderedRecordRef> out;
  for (uint64_t r : rows) {
    const ReadRow* row = find_row(read, r);
    if (row != nullptr) out.push_back({r, row->offset, record_text(*row, names)});
  }
  return out;
}

int index_of(const std::vector<std::string>& names, const std::string& name) {
  auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : int(it - names.begin());
}

// Step 3: the rows shown read again, a changed pair compared column by column.
Status render(const Table& original, const Table& reproduced, const Shown& shown,
              const KeyedOptions& options, KeyedComparison& out) {
  std::vector<uint64_t> rows_a = shown.only_a, rows_b = shown.only_b;
  rows_a.insert(rows_a.end(), shown.dup_a.begin(), shown.dup_a.end());
  rows_b.insert(rows_b.end(), shown.dup_b.begin(), shown.dup_b.end());
  for (const auto& [ra, rb] : shown.changes) {
    rows_a.push_back(ra);
    rows_b.push_back(rb);
  }
  for (auto* v : {&rows_a, &rows_b}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  std::vector<std::string> names_a, names_b;
  Result<std::vector<ReadRow>> ra = Status::internal("not run");
  Result<std::vector<ReadRow>> rb = Status::internal("not run");
  side_by_side([&] { ra = read_rows(original, rows_a, options.max_value_chars, names_a); },
               [&] { rb = read_rows(reproduced, rows_b, options.max_value_chars, names_b); });
  ODF_HASH_RETURN_IF_ERROR(ra.status());
  ODF_HASH_RETURN_IF_ERROR(rb.status());
  out.original.only_examples = refs(shown.only_a, *ra, names_a);
  out.reproduced.only_examples = refs(shown.only_b, *rb, names_b);
  out.original.duplicate_examples = refs(shown.dup_a, *ra, names_a);
  out.reproduced.duplicate_examples = refs(shown.dup_b, *rb, names_b);
  for (const auto& [row_a, row_b] : shown.changes) {
    const ReadRow* a = find_row(*ra, row_a);
    const ReadRow* b = find_row(*rb, row_b);
    if (a == nullptr || b == nullptr) continue;
    KeyedChange change;
    change.original_row = row_a;
    change.reproduced_row = row_b;
    change.original_offset = a->offset;
    change.reproduced_offset = b->offset;
    for (const auto& k : out.key) {
      const int c = index_of(names_a, k);
      change.key += (change.key.empty() ? "" : ", ") + k + "=" + a->text[size_t(c)];
    }
    for (const auto& f : out.compared_columns) {
      const int ca = index_of(names_a, f), cb = index_of(names_b, f);
      if (ca < 0 || cb < 0 || a->bytes[size_t(ca)] == b->bytes[size_t(cb)]) continue;
      change.values.push_back({f, a->text[size_t(ca)], b->text[size_t(cb)]});
    }
    out.changes.push_back(std::move(change));
  }
  return Status::ok();
}

}  // namespace

Result<KeyedComparison> compare_keyed(const Table& original, const Table& reproduced,
                                      const KeyedOptions& options) {
  ODF_HASH_RETURN_IF_ERROR(check_table(original, "compare_keyed"));
  ODF_HASH_RETURN_IF_ERROR(check_table(reproduced, "compare_keyed"));
  KeyedReader a, b;
  ODF_HASH_RETURN_IF_ERROR(a.open(original));
  ODF_HASH_RETURN_IF_ERROR(b.open(reproduced));
  ODF_HASH_ASSIGN_OR_RETURN(Columns columns, choose_columns(options, a, b));
  ODF_HASH_RETURN_IF_ERROR(a.bind(columns.key, columns.values));
  ODF_HASH_RETURN_IF_ERROR(b.bind(columns.key, columns.values));
  KeyedComparison out;
  out.key = columns.key;
  out.compared_columns = columns.values;
  out.ignored_columns = columns.ignored;
  out.original.path = a.name;
  out.reproduced.path = b.name;
  for (const auto& d : diff_schemas(a.schema.value, b.schema.value)) {
    if (d.kind != SchemaDifference::Kind::kPosition ||
        detail::find_top(a.schema.value, d.field) < 0) {
      if (!contains(columns.ignored, d.field.substr(0, d.field.find('.')))) {
        out.schema_differences.push_back(d);
      }
    }
  }
  ODF_HASH_RETURN_IF_ERROR(check_key_types(columns, a, b, out.schema_differences));

  Spill spill_a, spill_b;
  ODF_HASH_RETURN_IF_ERROR(spill_a.open());
  ODF_HASH_RETURN_IF_ERROR(spill_b.open());
  Status sa = Status::internal("not run"), sb = Status::internal("not run");
  side_by_side([&] { sa = a.read(spill_a, original.cancel); },
               [&] { sb = b.read(spill_b, reproduced.cancel); });
  ODF_HASH_RETURN_IF_ERROR(sa);
  ODF_HASH_RETURN_IF_ERROR(sb);
  ODF_HASH_RETURN_IF_ERROR(spill_a.finish());
  ODF_HASH_RETURN_IF_ERROR(spill_b.finish());
  out.original.rows = a.rows;
  out.reproduced.rows = b.rows;

  Shown shown;
  ODF_HASH_RETURN_IF_ERROR(
      detail::merge_keyed_partitions(spill_a, spill_b, options.max_examples, out, shown));

  const bool value_types_agree = !a.values || a.values->schema_bytes() == b.values->schema_bytes();
  out.same_values = out.original.only_here == 0 && out.reproduced.only_here == 0 &&
                    out.changed_keys == 0 && a.rows == b.rows &&
                    a.key_sum.sum() == b.key_sum.sum() && a.value_sum.sum() == b.value_sum.sum();
  out.same_records = out.same_values && value_types_agree;
  if (out.same_records) out.same_values = false;
  ODF_HASH_RETURN_IF_ERROR(render(original, reproduced, shown, options, out));
  return out;
}

}  // namespace odf_hash::compare
