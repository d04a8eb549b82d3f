// odf-hash verify DATASET...: integrity of ODF datasets (metadata chain, data, checkpoints),
// with the logical fallback for derivative data. Report on stdout, progress on stderr (only
// when stderr is a terminal), exit 0 all valid, 1 some invalid, 2 some could not be verified.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "odf_hash/open_store.h"
#include "odf_hash/verify.h"
#include "odf_hash/verify_json.h"
#include "output.h"
#include "parallel.h"
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
  bool integrity_only = false;
  bool verbose = false;
  bool follow_symlinks = false;
  unsigned jobs = 0;  // 0: the CPU count, kRemoteJobs for a remote dataset
  StoreOptions store;
};

std::string plural(uint64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string block_label(const std::optional<Multihash>& block, std::optional<uint64_t> seq) {
  std::string s;
  if (seq) s += "block " + std::to_string(*seq);
  if (block) s += (s.empty() ? "block " : " ") + block->to_string();
  return s;
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

void print_text(const DatasetReport& r, bool verbose) {
  std::string out;
  out += "== " + escape_text(r.path);
  if (r.kind) out += std::string(" (") + odf::dataset_kind_name(*r.kind) + " dataset)";
  out += "\n";
  out += "head         " + (r.head ? r.head->to_string() : std::string("(none)")) + "\n";
  out += "blocks       " + std::to_string(r.blocks) +
         (r.chain_complete ? " (chain complete: head to seed)"
                           : " (chain incomplete: unreferenced files not checked)") +
         "\n";
  if (!r.unexpected_checked) {
    out += "unexpected   not checked: the store cannot list its folders\n";
  }
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
  size_t i = 0;
  for (const Problem& p : r.problems) {
    out += "problem " + std::to_string(++i) + ": " + odf::problem_kind_name(p.kind);
    std::string label = block_label(p.block, p.sequence_number);
    if (!label.empty()) out += ": " + label;
    out += "\n";
    if (!p.file.empty()) out += "    file      " + escape_text(p.file) + "\n";
    if (!p.expected.empty()) out += "    expected  " + p.expected + "\n";
    if (!p.actual.empty()) out += "    actual    " + p.actual + "\n";
    if (p.link) {
      out += "    linked    from " + escape_text(p.link->data_file) + " column " +
             escape_text(p.link->column) + " row " + std::to_string(p.link->row) + "\n";
    }
    out += "    " + escape_text(p.message) + "\n";
  }
  out += "result       ";
  out += r.valid() ? "VALID" : "INVALID (" + plural(r.problems.size(), "problem") + ")";
  out += "\n\n";
  std::fputs(out.c_str(), stdout);
}

// "\r<path>: 3/7 files, 1.2/4.5 MiB" at most ten times a second, erased when done.
class ProgressLine {
 public:
  explicit ProgressLine(const std::string& path) : path_(escape_text(path)) {}
  ~ProgressLine() {
    if (shown_) std::fputs("\r\033[K", stderr);
  }
  void update(const odf::VerifyProgress& p) {
    auto now = std::chrono::steady_clock::now();
    if (shown_ && now - last_ < std::chrono::milliseconds(100) && p.files_done != p.files_total) {
      return;
    }
    last_ = now;
    shown_ = true;
    std::fprintf(stderr, "\r\033[Kverifying %s: %llu/%llu files, %.1f/%.1f MiB", path_.c_str(),
                 static_cast<unsigned long long>(p.files_done),
                 static_cast<unsigned long long>(p.files_total), p.bytes_done / 1048576.0,
                 p.bytes_total / 1048576.0);
    std::fflush(stderr);
  }

 private:
  std::string path_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_;
};

int run_verify(const VerifyArgs& args) {
  const bool tty = isatty(STDERR_FILENO) != 0;
  uint64_t valid = 0, invalid = 0, errors = 0, problems = 0, fallbacks = 0;
  nlohmann::json datasets = nlohmann::json::array();
  for (const auto& path : args.datasets) {
    odf::VerifyOptions options;
    options.jobs = args.jobs != 0 ? args.jobs : is_store_url(path) ? kRemoteJobs : default_jobs();
    options.integrity_only = args.integrity_only;
    options.store = args.store;
    options.store.follow_symlinks = args.follow_symlinks;
    const std::string shown = redact_url(path);
    std::optional<ProgressLine> line;
    if (tty) {
      line.emplace(shown);
      options.progress = [&](const odf::VerifyProgress& p) { line->update(p); };
    }
    Result<DatasetReport> report = odf::verify_dataset(path, options);
    line.reset();
    if (!report.is_ok()) {
      ++errors;
      const std::string message = redact_url(report.status().message());
      std::fprintf(stderr, "odf-hash verify: %s\n", escape_text(message).c_str());
      if (args.json) datasets.push_back({{"path", shown}, {"error", message}});
      continue;
    }
    (report->valid() ? valid : invalid) += 1;
    problems += report->problems.size();
    fallbacks += report->logical_fallbacks();
    if (args.json) {
      datasets.push_back(nlohmann::json::parse(odf::verify_report_json(*report)));
    } else {
      print_text(*report, args.verbose);
    }
  }
  const uint64_t total = args.datasets.size();
  if (args.json) {
    nlohmann::json out{{"datasets", datasets},
                       {"summary",
                        {{"datasets", total},
                         {"valid", valid},
                         {"invalid", invalid},
                         {"errors", errors},
                         {"problems", problems},
                         {"logical_fallbacks", fallbacks}}}};
    print_json(out);
  } else {
    std::string s = "summary: " + plural(total, "dataset") + ": " + std::to_string(valid) +
                    " valid, " + std::to_string(invalid) + " invalid";
    if (errors != 0) s += ", " + std::to_string(errors) + " could not be verified";
    s += " (" + plural(problems, "problem") + ", " + plural(fallbacks, "logical fallback") + ")";
    std::cout << s << std::endl;
  }
  if (errors != 0) return kExitError;
  return invalid != 0 ? kExitMismatch : kExitOk;
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
                  "Dataset directories (holding refs/, blocks/, ...) or URLs of datasets")
      ->required();
  app->add_flag("--json", args->json, "Machine-readable report on stdout");
  app->add_flag("--integrity-only", args->integrity_only,
                "No logical fallback: a physical mismatch fails derivative data too");
  app->add_flag("-v,--verbose", args->verbose, "Also list every file that matched");
  app->add_flag("--follow-symlinks", args->follow_symlinks,
                "Follow symbolic links that leave the dataset folder (by default they are "
                "reported as link-outside-dataset problems and not read)");
  app->add_option("-j,--jobs", args->jobs,
                  "Files hashed in parallel (default: CPU count; 16 for a remote dataset, "
                  "whose transfers wait on the network)")
      ->check(CLI::Range(1u, 1024u));
  add_store_flags(app, args->store);
  app->footer(std::string(store_help_footer()) +
              "\n\nMemory: a remote file being hashed holds at most 8 MiB of its bytes (S3: "
              "the chunk\nbeing hashed and the next one) or 1 MiB (HTTP), so --jobs N bounds "
              "them to N x 8 MiB;\nthe logical fallback of a derivative file reads through "
              "the Parquet reader's bounded\npool (64 MiB + 64 bytes per byte being read).\n"
              "\nExit status: 0 every dataset valid, 1 some invalid, 2 some could not be "
              "verified\n(unreachable, access denied to the dataset itself, bad URL).");
  return Command{app, [args] { return run_verify(*args); }};
}

}  // namespace odf_hash::cli
