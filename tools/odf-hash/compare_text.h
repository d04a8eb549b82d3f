// How `compare` shows one comparison of two files (or of two runs of slices of datasets,
// compare_datasets.h), in text and as JSON: the verdicts, the schema, the causes, the rows
// that differ, a block of rows only one side has; and --ignore-order's sides.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "odf_hash/compare/compare.h"
#include "odf_hash/compare/compare_datasets.h"
#include "odf_hash/compare/keyed.h"
#include "odf_hash/compare/unordered.h"

namespace odf_hash::cli {

// A run of slices of two datasets (compare_datasets): which file of each side holds a row.
struct RunFiles {
  const std::vector<compare::SliceFile>* original = nullptr;
  const std::vector<compare::SliceFile>* reproduced = nullptr;
};

// "type int64 -> string" and the like, for a schema difference.
std::string schema_difference_text(const SchemaDifference& d);

// A field's values once its type difference is neutralised: "the values are equal after
// casting the reproduction's timestamp[us, tz=UTC] to timestamp[ms, tz=UTC]".
std::string cast_text(const compare::FileComparison::CastCheck& k);

// "original    PATH (N bytes, ...)": one side of a file comparison.
void print_side(const char* label, const compare::ComparedFile& s);

// --ignore-order: one side's digest, and the records only it holds.
void print_unordered_side(const char* label, const compare::UnorderedSide& s);
void print_only(const char* label, const compare::UnorderedSide& s);

// --key: the verdict first, then the keys only one side holds, the changed rows column by
// column, the duplicated keys.
void print_keyed(const compare::KeyedComparison& c);

// The JSON of a file comparison (compare_json.h) as a document to add to.
nlohmann::json comparison_json(const compare::FileComparison& c);

// The verdict lines and what differs: schema, causes, rows (in a run's files when `run`
// says which), a block of rows only one side has, the records of an equivalent pair.
void print_verdict(const compare::FileComparison& c, const RunFiles& run = {});

}  // namespace odf_hash::cli
