// Internal: verify --sample, a spot check of the files (restic's --read-data-subset, for
// remote datasets too large to read whole). The chain is always walked in full (blocks are
// small, and they are what a trusted head pins); only the file tasks are sampled.
//
// Choice: weighted random sampling without replacement (Efraimidis and Spirakis: each task
// gets the key log(u) / w, the largest keys win), where
//  - u in (0, 1) is derived from SHA3-256(seed, the file's key): deterministic for a seed,
//    independent of the plan's order, and the same files for the same seed as a dataset
//    grows (a new file does not reshuffle the old ones' keys);
//  - w = recorded size + 64 KiB: what reading the file costs, its bytes plus a request, so
//    that every byte has about the same chance to be read and small files are not ignored.
// VerifyOptions::sample_count takes the first N; sample_fraction takes files until their
// recorded bytes reach that fraction of the total (at least one file).
//
// The plan keeps the chosen tasks in report order, renumbered; the report's scope counts
// files and bytes checked and total. A linkedObjects summary is only checked when every
// object it counts was sampled (else it is listed as skipped).
#pragma once

#include "odf_hash/odf/verify_plan.h"

namespace odf_hash::odf::detail {

void sample_tasks(const VerifyOptions& options, VerifyPlan& plan);

}  // namespace odf_hash::odf::detail
