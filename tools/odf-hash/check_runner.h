// Checking files against check lists, for `physical -c` and `logical -c`, with the operands,
// output, warnings and flags of coreutils' `sha256sum --check`: any number of LISTs ("-" or
// none = standard input), each line "<hash>  <path>" (check_list.h also reads the lists of
// sha3sum, rhash, openssl dgst and BSD --tag lines), one verdict line per entry, then the
// list's warnings.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "odf_hash/core/multihash.h"
#include "odf_hash/core/status.h"
#include "odf_hash/remote/open_store.h"
#include "progress.h"

namespace odf_hash::cli {

struct CheckFlags {
  bool check = false;           // -c/--check: the operands are check lists
  bool quiet = false;           // no OK lines
  bool status = false;          // no output, exit code only
  bool warn = false;            // name every malformed line and say why
  bool strict = false;          // malformed lines fail the check
  bool ignore_missing = false;  // skip listed files that do not exist
};

// Adds -c/--check, --quiet, --status, --warn, --strict and --ignore-missing to `app`; the
// last five require --check, as in coreutils. Returns the --check option.
CLI::Option* add_check_flags(CLI::App* app, CheckFlags& flags);

// A listed file's hash, and what else is known of it for --json.
struct CheckedHash {
  Multihash hash;
  std::optional<uint64_t> size;  // bytes (physical)
  std::optional<uint64_t> rows;  // records (logical)
};

// What a check list holds and how its files are hashed.
struct CheckKind {
  HashCode code;            // the only hash code a line may hold
  const char* description;  // "physical sha3-256", for messages
  bool bare_digests;        // whether bare hex / BSD lines (SHA3-256 digests) belong here
  // Hashes one listed path (a file, "-" or a URL). `progress` may be used to report on it.
  std::function<Result<CheckedHash>(const std::string& path, ProgressDisplay& progress)> hash;
};

struct CheckRun {
  std::vector<std::string> lists;  // empty = standard input
  CheckFlags flags;
  unsigned jobs = 1;
  bool json = false;
  bool no_progress = false;
};

// Checks every list in turn; returns the exit code: 0 every listed file matched; 1 a hash did
// not match, a listed file could not be read, nothing was verified, or (--strict) a line was
// malformed; 2 a LIST could not be read or held no valid line.
int run_check(const CheckRun& run, const CheckKind& kind);

}  // namespace odf_hash::cli
