// odf-hash verify DATASET...: integrity of ODF datasets (metadata chain, data, checkpoints),
// with the logical fallback for derivative data; a kamu workspace stands for each of its
// datasets. Report on stdout, progress on stderr (only when stderr is a terminal), exit 0
// all valid, 1 some invalid, 2 some could not be verified.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "markdown.h"
#include "odf_hash/api/verify.h"
#include "odf_hash/core/text.h"
#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/odf/verify.h"
#include "odf_hash/odf/verify_args.h"
#include "odf_hash/odf/verify_json.h"
#include "odf_hash/odf/verify_pins.h"
#include "odf_hash/remote/open_store.h"
#include "output.h"
#include "problem_text.h"
#include "progress.h"
#include "store_flags.h"

namespace odf_hash::cli {

namespace {

using odf::DatasetReport;
using odf::FileOutcome;
using odf::FileRole;
using odf::Problem;

struct VerifyArgs {
  std::vector<std::string> datasets;
  bool json = false;
  FormatChoice format;  // --format (markdown: markdown.h)
  bool integrity_only = false;
  bool verbose = false;
  bool quiet = false;  // -q: only what is not VALID, and the summary when something is not
  bool follow_symlinks = false;
  bool strict = false;
  std::vector<std::string> aliases;  // --dataset: only these datasets of a workspace
  unsigned jobs = 0;                 // 0: api::verify_jobs' default (every core; 16 for a URL)
  StoreOptions store;
  // Verify modes (verify_args.h): a trusted head, pins, incremental, deep, sampled; each
  // with its option, to tell an option given empty from one not given.
  std::string expect_head, since, pins_path, write_pins_path, sample, seed;
  std::vector<std::pair<CLI::Option*, const std::string*>> mode_options;
  bool deep = false;
};

std::string plural(uint64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string files_line(const DatasetReport& r, FileRole role) {
  uint64_t total = 0, physical = 0, logical = 0, failed = 0;
  for (const auto& f : r.files) {
    if (f.role != role) continue;
    ++total;
    physical += f.outcome == FileOutcome::kPhysicalMatch;
    logical += f.outcome == FileOutcome::kLogicalMatch;
    failed += f.outcome == FileOutcome::kFailed;
  }
  std::string s = plural(total, "file") + " checked";
  if (total == 0) return s;
  s += ": " + std::to_string(physical) + " physical match";
  if (logical != 0) s += ", " + std::to_string(logical) + " logical match (fallback)";
  if (failed != 0) s += ", " + std::to_string(failed) + " failed";
  return s;
}

// "512 bytes", "12.3 KiB", "4.0 MiB".
std::string byte_size(uint64_t n) {
  return n < 1024 ? plural(n, "byte") : format_bytes(n);  // progress.h
}

// Entries listed under the unreferenced line without -v.
constexpr size_t kUnreferencedShown = 10;

std::string unreferenced_text(const DatasetReport& r, bool verbose) {
  if (!r.unexpected_checked) {
    return r.scope.since ? "unreferenced not checked (--since: the folders are not listed)\n"
                         : "unreferenced not checked: the store cannot list its folders\n";
  }
  if (r.unreferenced.empty()) return "";
  const bool all_files =
      std::all_of(r.unreferenced.begin(), r.unreferenced.end(),
                  [](const odf::UnreferencedEntry& e) { return e.kind == ObjectKind::kFile; });
  const size_t n = r.unreferenced.size();
  std::string out =
      "unreferenced " +
      (all_files ? plural(n, "file") : std::to_string(n) + (n == 1 ? " entry" : " entries")) +
      ", " + byte_size(r.unreferenced_bytes());
  if (r.strict) {
    return out + " (--strict: each is an unexpected-file problem below)\n";
  }
  out += " (not part of the chain; --strict makes them problems)\n";
  const size_t shown =
      verbose ? r.unreferenced.size() : std::min(r.unreferenced.size(), kUnreferencedShown);
  for (size_t i = 0; i < shown; ++i) {
    const odf::UnreferencedEntry& e = r.unreferenced[i];
    out += "    " + escape_text(e.file) + "  (";
    if (e.kind == ObjectKind::kFile) {
      out += byte_size(e.size);
    } else if (e.kind == ObjectKind::kSymlink) {
      out += e.broken_link ? "symbolic link leading nowhere"
                           : "symbolic link to \"" + escape_untrusted(e.link_target, 160) +
                                 "\", outside the dataset";
    } else {
      out += object_kind_name(e.kind);
    }
    if (!e.canonical_name.empty()) out += "; a non-canonical spelling of " + e.canonical_name;
    out += ")\n";
  }
  if (shown < r.unreferenced.size()) {
    out +=
        "    ... and " + std::to_string(r.unreferenced.size() - shown) + " more (-v lists all)\n";
  }
  return out;
}

// The verify modes' lines: trusted head, --since, --deep, --sample, what was skipped.
std::string scope_text(const DatasetReport& r) {
  const odf::VerifyScope& s = r.scope;
  std::string out;
  if (s.expected_head) {
    out += "trusted      " + s.expected_head->to_string() +
           (s.expected_head_found
                ? " (on the chain: block " + std::to_string(*s.expected_head_sequence) + ")"
                : std::string(" (NOT on the chain: see the problems)")) +
           "\n";
  }
  if (s.since) {
    out += "since        " + s.since->to_string();
    if (s.since_found) {
      out += " (block " + std::to_string(*s.since_sequence) +
             "): " + plural(r.blocks == 0 ? 0 : r.blocks - 1, "newer block") +
             " and their files checked, linked down to it";
    } else {
      out += " (NOT on the chain: everything walked was checked)";
    }
    out += "\n";
  }
  if (s.deep) out += "deep         records checked: row counts, offset column, logical hashes\n";
  if (s.sampled) {
    out += "sample       " + s.sample_spec + " (seed " + std::to_string(s.sample_seed) +
           "): " + std::to_string(s.files_checked) + " of " + plural(s.files_total, "file") + ", " +
           byte_size(s.bytes_checked) + " of " + byte_size(s.bytes_total) +
           " read; the chain in full\n";
  }
  if (!s.ipfs_gateway.empty()) {
    out += "ipfs         " +
           std::string(s.ipfs_verified ? "every block checked against the CID, read from "
                                       : "NOT checked against the CID: read trusting ") +
           escape_text(s.ipfs_gateway) + "\n";
  }
  for (const auto& k : s.skipped) out += "skipped      " + escape_text(k) + "\n";
  return out;
}

// What was checked: head, blocks, modes, unreferenced entries, files, fallbacks.
std::string checked_text(const DatasetReport& r, bool verbose) {
  std::string out;
  out += "head         " + (r.head ? r.head->to_string() : std::string("(none)")) + "\n";
  out += "blocks       " + std::to_string(r.blocks) +
         (r.chain_complete ? " (chain complete: head to seed)"
          : r.scope.since_found
              ? " (head down to the --since block)"
              : " (chain incomplete: unreferenced hash-named files not looked for)") +
         "\n";
  out += scope_text(r);
  out += unreferenced_text(r, verbose);
  out += "data         " + files_line(r, FileRole::kData) + "\n";
  out += "checkpoints  " + files_line(r, FileRole::kCheckpoint) + "\n";
  if (const uint64_t linked = r.linked_objects(); linked != 0) {
    const uint64_t matched = r.linked_objects_matched();
    out += "linked       " + plural(linked, "object") + " checked: " + std::to_string(matched) +
           " match";
    if (matched != linked) out += ", " + std::to_string(linked - matched) + " failed";
    out += "\n";
  }
  for (const auto& f : r.files) {
    if (f.outcome == FileOutcome::kLogicalMatch) {
      out += "logical fallback: " + block_label(f.block, f.sequence_number) + "\n";
      out += "    file      " + f.file + "\n";
      out += "    physical  differs (actual " + f.actual_physical->to_string() + ")\n";
      out += "    logical   matches " + f.logical->to_string() + "\n";
    } else if (verbose && f.outcome == FileOutcome::kPhysicalMatch) {
      out += std::string("ok: ") + odf::file_role_name(f.role) + " " + f.file + " (" +
             block_label(f.block, f.sequence_number) + ")\n";
    }
  }
  return out;
}

void print_text(const DatasetReport& r, bool verbose, const std::string& alias,
                const std::optional<odf::Pin>& pin) {
  // An entry of a workspace that is no dataset (workspace.h): nothing was checked.
  const bool no_dataset =
      r.problems.size() == 1 && r.problems[0].kind == odf::ProblemKind::kNotADataset;
  std::string out;
  out += "== " + (alias.empty() ? "" : escape_text(alias) + ": ") + escape_text(r.path);
  if (r.kind) out += std::string(" (") + odf::dataset_kind_name(*r.kind) + " dataset)";
  if (no_dataset) out += " (not a dataset)";
  out += "\n";
  if (!no_dataset) out += checked_text(r, verbose);
  size_t i = 0;
  for (const Problem& p : r.problems) out += problem_text(p, ++i);
  out += "result       " + r.verdict() + "\n";
  if (pin) out += "pin          " + escape_text(odf::format_pin_line(*pin)) + "\n";
  out += "\n";
  std::fputs(out.c_str(), stdout);
}

// Renders each outcome as api::verify tells it: a dataset's text on stdout, an error on
// stderr; with --json, kept for the document printed at the end.
class Renderer final : public api::VerifyObserver {
 public:
  Renderer(const VerifyArgs& args, bool show_pins)
      : args_(args), show_pins_(show_pins), tty_(isatty(STDERR_FILENO) != 0) {}

  bool wants_progress() const override { return tty_; }
  void progress(const std::string& shown, const odf::VerifyProgress& p) override {
    if (!line_) line_.emplace("verifying", shown);
    line_->update(p.files_done, p.files_total, p.bytes_done, p.bytes_total);
  }
  void progress_done() override { line_.reset(); }

  void dataset(const api::DatasetOutcome& o) override {
    if (!o.result.is_ok()) {
      const std::string message = o.result.status().message();
      std::fprintf(stderr, "odf-hash verify: %s\n", escape_text(message).c_str());
      if (args_.json) datasets_.push_back(tagged({{"path", o.shown}, {"error", message}}, o));
      return;
    }
    const DatasetReport& report = o.result->report;
    if (args_.json) {
      datasets_.push_back(tagged(nlohmann::json::parse(odf::verify_report_json(report)), o));
    } else if (!args_.quiet || !report.valid()) {
      print_text(report, args_.verbose, o.alias, show_pins_ ? o.result->pin : std::nullopt);
    }
  }

  // "workspace W: 3 datasets" (or "N entries, M not a dataset", "of K (--dataset)"), then a
  // line per entry with its verdict.
  void workspace(const api::WorkspaceOutcome& w) override {
    if (args_.json) return;
    const auto valid = [](const api::WorkspaceOutcome::Line& l) {
      return !l.error && !l.not_a_dataset && l.verdict == "VALID" && l.unreferenced == 0;
    };
    if (args_.quiet && std::all_of(w.lines.begin(), w.lines.end(), valid)) return;
    const size_t n = w.lines.size();
    const size_t others = static_cast<size_t>(std::count_if(
        w.lines.begin(), w.lines.end(), [](const auto& l) { return l.not_a_dataset; }));
    const std::string counted = others == 0
                                    ? plural(n, "dataset")
                                    : std::to_string(n) + (n == 1 ? " entry, " : " entries, ") +
                                          std::to_string(others) + " not a dataset";
    std::string out = "workspace " + escape_text(w.shown) + ": " + counted +
                      (n == w.entries ? "" : " of " + std::to_string(w.entries) + " (--dataset)") +
                      "\n";
    size_t width = 0;
    for (const auto& l : w.lines) width = std::max(width, escape_text(l.name).size());
    for (const auto& l : w.lines) {
      if (args_.quiet && valid(l)) continue;
      const std::string a = escape_text(l.name);
      out += "  " + a + std::string(width - a.size(), ' ') + "  " + line_verdict(l) + "\n";
    }
    std::fputs((out + "\n").c_str(), stdout);
  }

  nlohmann::json& datasets() { return datasets_; }

 private:
  // "VALID", "INVALID (2 problems)", "VALID, 3 unreferenced (4.0 KiB)", "ERROR (could not
  // be verified)", with ": not a dataset" for such an entry.
  static std::string line_verdict(const api::WorkspaceOutcome::Line& l) {
    if (l.error) return "ERROR (could not be verified)";
    std::string verdict = l.verdict;
    if (l.unreferenced != 0) {
      verdict += ", " + std::to_string(l.unreferenced) + " unreferenced (" +
                 byte_size(l.unreferenced_bytes) + ")";
    }
    return l.not_a_dataset ? verdict + ": not a dataset" : verdict;
  }

  // The JSON of a dataset, tagged with its workspace when it belongs to one.
  static nlohmann::json tagged(nlohmann::json j, const api::DatasetOutcome& o) {
    if (o.in_workspace()) {
      j["alias"] = o.alias;
      j["workspace"] = o.workspace;
    }
    return j;
  }

  const VerifyArgs& args_;
  const bool show_pins_;
  const bool tty_;
  std::optional<FilesProgressLine> line_;
  nlohmann::json datasets_ = nlohmann::json::array();
};

// The mode options as given (an option given empty is given: verify_args.h refuses it).
odf::VerifyModeArgs mode_args(const VerifyArgs& args) {
  odf::VerifyModeArgs m;
  auto given = [&](const std::string& value) -> std::optional<std::string> {
    for (const auto& [option, bound] : args.mode_options) {
      if (bound == &value && option->count() > 0) return value;
    }
    return std::nullopt;
  };
  m.expect_head = given(args.expect_head);
  m.since = given(args.since);
  m.sample = given(args.sample);
  m.seed = given(args.seed);
  m.pins = given(args.pins_path);
  m.write_pins = given(args.write_pins_path);
  return m;
}

void print_summary(const api::VerifyTally& t) {
  std::string s = "summary: " + plural(t.total, "dataset") + ": " + std::to_string(t.valid) +
                  " valid, " + std::to_string(t.invalid) + " invalid";
  if (t.errors != 0) s += ", " + std::to_string(t.errors) + " could not be verified";
  s += " (" + plural(t.problems, "problem") + ", " + plural(t.fallbacks, "logical fallback") + ")";
  if (t.partial != 0)
    s += "; " + std::to_string(t.partial) + " verified in part (--since, --sample)";
  std::cout << s << std::endl;
}

int run_verify(VerifyArgs& args) {
  if (args.datasets.empty() && !mode_args(args).pins) {  // a usage error, as CLI11's are shown
    std::fprintf(stderr,
                 "odf-hash verify: DATASET is required (or --pins FILE: the datasets it "
                 "names)\nTry 'odf-hash verify --help' for more information.\n");
    return kExitError;
  }
  api::VerifyRequest request;
  request.locations = args.datasets;
  request.datasets = args.aliases;
  request.datasets_given = !args.aliases.empty();
  request.jobs = args.jobs;
  request.integrity_only = args.integrity_only;
  request.strict = args.strict;
  request.deep = args.deep;
  request.store = args.store;
  // The workspace's links too: an entry leaving it is then followed, not a problem.
  request.store.follow_symlinks = args.follow_symlinks;
  request.modes = mode_args(args);
  request.spelling = odf::ArgSpelling::kFlags;
  const odf::VerifyModeArgs& m = request.modes;
  Renderer renderer(args, m.expect_head || m.since || m.pins || m.write_pins);
  Result<api::VerifyResult> result = api::verify(request, renderer);
  if (!result.is_ok()) {
    std::fprintf(stderr, "odf-hash verify: %s\n", escape_text(result.status().message()).c_str());
    return kExitError;
  }
  const api::VerifyTally& t = result->tally;
  if (args.json) {
    nlohmann::json out{{"datasets", std::move(renderer.datasets())},
                       {"summary",
                        {{"datasets", t.total},
                         {"valid", t.valid},
                         {"invalid", t.invalid},
                         {"errors", t.errors},
                         {"problems", t.problems},
                         {"logical_fallbacks", t.fallbacks},
                         {"partial", t.partial}}}};
    print_json(std::move(out), JsonDoc::kVerify);
  } else if (!args.quiet || t.valid != t.total) {
    print_summary(t);
  }
  if (!result->pins_written.is_ok()) {
    std::fprintf(stderr, "odf-hash verify: %s\n",
                 escape_text(result->pins_written.message()).c_str());
  }
  return result->exit_code();
}

}  // namespace

Command add_verify_command(CLI::App& root) {
  auto args = std::make_shared<VerifyArgs>();
  CLI::App* app = root.add_subcommand(
      "verify",
      "Verify ODF datasets: metadata chain, data and checkpoint files (size and physical "
      "hash), logical fallback for derivative data, unreferenced files. Never modifies a "
      "dataset.");
  app->add_option("DATASET", args->datasets,
                  "Dataset directories (holding refs/, blocks/, ...), URLs of datasets, or kamu "
                  "workspaces (the folder holding .kamu/, or .kamu/datasets): each dataset of "
                  "a workspace is verified, named by its alias. None with --pins FILE: every "
                  "dataset the pin file names, in its order (as sha256sum -c checks its "
                  "list)");
  app->add_flag("--strict", args->strict,
                "Entries of blocks/, data/, checkpoints/ that the chain does not reference "
                "are unexpected-file problems (by default they are listed as unreferenced, "
                "and the dataset can be valid)");
  app->add_option("--dataset", args->aliases,
                  "In a kamu workspace, verify only the dataset of this id or alias (an alias "
                  "that names several datasets is refused: give the id); repeatable")
      ->allow_extra_args(false);
  app->add_flag("--json", args->json, "Machine-readable report on stdout");
  add_format_option(app, args->format,
                    "a summary for a pull request, a ticket or a CI job summary, the verdict "
                    "first (a table of the datasets, then each one's problems)");
  app->add_flag("--integrity-only", args->integrity_only,
                "No logical fallback: a physical mismatch fails derivative data too");
  app->add_flag("-v,--verbose", args->verbose, "Also list every file that matched");
  app->add_flag("-q,--quiet", args->quiet,
                "Print only the datasets that are not VALID (and the summary then), as "
                "sha256sum --quiet prints only failures: nothing when every dataset is valid; "
                "the exit status tells")
      ->excludes("--verbose");
  app->add_flag("--follow-symlinks", args->follow_symlinks,
                "Follow symbolic links that leave the dataset folder (by default they are "
                "reported as link-outside-dataset problems and not read)");
  app->add_option("-j,--jobs", args->jobs,
                  "Files hashed in parallel (default: CPU count; 16 for a remote dataset, "
                  "whose transfers wait on the network)")
      ->check(CLI::Range(1u, 1024u));
  auto mode = [&](const char* name, std::string& value, const std::string& help) {
    args->mode_options.emplace_back(app->add_option(name, value, help), &value);
  };
  mode("--expect-head", args->expect_head,
       "Trusted head: refs/head must be this block or a descendant of it (it is on the "
       "chain), else history-rewritten / head-not-found");
  mode("--pins", args->pins_path,
       "Pin file of trusted heads, \"<head> <dataset id>  <location>\" per line: each dataset "
       "it names (by its canonical location: any spelling of the path or URL) is verified "
       "against its pin (as --expect-head, and its Seed's id)");
  mode("--write-pins", args->write_pins_path,
       "After verifying, pin the head of each valid dataset in this pin file (merged under a "
       "lock with the pins it holds; a link is followed to the file it names). Not pinned: "
       "sampled passes, --since passes nothing anchors (--expect-head or --pins)");
  mode("--since", args->since,
       "Incremental: check only the blocks above this one (a head verified before), their "
       "files and the link down to it; nothing older is read");
  app->add_flag("--deep", args->deep,
                "Also check the records against their block: row count = offset interval, "
                "offset column = start..end in order, logical hash = recorded logicalHash");
  mode("--sample", args->sample,
       "Check the whole chain but only a random, size-weighted subset of the files: a "
       "fraction of the bytes (0.01, 1%) or a number of files (25)");
  mode("--seed", args->seed, "Seed of --sample (default: a new one, shown)");
  add_store_flags(app, args->store);
  app->footer(std::string(store_help_footer()) +
              "\n\nMemory: a remote file being hashed holds at most 8 MiB of its bytes (S3: "
              "the chunk\nbeing hashed and the next one) or 1 MiB (HTTP), so --jobs N bounds "
              "them to N x 8 MiB;\nthe logical fallback of a derivative file reads through "
              "the Parquet reader's bounded\npool (64 MiB + 64 bytes per byte being read). An "
              "IPFS file holds its last block (at most\n2 MiB) and the one being fetched; an "
              "IPFS dataset's folders are cached, at most 32 MiB.\n"
              "\nExit status: 0 every dataset valid, 1 some invalid (an entry of a workspace "
              "that is not\na dataset too), 2 some could not be verified (unreachable, access "
              "denied to the\ndataset itself, bad URL, a folder that is not a dataset, a "
              "--dataset name the\nworkspace does not have or that names several datasets), "
              "or a usage error (an\nempty value, a pin file that cannot be read or written).");
  return Command{app, [args] {
                   apply_format(args->format, args->json, verify_markdown);
                   return run_verify(*args);
                 }};
}

}  // namespace odf_hash::cli
