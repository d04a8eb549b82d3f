// Reading the contents of the events compare sets side by side (odf_events.h) out of a
// verified FlatBuffers MetadataBlock. Internal to odf_block.cpp.
//
// Every reader runs on a table the FlatBuffers verifier accepted, with alignment checks
// (version 3 blocks, and in version 2 blocks the events verify_event_aligned accepted).
// FlatBuffers lets many offsets point at one string or table, so a small block can describe
// an enormous tree: everything copied out is charged to a ContentBudget, and a block that
// exceeds it is a parse error (an honest writer's content is never larger than its block).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "odf_hash/core/status.h"
#include "odf_hash/odf/odf_block.h"
#include "odf_hash_fb/odf_block_generated.h"

namespace odf_hash::odf::detail {

class ContentBudget {
 public:
  explicit ContentBudget(size_t bytes) : left_(bytes) {}
  // Charges `n` bytes; false once the budget is exhausted.
  bool take(size_t n) {
    if (n > left_) {
      left_ = 0;
      exhausted_ = true;
      return false;
    }
    left_ -= n;
    return true;
  }
  bool exhausted() const { return exhausted_; }

 private:
  size_t left_;
  bool exhausted_ = false;
};

// Verifies the event table of type `type` at `event_pos` of the MetadataBlock buffer with
// alignment checks (for version 2 blocks, before the whole block is verified without them).
// True for the event types that need no such check.
bool verify_event_aligned(const uint8_t* buf, size_t size, fb::MetadataEvent type,
                          size_t event_pos);

Result<TransformDef> read_set_transform(const fb::SetTransform& e, ContentBudget& budget);

// The fields of an ODF schema, flattened (SchemaField). Field names are checked by the
// ObjectLink reader already; a missing one is read as "".
Status read_schema_fields(const fb::DataSchema& schema, ContentBudget& budget,
                          std::vector<SchemaField>& out);

// The canonical JSON text of a verified table (MetadataBlock.source), through the type's
// mini-reflection table.
Result<std::string> table_json(const uint8_t* table, const flatbuffers::TypeTable* type,
                               const char* event, ContentBudget& budget);

}  // namespace odf_hash::odf::detail
