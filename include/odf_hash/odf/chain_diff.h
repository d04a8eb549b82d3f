// Where the metadata chains of an original dataset and a reproduced one differ in content,
// field by field (compare_datasets.h runs diff_chains).
//
// Which blocks are paired: the Seeds, and ExecuteTransform blocks at the same position before
// the first block whose kinds differ (their batches only line up there); the events that say
// what a dataset is (SetTransform, SetDataSchema, SetPollingSource, AddPushSource, SetVocab)
// by occurrence, the k-th of a kind in one chain with the k-th in the other wherever they are,
// so that an extra block (a SetInfo, another number of ingests) does not hide a changed query.
//
// What is compared, per event (field paths use the specification's camelCase names):
//   SetTransform      inputs matched by alias (by position where an alias is absent): an input
//                     only on one side, or its datasetRef differing; the transform's kind,
//                     engine, version, query, queries[i].alias / .query, temporalTables[i]
//                     .name / .primaryKey (by position).
//   SetDataSchema     the ODF schema field by field (flattened paths, odf_events.h): a field
//                     only on one side, its type, its extra attributes, its position among the
//                     fields both have; whether the ODF form is present; the legacy Arrow bytes
//                     for equality (shown as their size and SHA3-256).
//   ExecuteTransform  queryInputs by position: datasetId, prevOffset, newOffset (which input
//                     records were consumed), and when both read the same input (equal ids:
//                     pulled from one origin) prevBlockHash / newBlockHash (which of its blocks);
//                     the output's prevOffset and newData offset interval.
//   SetPollingSource, AddPushSource  their canonical JSON (MetadataBlock.source) compared
//                     leaf by leaf.
//   Seed              datasetKind.   SetVocab  offsetColumn.
// Never compared, because they differ between any two runs: systemTime, block hashes (prev
// block hashes; an input's prev/new block hashes when the inputs' ids differ), the reproduced
// dataset's own id (Seed), watermarks (they may follow the wall clock), AddData's source state
// and checkpoints (data is compared through the slices). Not read at all: SetInfo, SetLicense,
// SetAttachments, the Disable* events (descriptive, no effect on the records).
//
// An input's dataset id (SetTransform.inputs[].datasetRef as kamu writes it, and
// ExecuteTransform.queryInputs[].datasetId) differs between two workspaces unless the inputs
// were pulled from the same origin: such a difference is flagged `identity_only`, not a
// different transform.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "odf_hash/odf/odf_block.h"

namespace odf_hash::odf {

struct ChainDifference {
  uint64_t sequence_number = 0;             // the original's block
  uint64_t reproduced_sequence_number = 0;  // the reproduced one's (the same unless paired by
                                            // occurrence across other blocks)
  std::string event;                        // "SetTransform"
  std::string field;                        // "SetTransform.transform.queries[0].query"
  std::string original;                     // the values as text; "(absent)" on the side lacking it
  std::string reproduced;
  // Only the identity of an input dataset differs (its id): expected when the reproduction
  // re-created its inputs rather than pulling them from the original's origin.
  bool identity_only = false;
};

// The differences between two blocks (nothing when their event kinds differ: that is a
// ChainDivergence). Values are kept whole; callers cut them for display.
std::vector<ChainDifference> diff_blocks(const MetadataBlock& original,
                                         const MetadataBlock& reproduced);

// The blocks of both chains (seed first) paired as above and compared; ordered by the
// original's sequence number.
std::vector<ChainDifference> diff_chains(const std::vector<const MetadataBlock*>& original,
                                         const std::vector<const MetadataBlock*>& reproduced);

}  // namespace odf_hash::odf
