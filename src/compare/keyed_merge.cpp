// Step 2 of compare_keyed (keyed_entries.h): each pair of partitions sorted by key hash and
// merged.
#include <algorithm>
#include <memory>
#include <tuple>

#include "keyed_entries.h"
#include "odf_hash/core/parallel.h"

namespace odf_hash::compare::detail {

namespace {

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

}  // namespace

// Each pair of partitions is independent: its own blocks, its own buffers.

Status merge_keyed_partitions(const Spill& sa, const Spill& sb, size_t max, KeyedComparison& out,
                              Shown& shown) {
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

}  // namespace odf_hash::compare::detail
