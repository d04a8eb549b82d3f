// `odf-hash physical`: physical (sha3-256) hashes of files, and checking them against a
// check list, in the manner of sha256sum / b3sum.
#include <cstdio>
#include <memory>
#include <string>

#include "commands.h"
#include "odf_hash/core/check_list.h"
#include "odf_hash/core/parallel.h"
#include "odf_hash/core/sha3.h"
#include "odf_hash/io/physical.h"
#include "odf_hash/remote/hash_path_or_url.h"
#include "output.h"
#include "physical_options.h"
#include "progress.h"
#include "store_flags.h"

namespace odf_hash::cli {

Command add_physical_command(CLI::App& root) {
  auto opts = std::make_shared<PhysicalOptions>();
  opts->jobs = resolve_threads(0);
  CLI::App* app = root.add_subcommand(
      "physical",
      "Compute the physical hash (sha3-256 multihash of the exact bytes) of files, or check "
      "files against a list of such hashes");
  app->footer(
      "Prints '<multihash>  <name>' per FILE, in argument order; with no FILE, or when FILE\n"
      "is -, reads standard input. The multihash is the canonical ODF form 'f1620' + hex\n"
      "SHA3-256, as found in ODF metadata (e.g. a data slice's physicalHash).\n"
      "\n"
      "With -c/--check, each FILE is a check list of lines '<hash>  <path>' (hashes in any\n"
      "multibase, paths relative to the current directory, '#' comments and blank lines\n"
      "ignored); the lists of sha3sum, rhash --sha3-256 and openssl dgst -sha3-256 [-r]\n"
      "(bare hex SHA3-256 digests) and BSD lines 'SHA3-256 (<path>) = <hex>' are read too.\n"
      "Prints '<path>: OK', '<path>: FAILED' or '<path>: FAILED open or read' per line.\n"
      "\n"
      "Exit status: 0 all ok; 1 a hash did not match, a listed file could not be read,\n"
      "or (--strict) a line was malformed; 2 usage error, unreadable FILE or LIST, or a\n"
      "LIST with no valid line.\n\n" +
      std::string(store_help_footer()));

  app->add_option("files", opts->files,
                  "Files to hash, or with --check the check lists ('-' = standard input)")
      ->type_name("FILE");
  app->add_option("-j,--jobs", opts->jobs, "Files hashed in parallel (default: all cores)")
      ->type_name("N")
      ->check(CLI::Range(1u, 4096u));
  add_check_flags(app, opts->check);
  app->add_flag("--json", opts->json, "Print one JSON document on stdout instead of text");
  app->add_flag("--no-progress", opts->no_progress,
                "Never show the progress line (shown on a terminal for files over a second)");
  app->add_flag("--tag", opts->tag,
                "Write BSD-style lines 'SHA3-256 (<name>) = <64 hex digits>', as coreutils' "
                "--tag and rhash --bsd do (read back by --check)");
  app->add_flag("-z,--zero", opts->zero,
                "End each line with NUL, not newline, and do not escape file names (for "
                "xargs -0 and the like)");
  app->add_flag("-b,--binary,-t,--text", opts->binary,
                "Accepted, as coreutils accepts them: the bytes hashed are always the file's, "
                "so neither changes anything");
  add_store_flags(app, opts->store);

  return {app, [opts] {
            return opts->check.check ? run_physical_check(*opts) : run_physical_hash(*opts);
          }};
}

int run_physical_check(const PhysicalOptions& options) {
  if (options.tag || options.zero) {
    print_error(
        "physical: --tag and -z shape the lines written when hashing; they do not "
        "apply to --check, which reads every format");
    return kExitError;
  }
  CheckRun run{options.files, options.check, options.jobs, options.json, options.no_progress};
  CheckKind kind{
      HashCode::kSha3_256, "physical sha3-256", true,
      [&options](const std::string& path, ProgressDisplay& progress) -> Result<CheckedHash> {
        auto r = physical_hash_path_or_url(path, options.store, progress.callback_for(path));
        progress.finish(path);
        if (!r.is_ok()) return r.status();
        return CheckedHash{r->hash, r->size, std::nullopt};
      }};
  return run_check(run, kind);
}

int run_physical_hash(const PhysicalOptions& options) {
  if ((options.tag || options.zero) && options.json) {
    print_error("physical: --tag and -z shape the text lines; --json writes none");
    return kExitError;
  }
  std::vector<std::string> files = options.files;
  if (files.empty()) files.push_back("-");
  ProgressDisplay progress(!options.no_progress && ProgressDisplay::stderr_is_terminal());
  nlohmann::json listed = nlohmann::json::array();
  bool any_error = false;
  std::vector<char> stream(files.size());
  for (size_t i = 0; i < files.size(); ++i) stream[i] = is_stream_argument(files[i]);

  run_ordered<Result<PhysicalDigest>>(
      files.size(), options.jobs,
      [&](size_t i) {
        auto r =
            physical_hash_path_or_url(files[i], options.store, progress.callback_for(files[i]));
        progress.finish(files[i]);
        return r;
      },
      [&](size_t i, Result<PhysicalDigest>& r) {
        const std::string& name = files[i];
        if (!r.is_ok()) any_error = true;
        if (options.json) {
          if (r.is_ok()) {
            listed.push_back({{"path", name}, {"hash", r->hash.to_string()}, {"size", r->size}});
          } else {
            listed.push_back({{"path", name}, {"error", reason_of(r.status(), name)}});
          }
          return;
        }
        progress.clear();
        if (r.is_ok()) {
          const std::string shown = redact_url(name);
          std::string line;
          if (options.zero) {  // as coreutils' -z: the name as it is, the line ended by NUL
            line = options.tag ? "SHA3-256 (" + shown + ") = " + to_hex(r->hash.digest())
                               : r->hash.to_string() + "  " + shown;
            line.push_back('\0');
          } else {
            line = (options.tag ? format_bsd_check_line(r->hash, shown)
                                : format_check_line(r->hash, shown)) +
                   "\n";
          }
          std::fwrite(line.data(), 1, line.size(), stdout);
        } else {
          std::fflush(stdout);
          print_error(r.status().message());
        }
      },
      [&](size_t i) { return stream[i] != 0; });

  if (options.json) print_json({{"files", listed}}, JsonDoc::kPhysical);
  std::fflush(stdout);
  return any_error ? kExitError : kExitOk;
}

}  // namespace odf_hash::cli
