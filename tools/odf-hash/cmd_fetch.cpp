// odf-hash fetch SOURCE DEST: copies a dataset from any location verify reads into a local
// dataset folder, keeping only what verifies (odf/fetch.h). Report on stdout, progress on
// stderr (a terminal only); exit 0 fetched (or up to date), 1 rejected content, 2 usage or the
// source unreachable, a file that could not be read (DEST stays at its old head).
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "odf_hash/api/fetch.h"
#include "odf_hash/core/text.h"
#include "odf_hash/odf/fetch.h"
#include "odf_hash/odf/fetch_json.h"
#include "output.h"
#include "problem_text.h"
#include "progress.h"
#include "store_flags.h"

namespace odf_hash::cli {

namespace {

using odf::FetchReport;

struct FetchArgs {
  std::string source, dest;
  bool json = false;
  bool quiet = false;
  bool force = false;
  unsigned jobs = 0;
  std::string expect_head;
  std::string dataset, alias, pins;
  StoreOptions store;
};

int exit_code(const FetchReport& r) {
  if (r.fetched()) return kExitOk;
  return r.rejected() ? kExitMismatch : kExitError;
}

std::string head_text(const std::optional<Multihash>& head, std::optional<uint64_t> seq) {
  if (!head) return "no head";
  return "head " + head->to_string() + (seq ? " (block " + std::to_string(*seq) + ")" : "");
}

void print_text(const FetchReport& r, bool quiet) {
  std::string out;
  if (!quiet || !r.fetched()) {
    out += "fetch " + escape_text(r.source) + " -> " + escape_text(r.dest) + "\n";
    out += "  source at " + head_text(r.source_head, r.source_sequence) + "; destination had " +
           head_text(r.old_head, r.old_sequence) + "\n";
    for (const auto& f : r.files) {
      if (f.how == odf::FetchedHow::kRejected) continue;
      out += "  " + std::string(odf::fetched_how_name(f.how)) + " " + f.file + " (" +
             format_bytes(f.size) + ")\n";
    }
    for (size_t i = 0; i < r.problems.size(); ++i) {
      out += problem_text(r.problems[i], i + 1, "  ");
    }
    for (const auto& s : r.skipped) out += "  not checked: " + s + "\n";
  }
  std::string closing = r.verdict() + ": " + escape_text(r.dest);
  if (r.fetched() && !r.up_to_date) {
    closing += " is now at " + head_text(r.head, r.source_sequence);
  } else if (!r.fetched()) {
    closing += " stays at " + head_text(r.old_head, r.old_sequence) +
               (!r.rejected() ? " (files that could not be read are resumed by the next "
                                "fetch)"
                              : "; nothing that failed was stored");
  } else {
    closing += " is at " + head_text(r.head, r.old_sequence ? r.old_sequence : r.source_sequence);
  }
  if (!quiet || !r.fetched()) std::fputs(out.c_str(), stdout);
  std::printf("%s\n", closing.c_str());
}

int run_fetch(const FetchArgs& args, const CLI::App& app) {
  api::FetchRequest request;
  request.source = args.source;
  request.dest = args.dest;
  request.store = args.store;
  request.force = args.force;
  request.jobs = args.jobs;
  if (app.count("--expect-head") > 0) request.expect_head = args.expect_head;
  if (app.count("--dataset") > 0) request.dataset = args.dataset;
  if (app.count("--pins") > 0) request.pins = args.pins;
  if (app.count("--alias") > 0) request.alias = args.alias;
  std::unique_ptr<FilesProgressLine> line;
  if (isatty(STDERR_FILENO) != 0 && !args.json) {
    line = std::make_unique<FilesProgressLine>("fetching", redact_url(args.source));
    request.progress = [&line](const odf::FetchProgress& p) {
      line->update(p.files_done, p.files_total, p.bytes_done, p.bytes_total);
    };
  }
  auto result = api::fetch(request);
  line.reset();
  if (!result.is_ok()) {
    std::fprintf(stderr, "odf-hash fetch: %s\n", escape_text(result.status().message()).c_str());
    if (args.json) {
      print_json({{"source", redact_url(args.source)},
                  {"dest", args.dest},
                  {"error", result.status().message()}},
                 JsonDoc::kFetch);
    }
    return kExitError;
  }
  if (args.json) {
    print_json(nlohmann::json::parse(odf::fetch_report_json(result->report)), JsonDoc::kFetch);
  } else {
    print_text(result->report, args.quiet);
  }
  return exit_code(result->report);
}

}  // namespace

Command add_fetch_command(CLI::App& root) {
  auto args = std::make_shared<FetchArgs>();
  CLI::App* app = root.add_subcommand(
      "fetch",
      "Copy an ODF dataset from a folder or URL into a local dataset folder, keeping only what "
      "verifies: every block checked against its name and link, every file hashed as it "
      "streams and renamed into place only when it matches, refs/head written last. An "
      "existing destination gets only the blocks above its head.");
  app->add_option("SOURCE", args->source,
                  "The dataset to copy: a folder, s3://, http(s)://, ipfs:// (as verify reads "
                  "them)")
      ->required();
  app->add_option("DEST", args->dest,
                  "A local folder: made when missing; an empty folder, a dataset fetched "
                  "before (then only what is new is fetched), or a kamu workspace (--alias)")
      ->required();
  app->add_flag("--json", args->json, "Machine-readable report on stdout");
  app->add_flag("-q,--quiet", args->quiet, "Print only the closing line unless something failed");
  app->add_option("-j,--jobs", args->jobs,
                  "Files transferred in parallel (default: CPU count; 16 for a remote source)")
      ->check(CLI::Range(1u, 1024u));
  app->add_option("--expect-head", args->expect_head,
                  "Trusted head: the source's refs/head must be this block or a descendant of "
                  "it, else nothing is fetched");
  app->add_option("--pins", args->pins,
                  "Pin file of trusted heads (as verify --pins): the source's pin, found by its "
                  "location, is its trusted head and dataset id")
      ->excludes("--expect-head");
  app->add_option("--dataset", args->dataset,
                  "When SOURCE is a kamu workspace: the dataset to fetch (its alias or id)");
  app->add_option("--alias", args->alias,
                  "When DEST is a kamu workspace: the dataset's alias there (default: the "
                  "source dataset's alias, or the last component of SOURCE); a new dataset goes "
                  "to .kamu/datasets/<its id>, so that kamu uses it as its own");
  app->add_flag("--force", args->force,
                "Fetch a source whose history does not contain the destination's head (a "
                "rewritten history): the destination's head moves to the source's");
  add_store_flags(app, args->store);
  app->footer(std::string(store_help_footer()) +
              "\n\nNothing unverified ever gets a final name: files are streamed into "
              "DEST/.odf-hash-fetch/\nand renamed into data/ or checkpoints/ once their size "
              "and physical hash match the\nchain; an interrupted fetch leaves DEST at its old "
              "head and is resumed by the next one.\n"
              "\nExit status: 0 fetched and verified (or already up to date), 1 rejected "
              "content (a\nchain that does not verify, a file whose hash or size is not the "
              "recorded one, a\nrewritten history), 2 a usage error, the source unreachable "
              "or a file that could\nnot be read from it.");
  return Command{app, [args, app] { return run_fetch(*args, *app); }};
}

}  // namespace odf_hash::cli
