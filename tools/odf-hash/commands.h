// The odf-hash subcommands. Each add_*_command registers a CLI11 subcommand on the root app
// and returns how to run it once parsed. Commands print their results on stdout, warnings
// and errors on stderr, and return the process exit code:
//   0 ok, 1 mismatch / failed check / invalid dataset, 2 usage or I/O error, and 3: for
//   `compare` of two datasets, a side failed its own verification, nothing is vouched for;
//   for `verify-query`, all valid but signed by a key not in your trusted keys.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace odf_hash::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitMismatch = 1;
inline constexpr int kExitError = 2;
inline constexpr int kExitUnverified = 3;
inline constexpr int kExitUntrustedKey = 3;

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command add_physical_command(CLI::App& root);
Command add_decode_command(CLI::App& root);
Command add_logical_command(CLI::App& root);
Command add_verify_command(CLI::App& root);
Command add_fetch_command(CLI::App& root);
Command add_verify_query_command(CLI::App& root);
Command add_compare_command(CLI::App& root);
Command add_slice_command(CLI::App& root);
// `help [COMMAND]` and `completions SHELL`; add them after the other commands (they list
// them).
Command add_help_command(CLI::App& root);
Command add_completions_command(CLI::App& root);

// Makes every option of `root` and its subcommands that takes a value refuse an empty one (a
// usage error, exit 2): an empty value never switches a check off. (An empty operand is a
// path or a hash that does not exist: each command refuses it with its own message.) Call it
// after every command is added.
void refuse_empty_values(CLI::App& root);

// The command nearest to `typed` (at most two edits away, or one it starts), "" if none.
std::string nearest_command(const CLI::App& root, const std::string& typed);

// Before parsing (`args_reversed` as CLI11 takes them): with no arguments prints the help on
// stderr, and with a first argument that names no command says which one is nearest; the
// exit code then. nullopt when parsing should go on.
std::optional<int> refuse_unknown_command(const CLI::App& root,
                                          const std::vector<std::string>& args_reversed);

// A parse error of CLI11 as odf-hash says it (exit 2): prefixed with the command being
// parsed ("odf-hash compare: ..."), an unknown option with the nearest one of that command
// ("unknown option '--ignore-colums'; did you mean '--ignore-columns'?"), and where the help
// is ("Try 'odf-hash compare --help'."). --help and --version are not errors: CLI11 prints
// them (exit 0).
int report_parse_error(CLI::App& root, const CLI::ParseError& e);

}  // namespace odf_hash::cli
