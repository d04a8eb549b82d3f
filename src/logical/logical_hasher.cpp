// LogicalHasher (the reference's RecordDigestV0) and ArrayHasher (ArrayDigestV0).
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "array_check.h"
#include "bitmap.h"
#include "cost_estimate.h"
#include "digest_sink.h"
#include "odf_hash/core/parallel.h"
#include "odf_hash/internal/core/sha3_multi.h"
#include "odf_hash/logical/logical.h"
#include "type_node.h"
#include "value_hasher.h"

namespace odf_hash {

using logical::DigestSink;
using logical::Kind;
using logical::OwnedValidity;
using logical::TypeNode;
using logical::Validity;

namespace {

void put_u64(Sha3_256& h, uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<uint8_t>(v >> (8 * i));
  h.update(b, 8);
}

// Slots [r, r + n) of a validity computed for a whole batch range.
Validity sub_validity(const Validity& v, int64_t r) {
  if (!v.present()) return Validity{};
  return Validity{v.bits, v.offset + r, -1};
}

// What one leaf column hashes of the current batch: slots [pos, pos + len) of `array`, with
// the validity inherited from its struct ancestors (null for a top-level column).
struct LeafSlice {
  const ArrowArray* array = nullptr;
  int64_t pos = 0;
  const Validity* inherited = nullptr;
  double cost = 0;    // estimated bytes
  bool ored = false;  // an ancestor struct level combined two bitmaps holding nulls
};

// Whether the reference's rule ORs these two bitmaps (both hold nulls): the combined
// validity then depends on bytes under null slots (ColumnDigest::hash_note).
bool ors(const Validity* inherited, const Validity& own) {
  return inherited != nullptr && inherited->present() && inherited->null_count != 0 &&
         own.present() && own.null_count != 0;
}

// Leaf columns hashed by one thread at a time: one column through its own single-stream
// Sha3_256 (`lanes` null), or two to eight columns sharing a multi-lane Keccak.
struct ColumnGroup {
  std::vector<size_t> leaves;
  std::unique_ptr<logical::LaneGroup> lanes;
  double cost = 0;  // this batch
};

// Bytes of the widest lane hashed between two drains of a lane group: large enough for
// direct (zero-copy) runs of fixed-width columns, small enough to stay in the staging buffers.
constexpr double kLaneChunkBytes = 32 * 1024;
// Lane groups smaller than this hash their columns one at a time instead.
constexpr size_t kMinLanes = 2;
constexpr size_t kMaxLanes = 8;
// With several threads, a group's rows of a batch are hashed in up to this many segments of
// at least this many estimated bytes (LogicalHasher::Impl::run_groups).
constexpr int64_t kMaxSegments = 4;
constexpr double kMinSegmentBytes = 256 * 1024;

}  // namespace

struct LogicalHasher::Impl {
  TypeNode root;  // a struct whose children are the top-level columns
  std::vector<const TypeNode*> leaves;
  // Leaves of top-level field f: [first_leaf[f], first_leaf[f + 1]) (one entry per field,
  // then leaves.size()).
  std::vector<size_t> first_leaf;
  std::vector<DigestSink> sinks;
  Sha3_256 combined;
  Status error;
  uint64_t num_rows = 0;
  bool multi_lane = false;  // wanted; groups are formed on the first non-empty batch
  KeccakLevel lane_level = KeccakLevel::kPortable;  // of the lane groups
  bool grouped = false;
  std::vector<ColumnGroup> groups;
  std::unique_ptr<WorkerPool> pool;  // null: hash on the caller's thread only
  // Per batch.
  std::vector<LeafSlice> slices;
  std::deque<OwnedValidity> struct_validity;  // stable addresses for LeafSlice::inherited
  std::vector<Status> leaf_status;
  // Per leaf, sticky across batches: its validity was an OR of two bitmaps with nulls (set
  // by plan for struct levels, by prepare_group for the leaf's own level: one thread a
  // leaf).
  std::vector<uint8_t> null_slots_trap;

  // Schema part of the combined digest: every field depth-first, its name and level.
  void add_fields(const TypeNode& parent, uint64_t level) {
    for (const TypeNode& field : parent.children) {
      if (level == 0) first_leaf.push_back(leaves.size());
      put_u64(combined, field.name.size());
      combined.update(field.name);
      put_u64(combined, level);
      if (field.kind == Kind::kStruct) {
        add_fields(field, level + 1);
      } else {
        leaves.push_back(&field);
      }
    }
  }

  // Records what each leaf below `node` hashes of this batch. Structs are flattened: each
  // leaf below gets the bitmap inherited from its ancestors combined with its own, by the
  // reference's rule (bitmap.h, docs/divergences.md); struct levels are combined here, the
  // leaf's own bitmap by the thread that hashes it.
  void plan(const TypeNode& node, const ArrowArray& array, int64_t pos, int64_t len,
            const Validity* inherited, size_t& next_leaf, bool ored = false) {
    if (node.kind != Kind::kStruct) {
      if (ored) null_slots_trap[next_leaf] = 1;
      slices[next_leaf++] =
          LeafSlice{&array, pos, inherited, logical::estimate_bytes(node, array, pos, len), ored};
      return;
    }
    const OwnedValidity own = logical::own_validity(node, array, pos, len, true);
    ored = ored || ors(inherited, own.v);
    struct_validity.push_back(
        logical::combine_validity(inherited != nullptr ? *inherited : Validity{}, own.v, len));
    const Validity* mine = &struct_validity.back().v;
    for (size_t c = 0; c < node.children.size(); ++c) {
      plan(node.children[c], *array.children[c], array.offset + pos, len, mine, next_leaf, ored);
    }
  }

  // The combined digest: the schema part (absorbed by create) then every leaf column's
  // digest in depth-first order (out.columns, which must match `leaves`). The one place
  // the record digest is put together, whether the columns were hashed here or apart
  // (combine_fields_digests).
  void combine(LogicalDigest& out) {
    for (const ColumnDigest& c : out.columns) combined.update(c.digest.data(), c.digest.size());
    out.digest = combined.finalize();
  }

  OwnedValidity leaf_validity(size_t k, int64_t len) {
    const LeafSlice& s = slices[k];
    OwnedValidity own = logical::own_validity(*leaves[k], *s.array, s.pos, len, true);
    if (ors(s.inherited, own.v)) null_slots_trap[k] = 1;
    OwnedValidity merged =
        logical::combine_validity(s.inherited != nullptr ? *s.inherited : Validity{}, own.v, len);
    if (merged.storage.empty() && merged.v.bits != nullptr && merged.v.bits == own.v.bits &&
        !own.storage.empty()) {
      // `merged` borrows from `own`'s storage, which dies here: take it over.
      OwnedValidity out;
      out.storage = std::move(own.storage);
      out.v = merged.v;
      out.v.bits = out.storage.data();
      return out;
    }
    return merged;
  }

  // What hashing a group's rows of this batch needs: each leaf's validity (its struct
  // ancestors' combined with its own) and, for a lane group, the rows between two drains.
  struct GroupBatch {
    OwnedValidity valid[kMaxLanes];
    DigestSink* lane_sinks[kMaxLanes] = {};
    int64_t chunk_rows = 0;
  };

  void prepare_group(const ColumnGroup& g, int64_t len, GroupBatch& b) {
    double widest = 0;
    for (size_t l = 0; l < g.leaves.size(); ++l) {
      const size_t k = g.leaves[l];
      b.valid[l] = leaf_validity(k, len);
      b.lane_sinks[l] = &sinks[k];
      widest = std::max(widest, slices[k].cost);
    }
    // Lanes advance together in chunks of rows, drained after each chunk.
    b.chunk_rows = std::max<int64_t>(len, 1);
    if (g.lanes != nullptr && widest > kLaneChunkBytes) {
      const auto rows = static_cast<int64_t>(kLaneChunkBytes / widest * static_cast<double>(len));
      b.chunk_rows = rows >= 64 ? rows / 64 * 64 : std::max<int64_t>(1, rows);
    }
  }

  // Hashes rows [from, to) of this batch's slots of the columns of `g`, on whichever thread
  // runs it; the rows of a group are hashed in order.
  void hash_rows(const ColumnGroup& g, const GroupBatch& b, int64_t from, int64_t to) {
    if (g.lanes == nullptr) {
      const size_t k = g.leaves[0];
      if (!leaf_status[k].is_ok()) return;
      const Validity v = from == 0 ? b.valid[0].v : sub_validity(b.valid[0].v, from);
      leaf_status[k] = logical::hash_slots(sinks[k], *leaves[k], *slices[k].array,
                                           slices[k].pos + from, to - from, v);
      return;
    }
    for (int64_t r = from; r < to; r += b.chunk_rows) {
      const int64_t n = std::min(b.chunk_rows, to - r);
      for (size_t l = 0; l < g.leaves.size(); ++l) {
        const size_t k = g.leaves[l];
        if (!leaf_status[k].is_ok()) continue;
        leaf_status[k] = logical::hash_slots(sinks[k], *leaves[k], *slices[k].array,
                                             slices[k].pos + r, n, sub_validity(b.valid[l].v, r));
      }
      logical::drain_lanes(*g.lanes, b.lane_sinks);
    }
  }

  // The groups of this batch on the pool's threads. A group's rows are cut into up to
  // kMaxSegments segments (of at least kMinSegmentBytes), hashed in order, one at a time,
  // by whichever thread is free: the group with the most segments left first (then the
  // costlier). Whole groups on threads leave a thread idle whenever the groups do not divide
  // evenly among them: 20 columns in lane groups of 8, 8 and 4 on two threads took the time
  // of two groups (1.5x one thread); sharing the rows of the last group brings that to 1.5.
  void run_groups(int64_t len) {
    const size_t n = groups.size();
    std::vector<GroupBatch> work(n);
    struct Progress {
      int64_t next = 0;  // first row not yet claimed
      int64_t step = 0;  // rows per segment
      bool busy = false;
    };
    std::vector<Progress> progress(n);
    for (size_t i = 0; i < n; ++i) {
      prepare_group(groups[i], len, work[i]);
      const auto wanted = static_cast<int64_t>(groups[i].cost / kMinSegmentBytes);
      const int64_t segments = std::clamp<int64_t>(wanted, 1, kMaxSegments);
      // Segments of whole chunks for a lane group (so that the drains fall where one thread
      // would put them), of multiples of 64 rows for a single column.
      const int64_t unit = groups[i].lanes != nullptr ? work[i].chunk_rows : 64;
      const int64_t units = (len + unit - 1) / unit;
      progress[i].step = (units + segments - 1) / segments * unit;
    }
    std::mutex mu;
    std::condition_variable freed;
    // Segments not yet claimed.
    auto left = [&](size_t i) {
      return (len - progress[i].next + progress[i].step - 1) / progress[i].step;
    };
    auto before = [&](size_t a, size_t b) {
      return left(a) != left(b) ? left(a) > left(b) : groups[a].cost > groups[b].cost;
    };
    pool->run(pool->threads(), [&](size_t) {
      std::unique_lock lock(mu);
      for (;;) {
        size_t pick = n;
        bool unclaimed = false;
        for (size_t i = 0; i < n; ++i) {
          if (progress[i].next >= len) continue;
          unclaimed = true;
          if (!progress[i].busy && (pick == n || before(i, pick))) pick = i;
        }
        if (!unclaimed) return;
        if (pick == n) {  // every group with rows left is being hashed: wait for one
          freed.wait(lock);
          continue;
        }
        Progress& p = progress[pick];
        const int64_t from = p.next;
        const int64_t to = std::min(len, from + p.step);
        p.next = to;
        p.busy = true;
        lock.unlock();
        hash_rows(groups[pick], work[pick], from, to);
        lock.lock();
        p.busy = false;
        freed.notify_all();
      }
    });
  }

  // Lane groups of up to max_lanes(level) columns of similar volume (by this first batch),
  // the largest first; columns left alone keep their single stream.
  void form_lane_groups() {
    const size_t per_group = logical::max_lanes(lane_level);
    grouped = true;
    std::vector<size_t> order(leaves.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return slices[a].cost > slices[b].cost; });
    std::vector<ColumnGroup> out;
    for (size_t i = 0; i < order.size(); i += per_group) {
      const size_t n = std::min(per_group, order.size() - i);
      ColumnGroup g;
      g.leaves.assign(order.begin() + static_cast<std::ptrdiff_t>(i),
                      order.begin() + static_cast<std::ptrdiff_t>(i + n));
      bool attached = n >= kMinLanes;
      if (attached) {
        g.lanes = logical::make_lane_group(n, lane_level);
        for (size_t l = 0; l < n && attached; ++l) {
          attached = sinks[g.leaves[l]].attach_lane(g.lanes.get(), l);
        }
      }
      if (attached) {
        out.push_back(std::move(g));
        continue;
      }
      // attach_lane succeeds for every fresh sink; if it ever did not, the columns that did
      // attach already hold staged bytes for the group, so keep a group of the attached ones.
      for (size_t l = 0; l < n; ++l) {
        ColumnGroup single;
        single.leaves = {g.leaves[l]};
        if (sinks[g.leaves[l]].in_lane()) continue;
        out.push_back(std::move(single));
      }
      if (g.lanes != nullptr) {
        g.leaves.erase(std::remove_if(g.leaves.begin(), g.leaves.end(),
                                      [&](size_t k) { return !sinks[k].in_lane(); }),
                       g.leaves.end());
        if (!g.leaves.empty()) out.push_back(std::move(g));
      }
    }
    groups = std::move(out);
  }

  Status hash_batch(const ArrowArray& batch) {
    struct_validity.clear();
    size_t next_leaf = 0;
    for (size_t c = 0; c < root.children.size(); ++c) {
      plan(root.children[c], *batch.children[c], batch.offset, batch.length, nullptr, next_leaf);
    }
    if (multi_lane && !grouped && batch.length > 0) form_lane_groups();
    for (ColumnGroup& g : groups) {
      g.cost = 0;
      for (size_t k : g.leaves) g.cost += slices[k].cost;
    }
    for (Status& st : leaf_status) st = Status::ok();
    if (pool == nullptr || batch.length == 0) {
      for (ColumnGroup& g : groups) {
        GroupBatch b;
        prepare_group(g, batch.length, b);
        hash_rows(g, b, 0, batch.length);
      }
    } else {
      run_groups(batch.length);
    }
    // The first failing column in leaf order, as the serial walk would report it.
    for (const Status& st : leaf_status) ODF_HASH_RETURN_IF_ERROR(st);
    return Status::ok();
  }
};

LogicalHasher::LogicalHasher(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LogicalHasher::LogicalHasher(LogicalHasher&&) noexcept = default;
LogicalHasher& LogicalHasher::operator=(LogicalHasher&&) noexcept = default;
LogicalHasher::~LogicalHasher() = default;

Result<LogicalHasher> LogicalHasher::create(const ArrowSchema& schema,
                                            const LogicalHashOptions& options) {
  if (schema.format == nullptr || std::string(schema.format) != "+s") {
    return Status::invalid_argument(
        "the schema of a record batch must be a struct (format '+s'), got '" +
        std::string(schema.format != nullptr ? schema.format : "(null)") + "'");
  }
  if (schema.n_children < 0 || (schema.n_children > 0 && schema.children == nullptr)) {
    return Status::invalid_argument("record batch schema: malformed children");
  }
  auto impl = std::make_unique<Impl>();
  impl->root.kind = Kind::kStruct;
  impl->root.format = "+s";
  for (int64_t i = 0; i < schema.n_children; ++i) {
    const ArrowSchema* child = schema.children[i];
    if (child == nullptr) {
      return Status::invalid_argument("record batch schema: column " + std::to_string(i) +
                                      " is null");
    }
    const std::string name = child->name != nullptr ? child->name : "";
    ODF_HASH_ASSIGN_OR_RETURN(TypeNode column, logical::compile_type(*child, name, false));
    impl->root.children.push_back(std::move(column));
  }
  impl->add_fields(impl->root, 0);
  impl->first_leaf.push_back(impl->leaves.size());
  const size_t n = impl->leaves.size();
  impl->sinks = std::vector<DigestSink>(n);
  impl->slices.resize(n);
  impl->leaf_status.resize(n);
  impl->null_slots_trap.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const auto& type_bytes = impl->leaves[i]->type_bytes;
    impl->sinks[i].put(type_bytes.data(), type_bytes.size());
    impl->groups.push_back(ColumnGroup{{i}, nullptr, 0});
  }
  using MultiLane = LogicalHashOptions::MultiLane;
  impl->lane_level = multi_lane_level();
  impl->multi_lane =
      options.multi_lane == MultiLane::kOn ||
      (options.multi_lane == MultiLane::kAuto && impl->lane_level >= KeccakLevel::kAvx2);
  // No more threads than columns could use (lane groups with multi-lane Keccak).
  const size_t per_group = logical::max_lanes(impl->lane_level);
  const size_t units = impl->multi_lane ? (n + per_group - 1) / per_group : n;
  const unsigned threads = static_cast<unsigned>(std::min<size_t>(
      {resolve_threads(options.threads), std::max<size_t>(units, 1), size_t{256}}));
  if (threads > 1) {
    impl->pool = std::make_unique<WorkerPool>(threads);
    if (impl->pool->threads() <= 1) impl->pool.reset();
  }
  return LogicalHasher(std::move(impl));
}

Status LogicalHasher::update(const ArrowArray& batch) {
  Impl& s = *impl_;
  if (!s.error.is_ok()) return s.error;
  Status st = logical::check_array(s.root, batch, 0, batch.length);
  if (st.is_ok() && batch.n_buffers == 1 && batch.buffers[0] != nullptr &&
      logical::count_zero_bits(static_cast<const uint8_t*>(batch.buffers[0]), batch.offset,
                               batch.length) != 0) {
    st = Status::invalid_argument("a record batch cannot have null rows (its struct has nulls)");
  }
  if (st.is_ok()) st = s.hash_batch(batch);
  if (!st.is_ok()) {
    s.error = st.with_context("record batch " + std::to_string(s.num_rows) + "+");
    return s.error;
  }
  s.num_rows += static_cast<uint64_t>(batch.length);
  return Status::ok();
}

Result<LogicalDigest> LogicalHasher::finalize() && {
  Impl& s = *impl_;
  if (!s.error.is_ok()) return s.error;
  std::vector<Digest256> digests(s.leaves.size());
  for (ColumnGroup& g : s.groups) {
    if (g.lanes == nullptr) {
      digests[g.leaves[0]] = s.sinks[g.leaves[0]].finalize();
      continue;
    }
    DigestSink* lane_sinks[kMaxLanes] = {};
    for (size_t l = 0; l < g.leaves.size(); ++l) lane_sinks[l] = &s.sinks[g.leaves[l]];
    logical::drain_lanes(*g.lanes, lane_sinks);
    Digest256 lanes[kMaxLanes];
    g.lanes->finalize(lanes);
    for (size_t l = 0; l < g.leaves.size(); ++l) digests[g.leaves[l]] = lanes[l];
  }
  LogicalDigest out;
  out.num_rows = s.num_rows;
  for (size_t i = 0; i < s.leaves.size(); ++i) {
    std::string note = s.null_slots_trap[i] != 0 ? std::string(logical::kNullSlotsNote)
                                                 : logical::type_hash_note(*s.leaves[i]);
    out.columns.push_back(ColumnDigest{s.leaves[i]->path, s.leaves[i]->format, digests[i],
                                       s.sinks[i].hashed_bytes(),
                                       logical::reference_gap(*s.leaves[i]), std::move(note)});
  }
  s.pool.reset();
  s.combine(out);
  return out;
}

Result<LogicalDigest> combine_fields_digests(const ArrowSchema& schema,
                                             std::vector<FieldsDigest> parts) {
  ODF_HASH_ASSIGN_OR_RETURN(LogicalHasher hasher, LogicalHasher::create(schema));
  return std::move(hasher).combine_parts(std::move(parts));
}

Result<LogicalDigest> LogicalHasher::combine_parts(std::vector<FieldsDigest> parts) && {
  Impl& s = *impl_;
  const size_t num_fields = s.first_leaf.size() - 1;
  std::vector<const FieldsDigest*> by_field(num_fields, nullptr);
  std::vector<size_t> column_of(num_fields, 0);  // index of the field's first column in its part
  const auto bad = [](const std::string& what) {
    return Status::invalid_argument("combining column digests: " + what);
  };
  for (const FieldsDigest& part : parts) {
    if (part.digest.num_rows != parts[0].digest.num_rows) {
      return bad("parts hashed different row counts (" + std::to_string(part.digest.num_rows) +
                 " and " + std::to_string(parts[0].digest.num_rows) + ")");
    }
    size_t next_column = 0;
    for (size_t i = 0; i < part.fields.size(); ++i) {
      const int f = part.fields[i];
      if (f < 0 || static_cast<size_t>(f) >= num_fields || by_field[f] != nullptr ||
          (i > 0 && f <= part.fields[i - 1])) {
        return bad("field index " + std::to_string(f) + " out of range, repeated or out of order");
      }
      by_field[f] = &part;
      column_of[f] = next_column;
      next_column += s.first_leaf[f + 1] - s.first_leaf[f];
    }
    if (next_column != part.digest.columns.size()) {
      return bad("a part has " + std::to_string(part.digest.columns.size()) +
                 " columns, its fields have " + std::to_string(next_column) + " leaves");
    }
  }
  LogicalDigest out;
  out.num_rows = parts.empty() ? 0 : parts[0].digest.num_rows;
  for (size_t f = 0; f < num_fields; ++f) {
    if (by_field[f] == nullptr) return bad("field " + std::to_string(f) + " is in no part");
    for (size_t k = s.first_leaf[f]; k < s.first_leaf[f + 1]; ++k) {
      const ColumnDigest& c = by_field[f]->digest.columns[column_of[f] + (k - s.first_leaf[f])];
      if (c.path != s.leaves[k]->path || c.type != s.leaves[k]->format) {
        return bad("column '" + c.path + "' (" + c.type + ") where the schema has '" +
                   s.leaves[k]->path + "' (" + s.leaves[k]->format + ")");
      }
      out.columns.push_back(c);
    }
  }
  s.combine(out);
  return out;
}

struct ArrayHasher::Impl {
  TypeNode node;
  DigestSink sink;
  Status error;
};

ArrayHasher::ArrayHasher(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ArrayHasher::ArrayHasher(ArrayHasher&&) noexcept = default;
ArrayHasher& ArrayHasher::operator=(ArrayHasher&&) noexcept = default;
ArrayHasher::~ArrayHasher() = default;

Result<ArrayHasher> ArrayHasher::create(const ArrowSchema& field) {
  const std::string name = field.name != nullptr ? field.name : "";
  ODF_HASH_ASSIGN_OR_RETURN(TypeNode node, logical::compile_type(field, name, false));
  if (node.kind == Kind::kStruct) {
    return Status::unsupported("column " + logical::describe(node) +
                               ": struct columns are flattened into leaf columns by "
                               "LogicalHasher; ArrayHasher takes a single non-struct column");
  }
  auto impl = std::make_unique<Impl>();
  impl->node = std::move(node);
  impl->sink.put(impl->node.type_bytes.data(), impl->node.type_bytes.size());
  return ArrayHasher(std::move(impl));
}

Status ArrayHasher::update(const ArrowArray& array) {
  Impl& s = *impl_;
  if (!s.error.is_ok()) return s.error;
  Status st = logical::check_array(s.node, array, 0, array.length);
  if (st.is_ok()) {
    const OwnedValidity own = logical::own_validity(s.node, array, 0, array.length, true);
    const OwnedValidity combined = logical::combine_validity(Validity{}, own.v, array.length);
    st = logical::hash_slots(s.sink, s.node, array, 0, array.length, combined.v);
  }
  if (!st.is_ok()) s.error = st;
  return st;
}

Result<Digest256> ArrayHasher::finalize() && {
  if (!impl_->error.is_ok()) return impl_->error;
  return impl_->sink.finalize();
}

}  // namespace odf_hash
