// compare_keyed (keyed.h): key and value digests spilled to partitions by key, the
// partitions merged pairwise, the first differences read again and rendered.
#include "odf_hash/compare/keyed.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <map>

#include "odf_hash/core/parallel.h"
#include "odf_hash/internal/core/sha3_multi.h"
#include "odf_hash/internal/io/arrow_module.h"
#include "odf_hash/internal/io/concat_stream.h"
#include "odf_hash/internal/io/owned_c_data.h"
#include "odf_hash/io/cancel.h"
#include "odf_hash/logical/record_digest.h"
#include "row_sides.h"
#include "spill.h"

namespace odf_hash::compare {

namespace {

using detail::Side;
using io_internal::Owned;

// One row as spilled, 32 bytes: its key (11 bytes: exact when short, else an 80-bit prefix
// of its digest, see KeyedReader), the first 16 bytes of its value digest, its row index in
// 40 bits. A wrong match of hashed keys or values could only turn "same" into a difference,
// or one difference into another: the verdict also needs the whole 256-bit sums of the
// hashed keys and of the values to agree.
constexpr size_t kKeyBytes = 11;
constexpr size_t kValueBytes = 16;
constexpr uint64_t kMaxRows = uint64_t{1} << 40;
struct Entry {
  std::array<uint8_t, kKeyBytes> key;
  std::array<uint8_t, kValueBytes> value;
  std::array<uint8_t, 5> row_le;
  uint64_t row() const {
    uint64_t r = 0;
    std::memcpy(&r, row_le.data(), row_le.size());  // little-endian, as written
    return r;
  }
};
static_assert(sizeof(Entry) == 32);
static_assert(std::endian::native == std::endian::little, "Entry::row_le is written by memcpy");
// 64 partitions x 2 tables x 4096 entries x 32 bytes: 16 MiB of write buffers.
using Spill = detail::PartitionedSpill<Entry, kKeyedPartitions, 4096>;

bool by_key_value_row(const Entry& x, const Entry& y) {
  if (x.key != y.key) return x.key < y.key;
  if (x.value != y.value) return x.value < y.value;
  return x.row() < y.row();
}

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

// The key field of an entry: a key whose bytes (its columns' value bytes, as record digests
// take them: encodings of one type alike) fit in 10 bytes is stored exactly, after its length
// (an int64 key: 9 bytes); a longer one as 0xFF and the first 10 bytes of their SHA3-256.
// The two kinds never compare equal. Keys stored exactly need no hashing (most keys: ids,
// timestamps, short codes), and match without any collision.
constexpr size_t kExactKeyBytes = kKeyBytes - 1;
constexpr uint8_t kHashedKey = 0xFF;

// The partition of a key: its bytes mixed (an exact key's first byte is its length).
unsigned partition_of(const std::array<uint8_t, kKeyBytes>& key) {
  uint64_t a = 0, b = 0;
  std::memcpy(&a, key.data(), 8);
  std::memcpy(&b, key.data() + 8, kKeyBytes - 8);
  uint64_t h = (a ^ (b * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
  h ^= h >> 31;
  return unsigned(h >> 58) % kKeyedPartitions;
}

// One table read for step 1: its stream, its key encoders and value digester, and what it
// adds up.
struct KeyedReader {
  std::string name;
  Owned<ArrowArrayStream> stream;
  Owned<ArrowSchema> schema;
  std::optional<RecordDigester> keys;           // the key columns' schema bytes (types checked)
  std::vector<ColumnValueEncoder> key_columns;  // per key column, in the order asked
  std::optional<RecordDigester> values;         // none when every other column is ignored
  UnorderedDigest key_sum;                      // of the hashed keys' whole digests
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
    for (const auto& f : key_fields) {
      ODF_HASH_ASSIGN_OR_RETURN(
          ColumnValueEncoder e,
          ColumnValueEncoder::create(schema.value, {detail::find_top(schema.value, f)}));
      key_columns.push_back(std::move(e));
    }
    if (!value_fields.empty()) {
      ODF_HASH_ASSIGN_OR_RETURN(RecordDigester v,
                                RecordDigester::create(schema.value, value_fields));
      values.emplace(std::move(v));
    }
    return Status::ok();
  }

  // The key fields of a batch's `n` rows into `entries` (exact or hashed, see above).
  Status key_entries(const ArrowArray& batch, int64_t n, std::vector<Entry>& entries) {
    for (auto& k : key_columns) {
      Status st = k.check(batch, 0, n);
      if (!st.is_ok()) return Status(st.code(), name + ": " + st.message());
    }
    std::vector<uint8_t> one, all;
    std::vector<uint64_t> ends;     // of the long keys in `all`
    std::vector<size_t> long_rows;  // their rows in the batch
    for (int64_t i = 0; i < n; ++i) {
      const size_t at = all.size();
      for (auto& k : key_columns) {
        if (!k.encode_row(batch, i, one)) {
          return Status::invalid_argument(
              name + ": a key's string or binary view points outside its data");
        }
        all.insert(all.end(), one.begin(), one.end());
      }
      Entry& e = entries[size_t(i)];
      const size_t len = all.size() - at;
      if (len <= kExactKeyBytes) {
        e.key[0] = uint8_t(len);
        std::memcpy(e.key.data() + 1, all.data() + at, len);
        all.resize(at);
      } else {
        ends.push_back(all.size());
        long_rows.push_back(size_t(i));
      }
    }
    if (long_rows.empty()) return Status::ok();
    std::vector<Digest256> digests(long_rows.size());
    sha3_256_each(all.data(), ends.data(), long_rows.size(), digests.data());
    for (size_t k = 0; k < long_rows.size(); ++k) {
      Entry& e = entries[long_rows[k]];
      e.key[0] = kHashedKey;
      std::memcpy(e.key.data() + 1, digests[k].data(), kKeyBytes - 1);
      key_sum.add(digests[k]);
    }
    return Status::ok();
  }

  // Step 1 for this table: every row's key and value digest spilled by key.
  Status read(Spill& spill, const CancelFlag* cancel) {
    std::vector<Digest256> vd;
    std::vector<Entry> entries;
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
      entries.assign(size_t(n), Entry{});
      ODF_HASH_RETURN_IF_ERROR(key_entries(batch.value, n, entries));
      vd.clear();
      if (values) {
        Status st = values->digest_rows(batch.value, 0, n, vd);
        if (!st.is_ok()) return Status(st.code(), name + ": " + st.message());
      }
      for (int64_t i = 0; i < n; ++i) {
        Entry& e = entries[size_t(i)];
        if (values) {
          std::memcpy(e.value.data(), vd[size_t(i)].data(), kValueBytes);
          value_sum.add(vd[size_t(i)]);
        }
        const uint64_t row = rows + uint64_t(i);
        std::memcpy(e.row_le.data(), &row, e.row_le.size());
        ODF_HASH_RETURN_IF_ERROR(spill.add(partition_of(e.key), e));
      }
      rows += uint64_t(n);
    }
  }
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

// What step 2 keeps of the rows to show: rows of each side, and the pairs of changed rows.
struct Shown {
  std::vector<uint64_t> only_a, only_b, dup_a, dup_b;
  std::vector<std::pair<uint64_t, uint64_t>> changes;  // (original row, reproduced row)
};

// Keeps the `max` smallest values seen in `v` (sorted).
template <typename T>
void keep_smallest(std::vector<T>& v, size_t max, const T& x) {
  if (max == 0) return;
  auto pos = std::lower_bound(v.begin(), v.end(), x);
  if (v.size() >= max && pos == v.end()) return;
  v.insert(pos, x);
  if (v.size() > max) v.pop_back();
}

// Sorts (prefix, index) pairs by prefix, then index: LSD radix sort by 16-bit digits (a digit
// that is the same in every pair, as the length byte of exact keys, is skipped).
void radix_sort(std::vector<std::pair<uint64_t, uint64_t>>& v) {
  std::vector<std::pair<uint64_t, uint64_t>> tmp(v.size());
  std::vector<uint64_t> count(1u << 16);
  for (int shift = 0; shift < 64; shift += 16) {
    std::fill(count.begin(), count.end(), 0);
    for (const auto& x : v) ++count[(x.first >> shift) & 0xFFFF];
    if (count[(v.front().first >> shift) & 0xFFFF] == v.size()) continue;  // one digit
    uint64_t sum = 0;
    for (auto& c : count) {
      const uint64_t n = c;
      c = sum;
      sum += n;
    }
    for (const auto& x : v) tmp[count[(x.first >> shift) & 0xFFFF]++] = x;  // stable
    v.swap(tmp);
  }
}

// Sorts a partition by (key, value, row): by the keys' first 8 bytes first (pairs of a
// 64-bit prefix and an index, radix-sorted: cheap to move), then each run of one prefix
// whole. std::sort of the 32-byte entries themselves took most of the comparison's time.
void sort_entries(std::vector<Entry>& entries) {
  if (entries.size() < 2) return;
  std::vector<std::pair<uint64_t, uint64_t>> order(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    uint64_t prefix = 0;
    std::memcpy(&prefix, entries[i].key.data(), sizeof prefix);
    order[i] = {__builtin_bswap64(prefix), i};  // big-endian: the keys' byte order
  }
  radix_sort(order);  // stable: ties stay in index order
  std::vector<Entry> sorted;
  sorted.reserve(entries.size());
  for (const auto& o : order) sorted.push_back(entries[o.second]);
  for (size_t i = 0; i < order.size();) {
    size_t j = i + 1;
    while (j < order.size() && order[j].first == order[i].first) ++j;
    if (j - i > 1) {
      std::sort(sorted.begin() + std::ptrdiff_t(i), sorted.begin() + std::ptrdiff_t(j),
                by_key_value_row);
    }
    i = j;
  }
  entries.swap(sorted);
}

// What merging some partitions found (step 2), to be added up.
struct Merged {
  KeyedComparison counts;  // only_here, duplicate_keys/rows, matched_keys, changed_keys
  Shown shown;
};

// One pair of partitions merged into `m`.
Status merge_partition(Spill& sa, Spill& sb, unsigned p, size_t max, Merged& m) {
  KeyedComparison& out = m.counts;
  Shown& shown = m.shown;
  ODF_HASH_ASSIGN_OR_RETURN(std::vector<Entry> ea, sa.read(p));
  ODF_HASH_ASSIGN_OR_RETURN(std::vector<Entry> eb, sb.read(p));
  sort_entries(ea);
  sort_entries(eb);
  size_t i = 0, j = 0;
  while (i < ea.size() || j < eb.size()) {
    // The next key, and the runs of rows holding it on each side.
    const auto& key =
        (j == eb.size() || (i < ea.size() && ea[i].key < eb[j].key)) ? ea[i].key : eb[j].key;
    size_t i2 = i, j2 = j;
    while (i2 < ea.size() && ea[i2].key == key) ++i2;
    while (j2 < eb.size() && eb[j2].key == key) ++j2;
    const size_t na = i2 - i, nb = j2 - j;
    if (nb == 0 || na == 0) {
      KeyedSide& side = nb == 0 ? out.original : out.reproduced;
      std::vector<uint64_t>& rows = nb == 0 ? shown.only_a : shown.only_b;
      const std::vector<Entry>& e = nb == 0 ? ea : eb;
      for (size_t k = nb == 0 ? i : j; k < (nb == 0 ? i2 : j2); ++k) {
        ++side.only_here;
        keep_smallest(rows, max, e[k].row());
      }
    } else {
      ++out.matched_keys;
      for (int s = 0; s < 2; ++s) {
        const size_t n = s == 0 ? na : nb;
        if (n < 2) continue;
        KeyedSide& side = s == 0 ? out.original : out.reproduced;
        ++side.duplicate_keys;
        side.duplicate_rows += n;
        const std::vector<Entry>& e = s == 0 ? ea : eb;
        for (size_t k = s == 0 ? i : j; k < (s == 0 ? i2 : j2); ++k) {
          keep_smallest(s == 0 ? shown.dup_a : shown.dup_b, max, e[k].row());
        }
      }
      if (na == 1 && nb == 1) {
        if (ea[i].value != eb[j].value) {
          ++out.changed_keys;
          keep_smallest(shown.changes, max, {ea[i].row(), eb[j].row()});
        }
      } else {
        // Several rows: the same multiset of values (both runs are sorted by value)?
        bool same = na == nb;
        for (size_t k = 0; same && k < na; ++k) same = ea[i + k].value == eb[j + k].value;
        if (!same) ++out.changed_keys;
      }
    }
    i = i2;
    j = j2;
  }
  return Status::ok();
}

// `from` added to `to`.
void add_merged(const Merged& from, size_t max, Merged& to) {
  for (auto [a, b] : {std::pair{&from.counts.original, &to.counts.original},
                      std::pair{&from.counts.reproduced, &to.counts.reproduced}}) {
    b->only_here += a->only_here;
    b->duplicate_keys += a->duplicate_keys;
    b->duplicate_rows += a->duplicate_rows;
  }
  to.counts.matched_keys += from.counts.matched_keys;
  to.counts.changed_keys += from.counts.changed_keys;
  for (auto [a, b] : {std::pair{&from.shown.only_a, &to.shown.only_a},
                      std::pair{&from.shown.only_b, &to.shown.only_b},
                      std::pair{&from.shown.dup_a, &to.shown.dup_a},
                      std::pair{&from.shown.dup_b, &to.shown.dup_b}}) {
    for (uint64_t r : *a) keep_smallest(*b, max, r);
  }
  for (const auto& c : from.shown.changes) keep_smallest(to.shown.changes, max, c);
}

// Step 2: the partitions merged pairwise, half of them on a second thread (each pair is
// independent: its own files, its own buffers).
Status merge(Spill& sa, Spill& sb, size_t max, KeyedComparison& out, Shown& shown) {
  Merged low, high;
  Status sl = Status::ok(), sh = Status::ok();
  const unsigned half = kKeyedPartitions / 2;
  side_by_side(
      [&] {
        for (unsigned p = 0; p < half && sl.is_ok(); ++p) sl = merge_partition(sa, sb, p, max, low);
      },
      [&] {
        for (unsigned p = half; p < kKeyedPartitions && sh.is_ok(); ++p) {
          sh = merge_partition(sa, sb, p, max, high);
        }
      });
  ODF_HASH_RETURN_IF_ERROR(sl);
  ODF_HASH_RETURN_IF_ERROR(sh);
  add_merged(high, max, low);
  for (auto [a, b] : {std::pair{&low.counts.original, &out.original},
                      std::pair{&low.counts.reproduced, &out.reproduced}}) {
    b->only_here = a->only_here;
    b->duplicate_keys = a->duplicate_keys;
    b->duplicate_rows = a->duplicate_rows;
  }
  out.matched_keys = low.counts.matched_keys;
  out.changed_keys = low.counts.changed_keys;
  shown = std::move(low.shown);
  return Status::ok();
}

// A row read again for step 3: its offset, and per top-level field its bytes and its text.
struct ReadRow {
  uint64_t row = 0;
  std::optional<int64_t> offset;
  std::vector<std::vector<uint8_t>> bytes;
  std::vector<std::string> text;
};

// Step 3 for one table: the rows `rows` (ascending, distinct) read again up to the last.
Result<std::vector<ReadRow>> read_rows(const Table& table, const std::vector<uint64_t>& rows,
                                       size_t max_chars, std::vector<std::string>& names) {
  std::vector<ReadRow> out;
  if (rows.empty()) return out;
  ODF_HASH_ASSIGN_OR_RETURN(const io_internal::ArrowModuleApi* api, io_internal::arrow_module());
  Side side;
  ODF_HASH_RETURN_IF_ERROR(
      detail::open_stream(table.objects, api->open_record_stream, side, table.window));
  names = top_names(side.schema.value);
  for (size_t c = 0; c < names.size(); ++c) {
    side.leaves.push_back({int(c)});
    ODF_HASH_ASSIGN_OR_RETURN(ColumnValueEncoder e,
                              ColumnValueEncoder::create(side.schema.value, {int(c)}));
    side.values.push_back(std::move(e));
  }
  size_t next = 0;
  while (next < rows.size()) {
    if (cancel_requested(table.cancel)) return Status::cancelled(side.name + ": cancelled");
    ODF_HASH_RETURN_IF_ERROR(side.advance());
    if (side.done) break;
    const uint64_t end = side.base + uint64_t(side.remaining());
    for (; next < rows.size() && rows[next] < end; ++next) {
      const int64_t r = int64_t(rows[next] - side.base);
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
  out.original.rows = a.rows;
  out.reproduced.rows = b.rows;

  Shown shown;
  ODF_HASH_RETURN_IF_ERROR(merge(spill_a, spill_b, options.max_examples, out, shown));

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
