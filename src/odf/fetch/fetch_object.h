// Private to fetch: one data file, checkpoint or linked object brought into DEST (fetch.h, 2.):
// found already there, or resumed from a partial object, or streamed from the source, hashed
// as it streams, and renamed into place only when it verifies.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

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

// The receive buffers of one fetch's transfers: a transfer takes one (two slots of 1 MiB)
// for its time and gives it back, so that they are allocated (and faulted in) once per
// concurrent transfer, not once per file.
class StreamBuffers {
 public:
  static constexpr size_t kSlot = size_t{1} << 20;
  std::unique_ptr<uint8_t[]> take();  // 2 * kSlot bytes, not zeroed
  void give_back(std::unique_ptr<uint8_t[]> buffer);

 private:
  std::mutex mu_;
  std::vector<std::unique_ptr<uint8_t[]>> free_;
};

// Brings `task`'s file from `source` into `dest`. `advance(n)` is told of each n bytes
// handled (read from DEST or from the source). Never fails: every finding is in the outcome.
ObjectOutcome fetch_object(const ObjectStore& source, DestFolder& dest, const FileTask& task,
                           StreamBuffers& buffers, const std::function<void(uint64_t)>& advance);

}  // namespace odf_hash::odf::fetch_detail
