// Comparing an original ODF dataset with a reproduced one (the same transformations run
// again elsewhere): their data slices paired by offset interval, each pair compared as
// compare.h compares two files (identical / equivalent / different, with where and why),
// and where the metadata chains themselves diverge.
//
// Thread safety: reentrant.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "odf_hash/chain_diff.h"
#include "odf_hash/compare.h"
#include "odf_hash/odf_block.h"
#include "odf_hash/open_store.h"
#include "odf_hash/status.h"

namespace odf_hash::odf {

// One offset interval of either dataset.
struct SliceComparison {
  OffsetInterval interval;
  // The data files (keys in their datasets, "data/f1620…"); empty on the side lacking the
  // interval.
  std::string original_file;
  std::string reproduced_file;
  // Both sides have the interval and both files could be read.
  std::optional<FileComparison> comparison;
  std::string error;  // a file of a paired interval could not be read (the message)
};

// The first block (from the seed) whose event differs between the chains.
struct ChainDivergence {
  uint64_t sequence_number = 0;
  std::string original;  // the event's kind ("SetTransform"), "" past the chain's end
  std::string reproduced;
};

struct DatasetComparison {
  std::string original;  // the datasets' locations
  std::string reproduced;
  uint64_t original_blocks = 0;
  uint64_t reproduced_blocks = 0;
  // Event kinds compared block by block from the seed; nullopt when the sequences are the
  // same.
  std::optional<ChainDivergence> divergence;
  // The events' contents compared field by field (chain_diff.h: which blocks are paired):
  // transform, inputs, schema, sources, consumed offsets. Neither these nor
  // the divergence change same_records: they say why records may differ, or that the
  // reproduction ran something else and still gave the same records.
  std::vector<ChainDifference> chain_differences;
  std::vector<SliceComparison> slices;  // by interval start, then end
  // Every interval on both sides, every pair identical or equivalent.
  bool same_records = false;
};

// Walks both chains (problems found on the way, such as a missing block, end the walk there;
// an unreadable refs/head is an error) and pairs the slices: a DatasetComparison whose
// slices have no comparison yet and whose same_records only says whether every interval is
// on both sides. For running the comparisons elsewhere (the Dask and Ray adapters: each pair
// is compare_paths_or_urls of the two datasets' locations joined with the files' keys).
Result<DatasetComparison> pair_dataset_slices(const std::string& original,
                                              const std::string& reproduced,
                                              const StoreOptions& store = {});

// pair_dataset_slices, then every pair compared (compare_objects).
Result<DatasetComparison> compare_datasets(const std::string& original,
                                           const std::string& reproduced,
                                           const LogicalHashOptions& logical = {},
                                           const StoreOptions& store = {},
                                           const CompareOptions& options = {});

}  // namespace odf_hash::odf
