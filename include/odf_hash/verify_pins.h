// Pin files: trusted heads of datasets, kept outside the datasets (a chain proves only that
// a dataset agrees with itself; a head hash obtained elsewhere pins its whole history).
//
// One pin per line, in the check-list format (check_list.h), the dataset where the file
// name would be:
//   <head multihash>  <dataset path or URL>
// `odf-hash verify --pins FILE` verifies each dataset named in FILE against its pin
// (VerifyOptions::expect_head); `--write-pins FILE` writes the heads of the datasets that
// verified valid, keeping the other lines. Datasets are matched by their text as given on
// the command line (trailing slashes ignored); a URL is written without its user
// information (redact_url).
//
// Pure text processing: nothing here touches the file system. Thread safety: reentrant.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "odf_hash/check_list.h"
#include "odf_hash/multihash.h"

namespace odf_hash::odf {

class PinFile {
 public:
  // Never fails: malformed lines are kept in problems() (and dropped by to_text()).
  static PinFile parse(std::string_view text);

  // The pin of `dataset` (the last line naming it), if any.
  std::optional<Multihash> find(std::string_view dataset) const;
  // Sets the pin of `dataset`: its line is replaced in place, or one is appended.
  void set(std::string_view dataset, const Multihash& head);

  const std::vector<CheckListEntry>& entries() const noexcept { return entries_; }
  const std::vector<CheckListProblem>& problems() const noexcept { return problems_; }
  // Every pin, one line each (format_check_line), in file order.
  std::string to_text() const;

 private:
  std::vector<CheckListEntry> entries_;
  std::vector<CheckListProblem> problems_;
};

}  // namespace odf_hash::odf
