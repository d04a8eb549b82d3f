// Verify's problems as text, shared by `verify` and `compare` of two datasets (which reports
// each side's problems in verify's terms).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "odf_hash/core/multihash.h"
#include "odf_hash/odf/verify.h"

namespace odf_hash::cli {

// "block 3 f1620…", "block 3", "block f1620…" or "" (what is known of a block).
std::string block_label(const std::optional<Multihash>& block, std::optional<uint64_t> seq);

// The lines of problem `number` (from 1) as `verify` prints them, each line starting with
// `indent`: "problem 1: block-hash-mismatch: block 3 f1620…", then its file, expected and
// actual values, link and message (dataset text escaped).
std::string problem_text(const odf::Problem& p, size_t number, const std::string& indent = "");

}  // namespace odf_hash::cli
