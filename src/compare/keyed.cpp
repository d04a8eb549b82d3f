// compare_keyed (keyed.h): key and value digests spilled to partitions by key, the
// partitions merged pairwise, the first differences read again and rendered.
#include "odf_hash/compare/keyed.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <map>
#include <memory>
#include <tuple>

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
// 256 partitions x 2 tables x 512 entries x 32 bytes: 8 MiB of write buffers (4 MiB a side:
// spilling a row is a store into one of 256 buffers, which had better stay in the cache).
using Spill = detail::PartitionedSpill<Entry, kKeyedPartitions, 512>;

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

// A key's bytes mixed into 64 bits (an exact key's first byte is its length): its
// partition is the top bits, and a partition is sorted by it first (step 2). Equal keys have
// equal hashes; the order by (hash, key) is all the merge needs of both sides.
uint64_t key_hash(const std::array<uint8_t, kKeyBytes>& key) {
  static_assert(kKeyBytes == 11);
  uint64_t a = 0;
  std::memcpy(&a, key.data(), 8);
  // The last three bytes one by one: a 3-byte memcpy into a zeroed word stalls the load of
  // that word (store forwarding), which took most of step 1's own time.
  const uint64_t b = uint64_t(key[8]) | uint64_t(key[9]) << 8 | uint64_t(key[10]) << 16;
  uint64_t h = (a ^ (b * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
  h ^= h >> 31;
  h *= 0x94D049BB133111EBull;
  return h ^ (h >> 29);
}
bool same_key(const std::array<uint8_t, kKeyBytes>& x, const std::array<uint8_t, kKeyBytes>& y) {
  uint64_t x8 = 0, y8 = 0;
  std::memcpy(&x8, x.data(), 8);
  std::memcpy(&y8, y.data(), 8);
  return x8 == y8 && x[8] == y[8] && x[9] == y[9] && x[10] == y[10];
}
static_assert((kKeyedPartitions & (kKeyedPartitions - 1)) == 0, "a power of two");
constexpr int kPartitionBits = std::countr_zero(kKeyedPartitions);
unsigned partition_of(uint64_t hash) {
  return unsigned(hash >> (64 - kPartitionBits));
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

// A partition's entries sorted by (key hash, key, value, row), and their key hashes.
struct SortedPartition {
  std::vector<Entry> entries;
  std::vector<uint64_t> hashes;
};

// Sorts partitions, one at a time, keeping its buffers from one to the next (a thread's
// own: fresh megabytes for every partition cost page faults). The (hash, index) pairs are
// radix-sorted by the 32 hash bits below the partition's (two passes of 16 bits, both
// digits counted in one pass: the hashes are uniform), the entries moved once, and the rare
// runs whose 32 bits agree sorted whole. std::sort of the 32-byte entries themselves took
// most of the comparison's time.
class PartitionSorter {
 public:
  void sort(const std::vector<Entry>& in, SortedPartition& out) {
    constexpr int kLow = 64 - kPartitionBits - 32;  // the lowest bit sorted by
    const size_t n = in.size();
    order_.resize(n);
    tmp_.resize(n);
    Counts& low = *low_;
    Counts& high = *high_;
    low.fill(0);
    high.fill(0);
    for (size_t i = 0; i < n; ++i) {
      const uint64_t h = key_hash(in[i].key);
      order_[i] = {h, i};
      ++low[(h >> kLow) & 0xFFFF];
      ++high[(h >> (kLow + 16)) & 0xFFFF];
    }
    scatter(order_, tmp_, low, kLow);  // stable: by the low digit, then the high one
    scatter(tmp_, order_, high, kLow + 16);
    out.entries.resize(n);
    out.hashes.resize(n);
    for (size_t i = 0; i < n; ++i) {
      out.entries[i] = in[order_[i].second];
      out.hashes[i] = order_[i].first;
    }
    for (size_t i = 0; i < n;) {
      size_t j = i + 1;
      while (j < n && (out.hashes[j] >> kLow) == (out.hashes[i] >> kLow)) ++j;
      if (j - i > 1) sort_run(out, i, j);
      i = j;
    }
  }

 private:
  using Counts = std::array<uint64_t, 1u << 16>;

  static void scatter(const std::vector<std::pair<uint64_t, uint64_t>>& from,
                      std::vector<std::pair<uint64_t, uint64_t>>& to, Counts& count, int shift) {
    uint64_t sum = 0;
    for (auto& c : count) {
      const uint64_t k = c;
      c = sum;
      sum += k;
    }
    for (const auto& x : from) to[count[(x.first >> shift) & 0xFFFF]++] = x;
  }

  static void sort_run(SortedPartition& out, size_t i, size_t j) {
    std::vector<std::pair<uint64_t, Entry>> run;
    for (size_t k = i; k < j; ++k) run.emplace_back(out.hashes[k], out.entries[k]);
    std::sort(run.begin(), run.end(), [](const auto& x, const auto& y) {
      return x.first != y.first ? x.first < y.first : by_key_value_row(x.second, y.second);
    });
    for (size_t k = i; k < j; ++k) std::tie(out.hashes[k], out.entries[k]) = run[k - i];
  }

  std::vector<std::pair<uint64_t, uint64_t>> order_, tmp_;
  std::unique_ptr<Counts> low_ = std::make_unique<Counts>();  // 512 KiB each: not on a stack
  std::unique_ptr<Counts> high_ = std::make_unique<Counts>();
};

// What merging some partitions found (step 2), to be added up; a thread's buffers.
struct Merged {
  KeyedComparison counts;  // only_here, duplicate_keys/rows, matched_keys, changed_keys
  Shown shown;
  PartitionSorter sorter;
  std::vector<Entry> read;
  SortedPartition a, b;
};

// One pair of partitions merged into `m`.
Status merge_partition(const Spill& sa, const Spill& sb, unsigned p, size_t max, Merged& m) {
  KeyedComparison& out = m.counts;
  Shown& shown = m.shown;
  ODF_HASH_RETURN_IF_ERROR(sa.read(p, m.read));
  m.sorter.sort(m.read, m.a);
  ODF_HASH_RETURN_IF_ERROR(sb.read(p, m.read));
  m.sorter.sort(m.read, m.b);
  const std::vector<Entry>& ea = m.a.entries;
  const std::vector<Entry>& eb = m.b.entries;
  const std::vector<uint64_t>& ha = m.a.hashes;
  const std::vector<uint64_t>& hb = m.b.hashes;
  size_t i = 0, j = 0;
  while (i < ea.size() || j < eb.size()) {
    // The next key in (hash, key) order, and the runs of rows holding it on each side.
    const bool from_a =
        j == eb.size() ||
        (i < ea.size() && (ha[i] != hb[j] ? ha[i] < hb[j] : ea[i].key <= eb[j].key));
    const auto& key = from_a ? ea[i].key : eb[j].key;
    const uint64_t hash = from_a ? ha[i] : hb[j];
    size_t i2 = i, j2 = j;
    while (i2 < ea.size() && ha[i2] == hash && same_key(ea[i2].key, key)) ++i2;
    while (j2 < eb.size() && hb[j2] == hash && same_key(eb[j2].key, key)) ++j2;
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
Status merge(const Spill& sa, const Spill& sb, size_t max, KeyedComparison& out, Shown& shown) {
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
