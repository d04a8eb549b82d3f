// Private to fetch: one data file, checkpoint or linked object brought into DEST (fetch.h, 2.):
// found already there, or resumed from a partial object, or streamed from the source, hashed
// as it streams, and renamed into place only when it verifies.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "fetch/dest_folder.h"
#include "odf_hash/io/store.h"
#include "odf_hash/odf/fetch.h"
#include "odf_hash/odf/verify_plan.h"

namespace odf_hash::odf::fetch_detail {

struct ObjectOutcome {
  FetchedFile file;
  std::optional<Problem> problem;  // set when file.how is kRejected
};

// The key of a task's file in DEST: "data/<canonical name>" or "checkpoints/<...>".
std::string dest_key(const FileTask& task);

// Brings `task`'s file from `source` into `dest`. `advance(n)` is told of each n bytes
// handled (read from DEST or from the source). Never fails: every finding is in the outcome.
ObjectOutcome fetch_object(const ObjectStore& source, DestFolder& dest, const FileTask& task,
                           const std::function<void(uint64_t)>& advance);

}  // namespace odf_hash::odf::fetch_detail
