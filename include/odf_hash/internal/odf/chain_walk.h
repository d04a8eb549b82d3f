// Internal: walking the metadata chain from refs/head to the seed, collecting problems.
#pragma once

#include <cstdint>
#include <vector>

#include "odf_hash/odf/dataset.h"
#include "odf_hash/odf/verify.h"
#include "odf_hash/odf/verify_plan.h"

namespace odf_hash::odf::detail {

struct ChainWalk {
  std::vector<ChainBlock> blocks;  // head first
  std::vector<Problem> problems;   // in the order found (head towards seed)
  std::optional<Multihash> head;
  bool complete = false;  // reached a block without prevBlockHash, every link followed
  // The walk met `stop_at` (walk_chain's): that block, read and checked like the others, is
  // here and not in `blocks`; nothing below it was read.
  std::optional<ChainBlock> stopped_at;
  // With walk_chain's keep_bytes: the file bytes of each block of `blocks`, in its order
  // (fetch stores them as read, never re-serialised). Empty otherwise.
  std::vector<std::vector<uint8_t>> bytes;
};

// Reads refs/head and every block down the chain; block hashes, parse errors, links and
// sequence numbers are checked here. With `stop_at` (--since), the walk ends at that block
// when it meets it (see ChainWalk::stopped_at). With `keep_bytes`, ChainWalk::bytes holds
// the bytes read.
ChainWalk walk_chain(const DatasetDir& dir, const std::optional<Multihash>& stop_at = {},
                     bool keep_bytes = false);

// Data slice offsets along `blocks` (head first): contiguous from 0 and consistent with
// prevOffset. When the chain is incomplete the slices before the oldest block read are
// unknown, so that block's prevOffset is taken as given. Problems are returned head first.
std::vector<Problem> check_offsets(const std::vector<ChainBlock>& blocks, bool chain_complete);

// plan_verify(dir, options) over a chain already walked (walk_chain(dir, options.since)), for
// a caller that needs the blocks too (compare_datasets.h reads the chain once).
VerifyPlan plan_walked(const DatasetDir& dir, ChainWalk walk, const VerifyOptions& options);

}  // namespace odf_hash::odf::detail
