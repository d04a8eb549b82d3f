// Shell completions (bash, zsh, fish) and the man page, written from the CLI11 definitions
// of the commands themselves, so that they never disagree with --help. `odf-hash
// completions SHELL` prints one; the build runs `odf-hash completions man|bash|zsh|fish` once
// and `cmake --install` puts the files where the shells and man look (tools/odf-hash/
// CMakeLists.txt).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace odf_hash::cli {

// The completion script of `shell` ("bash", "zsh", "fish") or the man page ("man", roff)
// for the visible commands of `root`; "" for another name.
std::string cli_reference(const CLI::App& root, const std::string& shell);

}  // namespace odf_hash::cli
