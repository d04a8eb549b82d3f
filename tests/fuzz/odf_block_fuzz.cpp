// Fuzzes the ODF metadata block reader: any bytes in, a block or a clear error out; never a
// crash, a hang or undefined behaviour (the verifier runs before every read).
#include <cstddef>
#include <cstdint>
#include <span>

#include "odf_hash/odf/chain_diff.h"
#include "odf_hash/odf/odf_block.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto block = odf_hash::odf::parse_block(std::span<const uint8_t>(data, size));
  if (block.is_ok()) {
    // Touch everything that was extracted.
    (void)block->system_time.to_string();
    (void)odf_hash::odf::event_kind_name(block->event);
    if (block->prev_block_hash) (void)block->prev_block_hash->to_string();
    if (block->new_data) (void)block->new_data->logical_hash.to_string();
    if (block->new_checkpoint) (void)block->new_checkpoint->physical_hash.to_string();
    // The contents compare reads, compared with themselves and with an empty block of the
    // same kind (every field on one side only).
    (void)odf_hash::odf::diff_blocks(*block, *block).size();
    odf_hash::odf::MetadataBlock empty;
    empty.event = block->event;
    (void)odf_hash::odf::diff_blocks(*block, empty).size();
  } else {
    (void)block.status().message().size();
  }
  return 0;
}
