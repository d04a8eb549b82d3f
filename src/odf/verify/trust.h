// Internal: trust anchors of a verification. A chain only proves that a dataset agrees with
// itself: whoever can write its folder can rewrite every block and refs/head, and the walk
// still reaches a seed. A block hash obtained elsewhere (a head verified before, kept in a
// pin file) pins the whole history below it, since each block names its predecessor's hash.
//
// check_anchors looks for VerifyOptions::expect_head and ::since among the blocks the walk
// read (refs/head down to the seed, or down to the --since block) and records in the
// report's scope where they were found, or the problem saying why not:
//  - history-rewritten: the walk reached the seed and the block is not on the chain (the
//    message says whether a block file of that hash still exists beside the chain);
//  - head-not-found: the walk could not answer (refs/head unreadable, the chain broken
//    before the seed, or --since above the trusted head stopped it).
// It also compares VerifyOptions::expect_dataset_id with the Seed's id (report.dataset_id,
// set before): dataset-id-mismatch, listed before history-rewritten, which then follows.
#pragma once

#include <optional>

#include "odf_hash/internal/odf/chain_walk.h"
#include "odf_hash/odf/verify.h"

namespace odf_hash::odf::detail {

void check_anchors(const DatasetDir& dir, const ChainWalk& walk, const VerifyOptions& options,
                   DatasetReport& report);

// For an ipfs:// or ipns:// dataset, what anchors its content (the CID, or the gateway it was
// read through trusting it: StoreOptions::trust_gateway) in the scope: ipfs_gateway,
// ipfs_verified, and a skipped sentence when trusted. Nothing for other locations.
void note_ipfs(const std::string& url_or_path, const StoreOptions& store, VerifyScope& scope);

// The kind of a dataset whose Seed was not read (--since): blocks adding data say it
// (ExecuteTransform only in derivative datasets, AddData only in root ones). nullopt when
// no block read says.
std::optional<DatasetKind> infer_kind(const ChainWalk& walk);

}  // namespace odf_hash::odf::detail
