// compare_datasets (compare_datasets.h): chain walks, slices paired by offset interval,
// each pair through compare_objects.
#include "odf_hash/compare_datasets.h"

#include <algorithm>
#include <map>
#include <optional>

#include "chain_walk.h"
#include "odf_hash/dataset.h"

namespace odf_hash::odf {

namespace {

struct Side {
  DatasetDir dir;
  std::vector<ChainBlock> blocks;                             // seed first
  std::map<std::pair<uint64_t, uint64_t>, Multihash> slices;  // interval -> physical hash
};

Result<Side> read_side(const std::string& location, const StoreOptions& store) {
  ODF_HASH_ASSIGN_OR_RETURN(DatasetDir dir, DatasetDir::open(location, store));
  ODF_HASH_RETURN_IF_ERROR(dir.read_head().status());
  detail::ChainWalk walk = detail::walk_chain(dir);
  Side side{std::move(dir), std::move(walk.blocks), {}};
  std::reverse(side.blocks.begin(), side.blocks.end());
  for (const auto& b : side.blocks) {
    if (b.block.new_data) {
      const OffsetInterval& i = b.block.new_data->offset_interval;
      side.slices.emplace(std::pair{i.start, i.end}, b.block.new_data->physical_hash);
    }
  }
  return side;
}

// The events' contents of both chains compared (chain_diff.h).
std::vector<ChainDifference> chain_differences(const Side& a, const Side& b) {
  std::vector<const MetadataBlock*> ba, bb;
  for (const auto& c : a.blocks) ba.push_back(&c.block);
  for (const auto& c : b.blocks) bb.push_back(&c.block);
  return diff_chains(ba, bb);
}

std::string data_key(const DatasetDir& dir, const Multihash& hash) {
  std::optional<DatasetFile> f = dir.find_data(hash);
  return f ? f->rel_path : "data/" + hash.to_string();
}

Result<std::shared_ptr<ObjectReader>> open_data(const DatasetDir& dir, const std::string& key) {
  ODF_HASH_ASSIGN_OR_RETURN(OpenedObject o, dir.store().open(key));
  return std::shared_ptr<ObjectReader>(std::move(o.reader));
}

// Both chains read into `a` and `b`, the event kinds compared, the slices paired (not yet
// compared).
Result<DatasetComparison> pair(const std::string& original, const std::string& reproduced,
                               const StoreOptions& store, std::optional<Side>& a,
                               std::optional<Side>& b) {
  ODF_HASH_ASSIGN_OR_RETURN(Side sa, read_side(original, store));
  ODF_HASH_ASSIGN_OR_RETURN(Side sb, read_side(reproduced, store));
  a.emplace(std::move(sa));
  b.emplace(std::move(sb));
  DatasetComparison out;
  out.original = a->dir.path();
  out.reproduced = b->dir.path();
  out.original_blocks = a->blocks.size();
  out.reproduced_blocks = b->blocks.size();
  for (size_t i = 0; i < std::max(a->blocks.size(), b->blocks.size()); ++i) {
    const std::string ea = i < a->blocks.size() ? event_kind_name(a->blocks[i].block.event) : "";
    const std::string eb = i < b->blocks.size() ? event_kind_name(b->blocks[i].block.event) : "";
    if (ea != eb) {
      out.divergence = ChainDivergence{uint64_t(i), ea, eb};
      break;
    }
  }
  out.chain_differences = chain_differences(*a, *b);
  std::map<std::pair<uint64_t, uint64_t>, SliceComparison> slices;
  for (const auto& [interval, hash] : a->slices) {
    SliceComparison& s = slices[interval];
    s.interval = {interval.first, interval.second};
    s.original_file = data_key(a->dir, hash);
  }
  for (const auto& [interval, hash] : b->slices) {
    SliceComparison& s = slices[interval];
    s.interval = {interval.first, interval.second};
    s.reproduced_file = data_key(b->dir, hash);
  }
  out.same_records = true;
  for (auto& [interval, s] : slices) {
    if (s.original_file.empty() || s.reproduced_file.empty()) out.same_records = false;
    out.slices.push_back(std::move(s));
  }
  return out;
}

}  // namespace

Result<DatasetComparison> pair_dataset_slices(const std::string& original,
                                              const std::string& reproduced,
                                              const StoreOptions& store) {
  std::optional<Side> a, b;
  return pair(original, reproduced, store, a, b);
}

Result<DatasetComparison> compare_datasets(const std::string& original,
                                           const std::string& reproduced,
                                           const LogicalHashOptions& logical,
                                           const StoreOptions& store,
                                           const CompareOptions& options) {
  std::optional<Side> a, b;
  ODF_HASH_ASSIGN_OR_RETURN(DatasetComparison out, pair(original, reproduced, store, a, b));
  for (SliceComparison& s : out.slices) {
    if (s.original_file.empty() || s.reproduced_file.empty()) continue;
    Result<std::shared_ptr<ObjectReader>> fa = open_data(a->dir, s.original_file);
    Result<std::shared_ptr<ObjectReader>> fb = open_data(b->dir, s.reproduced_file);
    Result<FileComparison> c = !fa.is_ok()   ? Result<FileComparison>(fa.status())
                               : !fb.is_ok() ? Result<FileComparison>(fb.status())
                                             : compare_objects(*fa, *fb, logical, options);
    if (c.is_ok()) {
      s.comparison = std::move(c).value();
      if (s.comparison->verdict == CompareVerdict::kDifferent) out.same_records = false;
    } else {
      s.error = c.status().message();
      out.same_records = false;
    }
  }
  return out;
}

}  // namespace odf_hash::odf
