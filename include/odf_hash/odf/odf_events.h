// The contents of the metadata events that `compare` sets side by side when it compares an
// original dataset with a reproduced one (compare_datasets.h, chain_diff.h): what a
// reproduction can change beyond its data. parse_block (odf_block.h) fills them into
// MetadataBlock.
//
// Names follow the ODF specification (the FlatBuffers schema in src/odf/schema/odf_block.fbs,
// copied from it). These events do not affect any hash odf-hash checks, so a field the
// specification requires but the block lacks is kept as absent (empty / nullopt) rather than
// refused; a malformed one (the FlatBuffers verifier rejects it) is a parse error as anywhere
// else in the block.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "odf_hash/core/multihash.h"

namespace odf_hash::odf {

// SetTransform.inputs[i]. kamu 0.265 writes the input's dataset id ("did:odf:fed01…") as
// datasetRef and its name in the workspace as alias.
struct TransformInputRef {
  std::string dataset_ref;
  std::string alias;
};

// TransformSql.queries[i]: a named step (alias) or, without alias, the output query.
struct SqlQueryStep {
  std::optional<std::string> alias;
  std::string query;
};

// TransformSql.temporalTables[i].
struct TemporalTable {
  std::string name;
  std::vector<std::string> primary_key;
};

// SetTransform: the inputs and the transform. `kind` is "Sql" (TransformSql, the one kind
// the specification has), "" when the union is absent, or "Unknown(<tag>)" for a newer
// member (its fields are then not read).
struct TransformDef {
  std::vector<TransformInputRef> inputs;
  std::string kind;
  std::optional<std::string> engine;
  std::optional<std::string> version;
  std::optional<std::string> query;  // the single-query form
  std::vector<SqlQueryStep> queries;
  std::vector<TemporalTable> temporal_tables;
};

// One field of an ODF data schema (RFC-016), nested fields flattened: `path` is the names
// from the top level joined by "." (a list's item is "[]", a map's key and value "{key}" and
// "{value}"), in schema order, parents before their children. `type` is the logical type as
// text: "Int64", "Option<String>", "Timestamp(Millisecond, UTC)", "Decimal(10, 2)",
// "Struct", "List", "List(3)" (fixed length), "Map(sorted)", ...; `extra` is the field's
// extra attributes (JSON text as written, "" when absent).
struct SchemaField {
  std::string path;
  std::string type;
  std::string extra;
};

// ExecuteTransform.queryInputs[i]: which blocks and records of an input were consumed.
struct QueryInput {
  std::string dataset_id;  // "did:odf:" + the id's bytes in multibase16 ("did:odf:fed01…")
  std::optional<Multihash> prev_block_hash;
  std::optional<Multihash> new_block_hash;
  std::optional<uint64_t> prev_offset;
  std::optional<uint64_t> new_offset;
};

}  // namespace odf_hash::odf
