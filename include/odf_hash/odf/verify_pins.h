// Pin files: trusted heads of datasets, kept outside the datasets (a chain proves only that a
// dataset agrees with itself; a head hash obtained elsewhere pins its whole history).
//
// One pin per line:
//   <head multihash> <dataset id>  <location>
//   f1620c0ffee… did:odf:fed01…  /data/ws/.kamu/datasets/fed01…
// the head, one space, the dataset's id (its Seed's datasetId, "did:odf:" + multibase16), two
// spaces, then the dataset's canonical location (location.h) to the end of the line. A
// location holding a newline, a carriage return, a backslash or another control character is
// escaped as in check lists, the line then starting with a backslash (check_list.h). Blank
// lines and lines starting with '#' are ignored. The lines of older pin files,
// "<head>  <location>" (any line check_list.h reads), are still read: such a pin has no id.
//
// Lookup is by canonical location: each line's location is made canonical when the file is
// read (a relative path of an old line from the current folder) and so is the dataset's
// when it is looked up, so "/abs/ds", "./ds", "ds", "//abs/ds" and a link to the folder find
// one pin, as do the spellings of one URL. A file naming one location twice is an error, as
// is any malformed line: a pin file is taken whole or not at all.
//
// What a pin gives a verification (verify_with_pins): its head as VerifyOptions::expect_head
// (history-rewritten / head-not-found when the chain does not hold it) and its id as
// VerifyOptions::expect_dataset_id (dataset-id-mismatch when the Seed names another dataset:
// another dataset was put in the place of the pinned one). An old line gives the head only:
// another dataset in its place is then a history-rewritten problem, not told apart; a
// --write-pins run that pins the dataset again rewrites its line with the id.
//
// When a head is pinned (PinnedReport::pin): the dataset verified valid, and its history is
// anchored, by a complete walk from the seed or by a trusted head found on the chain. Not
// pinned, saying why in the report's scope (when pinning): a sampled pass, and a --since pass
// whose chain below the --since block nothing anchors (no --expect-head, no pin found on the
// chain): its head would vouch for blocks never checked.
//
// The file is read bounded (kMaxPinFileBytes; a device such as /dev/zero is refused) and
// written through update_text_file (text_file.h): under a lock on its folder, merged with
// what the file holds then (concurrent writers lose no pin), through a temporary file
// created exclusively beside it. A symbolic link is followed to the file it names, which is
// replaced (the link stays).
//
// Thread safety: reentrant. Parsing and lookups read the file system (realpath).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "odf_hash/core/multihash.h"
#include "odf_hash/core/status.h"
#include "odf_hash/odf/verify.h"

namespace odf_hash::odf {

// The most bytes of a pin file read (about 100,000 pins).
inline constexpr uint64_t kMaxPinFileBytes = uint64_t{16} << 20;

struct Pin {
  Multihash head;
  std::optional<std::string> dataset_id;  // "did:odf:f…" (canonical); nullopt: an old line
  std::string location;                   // as the line writes it (a new pin: canonical)
  std::string key;                        // canonical_location(location)
  size_t line = 0;                        // 1-based; 0 for a pin not read from a file
};

class PinFile {
 public:
  // Errors (kInvalidArgument): "<where>:N: <why>" ("line N: <why>" when `where` is empty)
  // for the first malformed line, or a location named a second time.
  static Result<PinFile> parse(std::string_view text, std::string_view where = "");

  // The pin of the dataset at `url_or_path` (any spelling of its location), if any.
  const Pin* find(std::string_view url_or_path) const;
  // Sets `pin`, written at its canonical location (made from its location): the line of that
  // location is replaced in place, or one is appended.
  void set(Pin pin);

  const std::vector<Pin>& pins() const noexcept { return pins_; }
  // Every pin, one line each (format_pin_line), in file order.
  std::string to_text() const;

 private:
  std::vector<Pin> pins_;
};

// The line of one pin, without its newline (see the top of this file).
std::string format_pin_line(const Pin& pin);

// "did:odf:" + any multibase of the id's bytes -> "did:odf:f" + lower-case hex (as
// MetadataBlock::dataset_id); kInvalidArgument otherwise.
Result<std::string> canonical_dataset_id(std::string_view text);

// The pin file at `path` (text_file.h's read_text_file; errors name the path, and the line).
Result<PinFile> read_pin_file(const std::string& path);

// Whether `path` can take pins (a regular file, a link to one, or a new file in an existing
// folder): to check before verifying for an hour.
Status check_pin_file_target(const std::string& path);

// Sets each of `pins` in the pin file at `path`, merged under the lock with the pins it holds
// then (see above); a file that does not parse is left as it is (the error says why).
Status write_pins(const std::string& path, const std::vector<Pin>& pins);

// A verification with pin files.
struct PinnedReport {
  DatasetReport report;
  std::optional<Pin> pin;  // the pin this pass gives the dataset, when it may be pinned
};

// verify_dataset(url_or_path, options), with the pin that `pins` (may be null) holds for the
// dataset as its expect_head and expect_dataset_id (a pin replaces options.expect_head). A
// pin file naming no pin for the dataset, with no expect_head: the scope says it was
// verified without one. `pinning` (--write-pins): the scope also says why a valid pass is
// not pinned. Errors: as verify_dataset.
Result<PinnedReport> verify_with_pins(const std::string& url_or_path, VerifyOptions options,
                                      const PinFile* pins, bool pinning);

}  // namespace odf_hash::odf
