// The --help layout of every odf-hash command: CLI11's, without its parser internals. CLI11
// prints an option's type and its validators' descriptions ("UINT:UINT in [1 - 1024]",
// "ENUM:value in {auto->0,off->1,on->2} OR {0,1,2}"); a user needs the value's name only
// (N, FILE, auto|on|off), the ranges being in the descriptions.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace odf_hash::cli {

class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_opts(const CLI::Option* opt) const override;
  // The remote-store group (store_flags.h) as one line naming its options: explained once,
  // by `odf-hash help stores`, not in every command's help.
  std::string make_group(std::string group, bool is_positional,
                         std::vector<const CLI::Option*> opts) const override;
};

// The value name shown for `opt`: its type name without validator descriptions, "N" for a
// number, "" for the TEXT of a positional (its name says it), the upper-cased long name for
// the TEXT of an option ("--dataset DATASET").
std::string value_name(const CLI::Option* opt);

}  // namespace odf_hash::cli
