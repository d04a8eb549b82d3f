// Saying aloud that a logical hash covers columns the reference cannot hash (Dictionary,
// Null, run-end encoded, list views: ColumnDigest::reference_gap): kamu, which hashes with
// the reference, can never check such a hash. `logical` and `slice` warn on stderr, mark it
// in --json, and refuse it (exit 2) with --require-reference-compatible.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "odf_hash/logical/logical.h"

namespace odf_hash::cli {

// Adds --require-reference-compatible to `app`.
void add_reference_flag(CLI::App* app, bool& require);

// The columns among `columns` the reference cannot hash.
std::vector<ColumnDigest> reference_gaps(const std::vector<ColumnDigest>& columns);

// "<path>: the reference arrow-digest (and so kamu) cannot hash column 'c' (dictionary-
// encoded ...)[, ...]: ..." for a warning or, with `refused`, an error.
std::string reference_gap_message(const std::string& path, const std::vector<ColumnDigest>& gaps,
                                  bool refused);

// [{"column", "type", "reason"}...] for --json.
nlohmann::json reference_gaps_json(const std::vector<ColumnDigest>& gaps);

// The columns among `columns` whose hash depends on something the data does not show
// (ColumnDigest::hash_note: a UTC alias as time zone, bytes under null slots).
std::vector<ColumnDigest> hash_notes(const std::vector<ColumnDigest>& columns);

// "warning: <path>: column 'c': <note>" lines for stderr, one per note ("columns 'a', 'b'").
std::vector<std::string> hash_note_messages(const std::string& path,
                                            const std::vector<ColumnDigest>& noted);

// [{"column", "note"}...] for --json.
nlohmann::json hash_notes_json(const std::vector<ColumnDigest>& noted);

}  // namespace odf_hash::cli
