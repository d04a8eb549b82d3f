// odf-hash verify DATASET...: integrity of ODF datasets (metadata chain, data, checkpoints),
// with the logical fallback for derivative data; a kamu workspace stands for each of its
// datasets. Report on stdout, progress on stderr (only when stderr is a terminal), exit 0
// all valid, 1 some invalid, 2 some could not be verified.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "odf_hash/check_list.h"
#include "odf_hash/open_store.h"
#include "odf_hash/verify.h"
#include "odf_hash/verify_json.h"
#include "odf_hash/verify_pins.h"
#include "odf_hash/workspace.h"
#include "output.h"
#include "parallel.h"
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
  bool integrity_only = false;
  bool verbose = false;
  bool follow_symlinks = false;
  bool strict = false;
  std::vector<std::string> aliases;  // --dataset: only these datasets of a workspace
  unsigned jobs = 0;                 // 0: the CPU count, kRemoteJobs for a remote dataset
  StoreOptions store;
  // Verify modes (verify.h): a trusted head, pins, incremental, deep, sampled.
  std::string expect_head, since, pins_path, write_pins_path, sample;
  std::string seed;
  bool deep = false;
  // Parsed from the strings above by run_verify.
  std::optional<Multihash> expect_head_hash, since_hash;
  std::optional<odf::PinFile> pins;
  std::optional<double> sample_fraction;
  std::optional<uint64_t> sample_count;
  uint64_t sample_seed = 0;
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
  for (const auto& k : s.skipped) out += "skipped      " + escape_text(k) + "\n";
  return out;
}

void print_text(const DatasetReport& r, bool verbose, const std::string& alias = "") {
  std::string out;
  out += "== " + (alias.empty() ? "" : escape_text(alias) + ": ") + escape_text(r.path);
  if (r.kind) out += std::string(" (") + odf::dataset_kind_name(*r.kind) + " dataset)";
  out += "\n";
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
  size_t i = 0;
  for (const Problem& p : r.problems) out += problem_text(p, ++i);
  out += "result       " + r.verdict() + "\n";
  if (r.valid() && (r.scope.expected_head || r.scope.since) && r.head) {
    out += "pin          " + format_check_line(*r.head, r.path) + "\n";
  }
  out += "\n";
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

struct Tally {
  uint64_t total = 0, valid = 0, invalid = 0, errors = 0, problems = 0, fallbacks = 0;
  uint64_t partial = 0;  // verified in part (--since, --sample)
  nlohmann::json datasets = nlohmann::json::array();
  // (dataset as given, head) of every dataset verified valid without sampling: --write-pins.
  std::vector<std::pair<std::string, Multihash>> new_pins;
};

// A dataset of a workspace being verified: its alias and the workspace's folder.
struct Named {
  std::string alias;
  std::string workspace;
};

// Verifies one dataset and prints its report (text) or keeps it (JSON). The one-line verdict
// for a workspace's summary: "VALID", "INVALID (2 problems)", "ERROR: ...".
std::string verify_one(const VerifyArgs& args, const std::string& path, const Named* named,
                       Tally& tally) {
  const bool tty = isatty(STDERR_FILENO) != 0;
  odf::VerifyOptions options;
  options.jobs = args.jobs != 0 ? args.jobs : is_store_url(path) ? kRemoteJobs : default_jobs();
  options.integrity_only = args.integrity_only;
  options.strict = args.strict;
  options.store = args.store;
  options.store.follow_symlinks = args.follow_symlinks;
  options.expect_head = args.expect_head_hash;
  bool unpinned = false;  // --pins names no pin for this dataset
  if (args.pins) {
    auto pinned = args.pins->find(path);
    if (pinned) options.expect_head = pinned;
    unpinned = !pinned && !options.expect_head;
  }
  options.since = args.since_hash;
  options.deep = args.deep;
  options.sample_fraction = args.sample_fraction;
  options.sample_count = args.sample_count;
  options.sample_seed = args.sample_seed;
  options.sample_spec = args.sample;
  const std::string shown = redact_url(path);
  std::optional<ProgressLine> line;
  if (tty) {
    line.emplace(shown);
    options.progress = [&](const odf::VerifyProgress& p) { line->update(p); };
  }
  ++tally.total;
  Result<DatasetReport> report = odf::verify_dataset(path, options);
  line.reset();
  if (unpinned && report.is_ok()) {
    report->scope.skipped.push_back("trusted head: none, the pin file names no pin for \"" +
                                    redact_url(path) + "\" (verified without one)");
  }
  auto tag = [&](nlohmann::json j) {
    if (named != nullptr) {
      j["alias"] = named->alias;
      j["workspace"] = named->workspace;
    }
    return j;
  };
  if (!report.is_ok()) {
    ++tally.errors;
    const std::string message = redact_url(report.status().message());
    std::fprintf(stderr, "odf-hash verify: %s\n", escape_text(message).c_str());
    if (args.json) tally.datasets.push_back(tag({{"path", shown}, {"error", message}}));
    return "ERROR (could not be verified)";
  }
  (report->valid() ? tally.valid : tally.invalid) += 1;
  tally.problems += report->problems.size();
  tally.fallbacks += report->logical_fallbacks();
  tally.partial += report->scope.partial() ? 1 : 0;
  if (args.json) {
    tally.datasets.push_back(tag(nlohmann::json::parse(odf::verify_report_json(*report))));
  } else {
    print_text(*report, args.verbose, named != nullptr ? named->alias : "");
  }
  if (report->valid() && report->head && !report->scope.sampled) {
    tally.new_pins.emplace_back(path, *report->head);
  }
  std::string verdict = report->verdict();
  if (!report->unreferenced.empty() && !report->strict) {
    verdict += ", " + std::to_string(report->unreferenced.size()) + " unreferenced (" +
               byte_size(report->unreferenced_bytes()) + ")";
  }
  return verdict;
}

// A record of an error about a path or a selection, as verify_one records a failed dataset.
void record_error(const VerifyArgs& args, const std::string& shown, const std::string& message,
                  Tally& tally) {
  ++tally.total;
  ++tally.errors;
  std::fprintf(stderr, "odf-hash verify: %s\n", escape_text(message).c_str());
  if (args.json) tally.datasets.push_back({{"path", shown}, {"error", message}});
}

// Every dataset of a kamu workspace (or those --dataset names), then one line per dataset.
void verify_workspace(const VerifyArgs& args, const std::string& path, const odf::Workspace& ws,
                      Tally& tally) {
  const std::string shown = redact_url(path);
  std::vector<const odf::WorkspaceDataset*> chosen;
  for (const auto& d : ws.datasets) {
    if (args.aliases.empty() ||
        std::find(args.aliases.begin(), args.aliases.end(), d.alias) != args.aliases.end() ||
        std::find(args.aliases.begin(), args.aliases.end(), d.id) != args.aliases.end()) {
      chosen.push_back(&d);
    }
  }
  for (const auto& alias : args.aliases) {
    bool found = false;
    for (const auto& d : ws.datasets) found = found || d.alias == alias || d.id == alias;
    if (found) continue;
    std::string known;
    for (const auto& d : ws.datasets) known += (known.empty() ? "" : ", ") + d.alias;
    record_error(args, shown,
                 shown + ": the workspace has no dataset aliased \"" + alias + "\" (" +
                     (known.empty() ? std::string("it has no dataset") : "aliases: " + known) + ")",
                 tally);
  }
  if (ws.datasets.empty() && args.aliases.empty()) {
    record_error(args, shown, shown + ": the kamu workspace holds no dataset", tally);
    return;
  }
  if (chosen.size() > 1 && (args.expect_head_hash || args.since_hash)) {
    // Block hashes belong to one dataset: applied to each, they would call every other
    // dataset's history rewritten.
    record_error(args, shown,
                 shown +
                     ": --expect-head and --since name blocks of one dataset, and this "
                     "workspace has several: pick one with --dataset, or pin each in --pins",
                 tally);
    return;
  }
  std::vector<std::pair<std::string, std::string>> lines;  // alias, verdict
  for (const auto* d : chosen) {
    Named named{d->alias, shown};
    lines.emplace_back(d->alias, verify_one(args, d->location, &named, tally));
  }
  if (args.json || chosen.empty()) return;
  std::string out = "workspace " + escape_text(shown) + ": " + plural(chosen.size(), "dataset") +
                    (chosen.size() == ws.datasets.size()
                         ? ""
                         : " of " + std::to_string(ws.datasets.size()) + " (--dataset)") +
                    "\n";
  size_t width = 0;
  for (const auto& [alias, verdict] : lines) width = std::max(width, escape_text(alias).size());
  for (const auto& [alias, verdict] : lines) {
    const std::string a = escape_text(alias);
    out += "  " + a + std::string(width - a.size(), ' ') + "  " + verdict + "\n";
  }
  std::fputs((out + "\n").c_str(), stdout);
}

// Reads a text file whole (the pin file); an error names it.
Result<std::string> read_text_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    return Status::io_error(path + ": cannot open the pin file: " + std::strerror(errno));
  }
  std::string text;
  char buf[65536];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return Status::io_error(path + ": cannot read the pin file");
  return text;
}

// Writes the pin file through a temporary file renamed over it, so that a reader never
// sees half a file and a failed write leaves the old pins.
Status write_pin_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) {
    return Status::io_error(path + ": cannot write the pin file: " + std::strerror(errno));
  }
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size() &&
                  std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
  if (std::fclose(f) != 0 || !ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    return Status::io_error(path + ": cannot write the pin file: " + why);
  }
  return Status::ok();
}

// Parses the mode flags into args (hashes, pin file, sample); an error is a usage error.
Status parse_modes(VerifyArgs& args) {
  auto hash = [](const std::string& text, const char* flag) -> Result<Multihash> {
    auto h = Multihash::parse(text);
    if (!h.is_ok()) {
      return Status::invalid_argument(std::string(flag) + " \"" + escape_untrusted(text, 100) +
                                      "\": not a multihash: " + h.status().message());
    }
    return h;
  };
  if (!args.expect_head.empty()) {
    ODF_HASH_ASSIGN_OR_RETURN(args.expect_head_hash, hash(args.expect_head, "--expect-head"));
  }
  if (!args.since.empty()) {
    ODF_HASH_ASSIGN_OR_RETURN(args.since_hash, hash(args.since, "--since"));
  }
  if (!args.pins_path.empty()) {
    ODF_HASH_ASSIGN_OR_RETURN(std::string text, read_text_file(args.pins_path));
    args.pins = odf::PinFile::parse(text);
    if (!args.pins->problems().empty()) {
      const auto& p = args.pins->problems().front();
      return Status::invalid_argument(args.pins_path + ":" + std::to_string(p.line) + ": " +
                                      p.reason);
    }
  }
  if (!args.sample.empty()) {
    const std::string& t = args.sample;
    char* end = nullptr;
    errno = 0;
    if (t.find_first_of(".eE%") != std::string::npos) {
      const bool percent = t.back() == '%';
      const std::string number = percent ? t.substr(0, t.size() - 1) : t;
      double v = std::strtod(number.c_str(), &end);
      if (percent) v /= 100;
      if (end == number.c_str() || *end != '\0' || errno != 0 || !(v > 0 && v <= 1)) {
        return Status::invalid_argument("--sample \"" + escape_untrusted(t, 40) +
                                        "\": expected a fraction in (0, 1] (0.01, 1%) or a "
                                        "count of files");
      }
      args.sample_fraction = v;
    } else {
      const unsigned long long v = std::strtoull(t.c_str(), &end, 10);
      if (end == t.c_str() || *end != '\0' || errno != 0 || v == 0 || t[0] == '-') {
        return Status::invalid_argument("--sample \"" + escape_untrusted(t, 40) +
                                        "\": expected a fraction in (0, 1] (0.01, 1%) or a "
                                        "count of files");
      }
      args.sample_count = v;
    }
    // Without --seed, a seed of this run, shown in the report so the sample can be redone.
    if (!args.seed.empty()) {
      errno = 0;
      args.sample_seed = std::strtoull(args.seed.c_str(), &end, 10);
      if (end == args.seed.c_str() || *end != '\0' || errno != 0 || args.seed[0] == '-') {
        return Status::invalid_argument("--seed \"" + escape_untrusted(args.seed, 40) +
                                        "\": expected a non-negative integer");
      }
    } else {
      args.sample_seed =
          static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
          (static_cast<uint64_t>(::getpid()) << 32);
    }
  } else if (!args.seed.empty()) {
    return Status::invalid_argument("--seed is used with --sample only");
  }
  return Status::ok();
}

int run_verify(VerifyArgs& args) {
  Status st = parse_modes(args);
  if (st.is_ok() && args.datasets.size() > 1 && (args.expect_head_hash || args.since_hash)) {
    st = Status::invalid_argument(
        "--expect-head and --since name blocks of one dataset: give one dataset (for many, "
        "pin each in a --pins file)");
  }
  if (!st.is_ok()) {
    std::fprintf(stderr, "odf-hash verify: %s\n", escape_text(st.message()).c_str());
    return kExitError;
  }
  Tally tally;
  for (const auto& path : args.datasets) {
    // A folder that is no dataset may be a kamu workspace; any error opening it is left to
    // verify_one, which reports it as for a dataset.
    auto ws = odf::open_workspace(path, args.store);
    if (ws.is_ok() && ws->has_value()) {
      verify_workspace(args, path, **ws, tally);
    } else if (!args.aliases.empty() && ws.is_ok()) {
      record_error(args, redact_url(path),
                   redact_url(path) +
                       ": --dataset selects datasets of a kamu workspace, and this is not one",
                   tally);
    } else {
      verify_one(args, path, nullptr, tally);
    }
  }
  if (args.json) {
    nlohmann::json out{{"datasets", tally.datasets},
                       {"summary",
                        {{"datasets", tally.total},
                         {"valid", tally.valid},
                         {"invalid", tally.invalid},
                         {"errors", tally.errors},
                         {"problems", tally.problems},
                         {"logical_fallbacks", tally.fallbacks},
                         {"partial", tally.partial}}}};
    print_json(out);
  } else {
    std::string s = "summary: " + plural(tally.total, "dataset") + ": " +
                    std::to_string(tally.valid) + " valid, " + std::to_string(tally.invalid) +
                    " invalid";
    if (tally.errors != 0) s += ", " + std::to_string(tally.errors) + " could not be verified";
    s += " (" + plural(tally.problems, "problem") + ", " +
         plural(tally.fallbacks, "logical fallback") + ")";
    if (tally.partial != 0) {
      s += "; " + std::to_string(tally.partial) + " verified in part (--since, --sample)";
    }
    std::cout << s << std::endl;
  }
  if (!args.write_pins_path.empty() && !tally.new_pins.empty()) {
    // Pins of other datasets already in the file are kept.
    odf::PinFile pins;
    if (auto text = read_text_file(args.write_pins_path); text.is_ok()) {
      pins = odf::PinFile::parse(*text);
    }
    for (const auto& [dataset, head] : tally.new_pins) pins.set(dataset, head);
    if (Status written = write_pin_file(args.write_pins_path, pins.to_text()); !written.is_ok()) {
      std::fprintf(stderr, "odf-hash verify: %s\n", escape_text(written.message()).c_str());
      return kExitError;
    }
  }
  if (tally.errors != 0) return kExitError;
  return tally.invalid != 0 ? kExitMismatch : kExitOk;
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
                  "a workspace is verified, named by its alias")
      ->required();
  app->add_flag("--strict", args->strict,
                "Entries of blocks/, data/, checkpoints/ that the chain does not reference "
                "are unexpected-file problems (by default they are listed as unreferenced, "
                "and the dataset can be valid)");
  app->add_option("--dataset", args->aliases,
                  "In a kamu workspace, verify only the dataset of this alias (or dataset id); "
                  "repeatable")
      ->allow_extra_args(false);
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
  app->add_option("--expect-head", args->expect_head,
                  "Trusted head: refs/head must be this block or a descendant of it (it is "
                  "on the chain), else history-rewritten / head-not-found");
  app->add_option("--pins", args->pins_path,
                  "Pin file of trusted heads, \"<head>  <dataset>\" per line: each dataset it "
                  "names is verified against its pin (as --expect-head)");
  app->add_option("--write-pins", args->write_pins_path,
                  "After verifying, write the head of each valid dataset to this pin file "
                  "(other lines kept; sampled passes are not pinned)");
  app->add_option("--since", args->since,
                  "Incremental: check only the blocks above this one (a head verified "
                  "before), their files and the link down to it; nothing older is read");
  app->add_flag("--deep", args->deep,
                "Also check the records against their block: row count = offset interval, "
                "offset column = start..end in order, logical hash = recorded logicalHash");
  app->add_option("--sample", args->sample,
                  "Check the whole chain but only a random, size-weighted subset of the files: "
                  "a fraction of the bytes (0.01, 1%) or a number of files (25)");
  app->add_option("--seed", args->seed, "Seed of --sample (default: a new one, shown)");
  add_store_flags(app, args->store);
  app->footer(std::string(store_help_footer()) +
              "\n\nMemory: a remote file being hashed holds at most 8 MiB of its bytes (S3: "
              "the chunk\nbeing hashed and the next one) or 1 MiB (HTTP), so --jobs N bounds "
              "them to N x 8 MiB;\nthe logical fallback of a derivative file reads through "
              "the Parquet reader's bounded\npool (64 MiB + 64 bytes per byte being read).\n"
              "\nExit status: 0 every dataset valid, 1 some invalid, 2 some could not be "
              "verified\n(unreachable, access denied to the dataset itself, bad URL, a folder "
              "that is not a\ndataset, a --dataset alias the workspace does not have).");
  return Command{app, [args] { return run_verify(*args); }};
}

}  // namespace odf_hash::cli
