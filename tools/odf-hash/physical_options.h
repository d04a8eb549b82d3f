// Options of `odf-hash physical`, shared by its two modes (hashing files, --check).
#pragma once

#include <string>
#include <vector>

#include "odf_hash/open_store.h"

namespace odf_hash::cli {

struct PhysicalOptions {
  std::vector<std::string> files;  // hashing mode; empty = standard input
  unsigned jobs = 1;
  std::string check_list;  // --check LIST ("-" = standard input)
  bool check = false;
  bool quiet = false;           // --check: no OK lines
  bool status = false;          // --check: no output, exit code only
  bool strict = false;          // --check: malformed lines fail the check
  bool ignore_missing = false;  // --check: skip listed files that do not exist
  bool json = false;
  bool no_progress = false;  // the progress line is shown only on a terminal anyway
  StoreOptions store;        // for URLs
};

int run_physical_hash(const PhysicalOptions& options);
int run_physical_check(const PhysicalOptions& options);

}  // namespace odf_hash::cli
