// odf-hash: compute and check the hashes of the Open Data Fabric.
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sys/prctl.h>

#include "commands.h"
#include "help_format.h"
#include "odf_hash/core/text.h"
#include "odf_hash/remote/open_store.h"

int main(int argc, char** argv) {
  using namespace odf_hash::cli;
  // No transparent huge pages for this process. Arrow's default pool (mimalloc in the pyarrow
  // wheel) reserves its arena with MADV_HUGEPAGE, and the C Data Interface export of every
  // stream and batch allocates a few hundred bytes there: each thread's first one faulted in a
  // whole 2 MiB page, ~4 MiB of the peak RSS of `logical` on a large Parquet file
  // (bench/endtoend.sh). The readers' own pool (jemalloc) never asks for huge pages. Best
  // effort: an older kernel without the option changes nothing.
  (void)prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
  CLI::App app{
      "odf-hash: compute and check Open Data Fabric hashes (physical sha3-256 and "
      "logical arrow0-sha3-256)",
      "odf-hash"};
  // Before any subcommand is added: they copy the root's formatter.
  app.formatter(std::make_shared<HelpFormatter>());
  app.require_subcommand(1);
  app.set_version_flag("--version", "odf-hash 0.1.0");
  app.footer(
      "Exit status: 0 ok, 1 mismatch or failed check, 2 usage or I/O error.\n"
      "Run 'odf-hash help COMMAND' (or 'odf-hash COMMAND --help') for the options of a "
      "command.");

  std::vector<Command> commands;
  commands.push_back(add_physical_command(app));
  commands.push_back(add_logical_command(app));
  commands.push_back(add_decode_command(app));
  commands.push_back(add_verify_command(app));
  commands.push_back(add_fetch_command(app));
  commands.push_back(add_verify_query_command(app));
  commands.push_back(add_compare_command(app));
  commands.push_back(add_slice_command(app));
  commands.push_back(add_completions_command(app));
  commands.push_back(add_help_command(app));
  refuse_empty_values(app);

  // -c/--check is a flag now, its lists operands (as in sha256sum); "--check=LIST", the
  // spelling of the option it once was, still means "--check LIST".
  // (Not after "--": there it is a file name.) CLI11 takes the arguments in reverse order.
  int options_end = argc;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--") {
      options_end = i;
      break;
    }
  }
  std::vector<std::string> args;
  for (int i = argc - 1; i > 0; --i) {
    std::string_view a = argv[i];
    if (i < options_end && a.starts_with("--check=")) {
      args.emplace_back(a.substr(8));
      args.emplace_back("--check");
    } else {
      args.emplace_back(a);
    }
  }
  if (std::optional<int> refused = refuse_unknown_command(app, args)) return *refused;
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    return report_parse_error(app, e);  // --help and --version exit 0, anything else 2
  }
  int rc = kExitError;
  try {
    for (const auto& c : commands) {
      if (c.app->parsed()) {
        rc = c.run();
        break;
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "odf-hash: internal error: %s\n", odf_hash::redact_url(e.what()).c_str());
    rc = kExitError;
  }
  // Every store and reader is gone: the AWS SDK (S3) must stop before static destructors.
  odf_hash::shutdown_remote_stores();
  return rc;
}
