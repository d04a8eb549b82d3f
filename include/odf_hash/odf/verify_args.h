// The verify modes as a user gives them: the text of the CLI's flags (--expect-head, --since,
// --sample, --seed, --pins, --write-pins) or of Python's keywords (expect_head, ...), checked
// and parsed here once for both fronts.
//
// Every value given must say something. An empty value is refused, never taken as "off": a
// script's `--expect-head "$PIN"` with PIN unset must fail, not verify without its anchor.
// (The CLI refuses an empty value for every option of every command before this; Python
// refuses its empty store options.) Also refused: a hash that is not a multihash, a sample
// that is neither a fraction in (0, 1] ("0.01", "1%") nor a count of files ("25"), a seed
// that is not a non-negative integer or without a sample, and `since` with `write_pins`
// but neither `expect_head` nor `pins`: the pin written would vouch for the blocks below
// `since`, which nothing checked (verify_pins.h says which datasets are pinned then).
//
// The pin file is read and the file of write_pins checked here (verify_pins.h), before any
// verification. Errors: kInvalidArgument, or the pin file's error (kNotFound, kIoError),
// naming the option in the front's spelling. Thread safety: reentrant.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "odf_hash/core/multihash.h"
#include "odf_hash/core/status.h"
#include "odf_hash/odf/verify.h"
#include "odf_hash/odf/verify_pins.h"

namespace odf_hash::odf {

// How errors name an option: "--expect-head" (kFlags) or "expect_head" (kKeywords).
enum class ArgSpelling { kFlags, kKeywords };

// What the user gave (nullopt: not given).
struct VerifyModeArgs {
  std::optional<std::string> expect_head, since, sample, seed, pins, write_pins;
};

struct VerifyModes {
  std::optional<Multihash> expect_head, since;
  std::optional<double> sample_fraction;
  std::optional<uint64_t> sample_count;
  uint64_t sample_seed = 0;  // without a seed given: a new one (shown in the report)
  std::string sample_spec;   // the sample as given
  std::optional<PinFile> pins;
  std::optional<std::string> write_pins;  // the pin file to write (its place checked)

  // Sets the fields of `options` these modes say (expect_head, since, sample_*).
  void apply(VerifyOptions& options) const;
};

Result<VerifyModes> parse_verify_modes(const VerifyModeArgs& args, ArgSpelling spelling);

// Why an empty value is refused, as the CLI says it for every option of every command.
inline constexpr const char* kEmptyValueRefused =
    "an empty value is refused (it would mean nothing, not \"off\"): give a value, or leave "
    "the option out";

// The error for an empty value of `option` (a name as the front spells it):
// "<option>: " + kEmptyValueRefused.
Status empty_value_status(const std::string& option);

}  // namespace odf_hash::odf
