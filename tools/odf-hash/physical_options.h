// Options of `odf-hash physical`, shared by its two modes (hashing files, --check).
#pragma once

#include <string>
#include <vector>

#include "check_runner.h"
#include "odf_hash/io/store_options.h"

namespace odf_hash::cli {

struct PhysicalOptions {
  std::vector<std::string> files;  // files to hash, or check lists; empty = standard input
  unsigned jobs = 1;
  CheckFlags check;  // -c: `files` are check lists
  bool json = false;
  bool no_progress = false;  // the progress line is shown only on a terminal anyway
  bool tag = false;          // --tag: BSD-style lines "SHA3-256 (<name>) = <hex>"
  bool zero = false;         // -z: lines end with NUL, names not escaped
  bool binary = false;       // -b, -t: accepted as coreutils accepts them; nothing changes
  StoreOptions store;        // for URLs
};

int run_physical_hash(const PhysicalOptions& options);
int run_physical_check(const PhysicalOptions& options);

}  // namespace odf_hash::cli
