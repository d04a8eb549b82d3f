// ODF metadata blocks: reading one block file.
//
// A block file is a FlatBuffers `Manifest { kind: int64 = 0x400000, version: int32,
// content: [ubyte] }` whose content is a nested FlatBuffers `MetadataBlock` (schema in
// src/odf/schema/odf_block.fbs, written from the ODF specification). Versions 2 and 3 are
// read; version 2 blocks store the Timestamp struct unaligned, which is tolerated.
//
// Blocks are untrusted input: the FlatBuffers verifier runs over the Manifest and over the
// nested MetadataBlock before any field is read, and every hash is decoded strictly. Any
// bytes give either a block or a clear parse error; never a crash. A block is never
// re-serialized: its hash is the SHA3-256 of the file bytes exactly as given.
//
// Only what odf-hash needs is extracted: the chain fields, the event kind, the dataset kind
// of a Seed, the offset and time columns a SetVocab names, the data slice / checkpoint
// references of AddData and ExecuteTransform, and for compare (odf_events.h) the contents of
// SetTransform, SetDataSchema, ExecuteTransform's inputs and the sources (SetPollingSource,
// AddPushSource). Required fields: in the events odf-hash interprets (Seed, AddData,
// ExecuteTransform) every table, vector or string field the specification requires is checked for
// presence (a missing one is a parse error naming it: Seed.datasetId, ExecuteTransform.queryInputs
// and each input's datasetId, DataSlice.logicalHash / physicalHash / offsetInterval,
// Checkpoint.physicalHash), as are MetadataBlock.systemTime and the event. Scalars cannot be
// checked (FlatBuffers writers omit a scalar equal to its default). The other events are verified
// as tables and not interpreted: their content does not affect any hash odf-hash checks, so their
// own required fields are not looked for.
//
// Linked objects (ODF RFC-017): from a SetDataSchema's ODF schema (`schema`, RFC-016) the
// columns whose extra attribute "opendatafabric.org/type" has kind ObjectLink (through
// Option and Struct types; List and Map are not followed), and from AddData.extra the
// "opendatafabric.org/linkedObjects" summary. Extra attributes are JSON text: where odf-hash
// reads them they must be a JSON object, and these two attributes must have their
// documented shape, else the block is malformed. The legacy form (`rawArrowSchema`, Arrow
// IPC bytes) is kept as bytes: it cannot mark a column as ObjectLink. A version 2 block
// (unaligned layout tolerated) carrying an ODF schema must be aligned: its schema holds
// vectors of tables, which cannot be verified safely otherwise (kamu wrote version 3 long
// before the ODF schema existed).
//
// Thread safety: parse_block is reentrant.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "odf_hash/core/multihash.h"
#include "odf_hash/core/status.h"
#include "odf_hash/odf/odf_events.h"

namespace odf_hash::odf {

// The multicodec of an ODF metadata block, stored in Manifest.kind.
inline constexpr int64_t kMetadataBlockKind = 0x400000;
inline constexpr int32_t kMinBlockVersion = 2;
inline constexpr int32_t kMaxBlockVersion = 3;

// ODF Timestamp: a proleptic Gregorian UTC date as year and day of the year (1-based).
struct Timestamp {
  int32_t year = 0;
  uint16_t ordinal = 0;
  uint32_t seconds_from_midnight = 0;
  uint32_t nanoseconds = 0;
  // RFC 3339, e.g. "2024-01-31T12:00:00Z" (fractional seconds only when non-zero); a
  // timestamp that is not a valid date is shown as its raw fields.
  std::string to_string() const;
};

// The MetadataEvent union members, in the specification's order (value = union tag).
enum class EventKind : uint8_t {
  kNone = 0,
  kAddData = 1,
  kExecuteTransform,
  kSeed,
  kSetPollingSource,
  kSetTransform,
  kSetVocab,
  kSetAttachments,
  kSetInfo,
  kSetLicense,
  kSetDataSchema,
  kAddPushSource,
  kDisablePushSource,
  kDisablePollingSource,
  kUnknown = 255,  // a tag newer than the schema odf-hash knows
};

// "AddData", "ExecuteTransform", ..., "Unknown".
const char* event_kind_name(EventKind kind);

enum class DatasetKind { kRoot = 0, kDerivative = 1 };

const char* dataset_kind_name(DatasetKind kind);  // "root" / "derivative"

// Closed interval [start, end] of record offsets.
struct OffsetInterval {
  uint64_t start = 0;
  uint64_t end = 0;
};

// A data file added by a block (ODF DataSlice).
struct DataSlice {
  Multihash logical_hash;
  Multihash physical_hash;
  OffsetInterval offset_interval;
  uint64_t size = 0;  // file length in bytes
};

// A checkpoint file written by a block (ODF Checkpoint).
struct CheckpointRef {
  Multihash physical_hash;
  uint64_t size = 0;
};

// A column of the data files holding links to objects (RFC-017 ObjectLink): its path of
// field names from the top level (one name for a top-level column, more inside structs).
struct ObjectLinkColumn {
  std::vector<std::string> path;
  std::string link_type;        // the linkType kind ("Multihash"); empty when absent
  std::string display() const;  // the path joined by "."
};

// What a SetDataSchema says, as far as odf-hash reads it.
struct DataSchemaInfo {
  bool odf_schema = false;  // the ODF `schema` form is present (else only the legacy bytes)
  std::vector<ObjectLinkColumn> object_links;
  // The ODF schema's fields, flattened (odf_events.h); empty without the ODF form.
  std::vector<SchemaField> fields;
  // The legacy form: Arrow IPC Schema bytes as written (not decoded; compare sets them side
  // by side for equality only). Empty when absent.
  std::vector<uint8_t> raw_arrow_schema;
};

// AddData.extra["opendatafabric.org/linkedObjects"]: counts over the data file's link
// values, duplicates included ("naive").
struct LinkedObjectsSummary {
  uint64_t num_objects_naive = 0;  // non-null link values
  uint64_t size_naive = 0;         // sum of the linked objects' sizes, per link value
};

struct MetadataBlock {
  int32_t version = 0;  // Manifest version (2 or 3)
  Timestamp system_time;
  std::optional<Multihash> prev_block_hash;  // absent only on the seed block
  uint64_t sequence_number = 0;
  EventKind event = EventKind::kNone;

  // Seed only.
  std::optional<DatasetKind> dataset_kind;
  // Seed only: the dataset's id, "did:odf:" + its bytes in multibase16 ("did:odf:fed01…"), as
  // QueryInput::dataset_id.
  std::optional<std::string> dataset_id;

  // AddData and ExecuteTransform only.
  std::optional<Multihash> prev_checkpoint;
  std::optional<uint64_t> prev_offset;
  std::optional<DataSlice> new_data;
  std::optional<CheckpointRef> new_checkpoint;

  // SetDataSchema only.
  std::optional<DataSchemaInfo> data_schema;
  // SetVocab only: its offsetColumn, when given (absent: the default name, "offset").
  std::optional<std::string> vocab_offset_column;
  // SetVocab only: its systemTimeColumn, when given (absent: "system_time").
  std::optional<std::string> vocab_system_time_column;
  // SetVocab only: its eventTimeColumn, when given (absent: "event_time").
  std::optional<std::string> vocab_event_time_column;
  // AddData only, when its extra attributes hold the summary.
  std::optional<LinkedObjectsSummary> linked_objects;

  // What compare sets side by side (odf_events.h). SetTransform only:
  std::optional<TransformDef> transform;
  // ExecuteTransform only: its queryInputs, in order.
  std::vector<QueryInput> query_inputs;
  // SetPollingSource and AddPushSource only: the event as canonical JSON text (one line,
  // fields in the specification's order under its snake_case names, unions as
  // {"kind": member, ...fields}, absent fields left out), for comparing field by field.
  std::optional<std::string> source;
};

// Parses the bytes of a block file. Errors (kParseError) say what is wrong: not a
// FlatBuffer, failed verification, wrong Manifest kind, unsupported version, missing
// content or event, a hash that is not a valid multihash (naming the field).
Result<MetadataBlock> parse_block(std::span<const uint8_t> bytes);

}  // namespace odf_hash::odf
