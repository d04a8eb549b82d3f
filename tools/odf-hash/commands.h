// The odf-hash subcommands. Each add_*_command registers a CLI11 subcommand on the root app
// and returns how to run it once parsed. Commands print their results on stdout, warnings
// and errors on stderr, and return the process exit code:
//   0 ok, 1 mismatch / failed check / invalid dataset, 2 usage or I/O error.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace odf_hash::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitMismatch = 1;
inline constexpr int kExitError = 2;

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command add_physical_command(CLI::App& root);
Command add_decode_command(CLI::App& root);
Command add_logical_command(CLI::App& root);
Command add_verify_command(CLI::App& root);
Command add_compare_command(CLI::App& root);
Command add_slice_command(CLI::App& root);

}  // namespace odf_hash::cli
