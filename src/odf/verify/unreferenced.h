// Internal: the entries of blocks/, data/ and checkpoints/ that the chain does not reference
// (verify.h, step 4), as the report's unreferenced section and the problems they give.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "odf_hash/odf/dataset.h"
#include "odf_hash/odf/verify.h"

namespace odf_hash::odf::detail {

struct Unreferenced {
  std::vector<UnreferencedEntry> entries;  // path order
  // Path order: one of the three folders that is not a folder (always), and with `strict`
  // one unexpected-file problem per entry.
  std::vector<Problem> problems;
};

// Names that are not hashes are always looked at; hash-named files only when the chain is
// complete (otherwise every file below the break would look unreferenced). A file counts as
// referenced only under its canonical name. Sizes of regular files come from the listing
// where it gives them (object stores), else from one stat each. `dir` must be listed.
// `linked`: the keys of the linked objects the data files reference ("data/f1620…"), which
// are not unreferenced.
Unreferenced find_unreferenced(const DatasetDir& dir, const std::vector<ChainBlock>& blocks,
                               const std::set<std::string>& linked, bool chain_complete,
                               bool strict);

}  // namespace odf_hash::odf::detail
