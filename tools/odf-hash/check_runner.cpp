// `odf-hash physical -c` / `logical -c`: verifies the files of check lists, with the output,
// warnings and flags of coreutils' `sha256sum --check`.
#include "check_runner.h"

#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "line_reader.h"
#include "odf_hash/core/check_list.h"
#include "odf_hash/core/parallel.h"
#include "output.h"

namespace odf_hash::cli {
namespace {

enum class Outcome { kOk, kFailed, kUnreadable, kMissingIgnored };

struct Verdict {
  Outcome outcome = Outcome::kOk;
  std::string actual;  // the computed hash, when the file was read
  std::optional<uint64_t> size, rows;
  Status error;  // when unreadable
};

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::kOk: return "ok";
    case Outcome::kFailed: return "failed";
    case Outcome::kUnreadable: return "unreadable";
    case Outcome::kMissingIgnored: return "missing";
  }
  return "?";
}

// Lines checked at once: enough to keep --jobs threads busy, few enough to bound memory.
constexpr size_t kBatchLines = 1024;

// "1 line is" / "3 lines are", as sha256sum words its warnings.
std::string count_phrase(size_t n, const char* singular, const char* plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

struct Counts {
  size_t ok = 0, failed = 0, unreadable = 0, ignored = 0, malformed = 0;
  Counts& operator+=(const Counts& o) {
    ok += o.ok;
    failed += o.failed;
    unreadable += o.unreadable;
    ignored += o.ignored;
    malformed += o.malformed;
    return *this;
  }
};

// Whether a parsed entry belongs in a list of this kind; the reason when not.
std::string misplaced_reason(const CheckListEntry& e, const CheckKind& kind) {
  if (e.format != CheckLineFormat::kMultihash && !kind.bare_digests) {
    return "a bare SHA3-256 digest is a physical hash; this list needs " +
           std::string(kind.description) + " multihashes (as `odf-hash logical` writes them)";
  }
  if (e.expected.code() != kind.code) {
    return std::string("hash is ") + hash_code_name(static_cast<uint64_t>(e.expected.code())) +
           ", not a " + kind.description + " hash";
  }
  return {};
}

// Checks one list. `json_entries` / `json_problems` collect the --json output.
class ListChecker {
 public:
  ListChecker(const CheckRun& run, const CheckKind& kind, ProgressDisplay& progress,
              nlohmann::json& json_entries, nlohmann::json& json_problems)
      : run_(run),
        kind_(kind),
        progress_(progress),
        text_(!run.json && !run.flags.status),
        json_entries_(json_entries),
        json_problems_(json_problems) {}

  // Returns false when the list could not be read (the message is printed).
  bool check(const std::string& list_name, Counts& counts, std::string& first_problem);

 private:
  void report_malformed(const std::string& list, size_t line, const std::string& reason,
                        Counts& counts, std::string& first_problem);
  void check_batch(const std::string& list, const std::vector<CheckListEntry>& entries,
                   Counts& counts);

  const CheckRun& run_;
  const CheckKind& kind_;
  ProgressDisplay& progress_;
  const bool text_;
  nlohmann::json& json_entries_;
  nlohmann::json& json_problems_;
};

void ListChecker::report_malformed(const std::string& list, size_t line, const std::string& reason,
                                   Counts& counts, std::string& first_problem) {
  ++counts.malformed;
  if (first_problem.empty()) first_problem = "line " + std::to_string(line) + ": " + reason;
  if (run_.json) json_problems_.push_back({{"list", list}, {"line", line}, {"reason", reason}});
  // As sha256sum: each malformed line is named only with --warn; the summary counts them.
  if (text_ && run_.flags.warn) {
    progress_.clear();
    print_error(list + ":" + std::to_string(line) + ": improperly formatted hash line: " + reason);
  }
}

void ListChecker::check_batch(const std::string& list, const std::vector<CheckListEntry>& entries,
                              Counts& counts) {
  std::vector<char> stream(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) stream[i] = is_stream_argument(entries[i].path);
  run_ordered<Verdict>(
      entries.size(), run_.jobs,
      [&](size_t i) {
        const CheckListEntry& e = entries[i];
        Verdict v;
        auto r = kind_.hash(e.path, progress_);
        if (!r.is_ok()) {
          bool missing = r.status().code() == StatusCode::kNotFound;
          v.outcome = missing && run_.flags.ignore_missing ? Outcome::kMissingIgnored
                                                           : Outcome::kUnreadable;
          v.error = r.status();
          return v;
        }
        v.actual = r->hash.to_string();
        v.size = r->size;
        v.rows = r->rows;
        v.outcome = r->hash == e.expected ? Outcome::kOk : Outcome::kFailed;
        return v;
      },
      [&](size_t i, Verdict& v) {
        const CheckListEntry& e = entries[i];
        switch (v.outcome) {
          case Outcome::kOk: ++counts.ok; break;
          case Outcome::kFailed: ++counts.failed; break;
          case Outcome::kUnreadable: ++counts.unreadable; break;
          case Outcome::kMissingIgnored: ++counts.ignored; break;
        }
        if (run_.json) {
          nlohmann::json j = {{"list", list},
                              {"path", e.path},
                              {"line", e.line},
                              {"expected", e.expected.to_string()},
                              {"status", outcome_name(v.outcome)}};
          if (!v.actual.empty()) j["actual"] = v.actual;
          if (v.size) j["size"] = *v.size;
          if (v.rows) j["rows"] = *v.rows;
          if (!v.error.is_ok()) j["error"] = reason_of(v.error, e.path);
          json_entries_.push_back(std::move(j));
          return;
        }
        if (!text_ || v.outcome == Outcome::kMissingIgnored) return;
        progress_.clear();
        std::string name = escape_name(e.path);
        if (v.outcome == Outcome::kUnreadable) {
          std::fflush(stdout);
          print_error(v.error.message());
          std::printf("%s: FAILED open or read\n", name.c_str());
        } else if (v.outcome == Outcome::kFailed) {
          std::printf("%s: FAILED\n", name.c_str());
        } else if (!run_.flags.quiet) {
          std::printf("%s: OK\n", name.c_str());
        }
      },
      [&](size_t i) { return stream[i] != 0; });
}

bool ListChecker::check(const std::string& list_name, Counts& counts, std::string& first_problem) {
  // The list is read and checked a batch of lines at a time, so memory stays constant
  // whatever its length (an endless `yes | ... --check -` included): only --json keeps every
  // entry, for the one document it prints at the end.
  LineReader reader;
  if (Status opened = reader.open(list_name); !opened.is_ok()) {
    if (!run_.flags.status) print_error(opened.message());
    return false;
  }
  std::vector<CheckListEntry> batch;
  std::string line;
  bool too_long = false;
  size_t line_number = 0;
  for (;;) {
    Result<bool> more = reader.next(line, too_long);
    if (!more.is_ok()) {
      if (!run_.flags.status) print_error(more.status().message());
      return false;
    }
    if (!*more) break;
    ++line_number;
    if (too_long) {
      report_malformed(
          list_name, line_number,
          "line longer than " + std::to_string(LineReader::kMaxLineBytes >> 20) + " MiB", counts,
          first_problem);
      continue;
    }
    auto parsed = parse_check_line(line, line_number);
    if (!parsed.is_ok()) {
      report_malformed(list_name, line_number, parsed.status().message(), counts, first_problem);
      continue;
    }
    if (!parsed->has_value()) continue;
    CheckListEntry& e = **parsed;
    // A hash of another kind (a logical hash in a physical list) cannot match any file: a
    // mistake in the list, reported like any other malformed line.
    if (std::string reason = misplaced_reason(e, kind_); !reason.empty()) {
      report_malformed(list_name, line_number, reason, counts, first_problem);
      continue;
    }
    batch.push_back(std::move(e));
    if (batch.size() >= kBatchLines) {
      check_batch(list_name, batch, counts);
      batch.clear();
    }
  }
  if (!batch.empty()) check_batch(list_name, batch, counts);
  return true;
}

}  // namespace

CLI::Option* add_check_flags(CLI::App* app, CheckFlags& flags) {
  CLI::Option* check = app->add_flag(
      "-c,--check", flags.check,
      "Read hashes from the check lists given as operands ('-' or none = standard input) and "
      "check the files they name");
  app->add_flag("--quiet", flags.quiet, "With --check: do not print OK lines")->needs(check);
  app->add_flag("--status", flags.status, "With --check: print nothing; the exit status tells")
      ->needs(check);
  app->add_flag("-w,--warn", flags.warn,
                "With --check: name every improperly formatted line and say why")
      ->needs(check);
  app->add_flag("--strict", flags.strict, "With --check: exit 1 when a line is malformed")
      ->needs(check);
  app->add_flag("--ignore-missing", flags.ignore_missing,
                "With --check: skip listed files that do not exist")
      ->needs(check);
  return check;
}

int run_check(const CheckRun& run, const CheckKind& kind) {
  const bool text = !run.json && !run.flags.status;
  std::vector<std::string> lists = run.lists;
  if (lists.empty()) lists.push_back("-");

  ProgressDisplay progress(text && !run.no_progress && ProgressDisplay::stderr_is_terminal());
  nlohmann::json json_entries = nlohmann::json::array();
  nlohmann::json json_problems = nlohmann::json::array();
  ListChecker checker(run, kind, progress, json_entries, json_problems);

  Counts total;
  bool list_error = false;
  bool nothing_verified = false;  // in some list (every file missing, --ignore-missing)
  for (const std::string& list_name : lists) {
    Counts counts;
    std::string first_problem;
    if (!checker.check(list_name, counts, first_problem)) {
      list_error = true;
      continue;
    }
    total += counts;
    std::fflush(stdout);
    if (counts.ok + counts.failed + counts.unreadable + counts.ignored == 0) {
      // Nothing in the list could be read as a hash line: say why for the first one, even
      // without --warn, since that is what the user needs to fix.
      if (!run.flags.status) {
        std::string why = first_problem.empty() || run.flags.warn ? "" : " (" + first_problem + ")";
        print_error(list_name + ": no properly formatted hash lines found" + why);
      }
      list_error = true;
      continue;
    }
    if (counts.ok + counts.failed + counts.unreadable == 0) nothing_verified = true;
    if (!text) continue;
    // The warnings of each list follow its verdicts, as sha256sum prints them.
    if (counts.malformed > 0) {
      print_error("WARNING: " + count_phrase(counts.malformed, "line is", "lines are") +
                  " improperly formatted" + (run.flags.warn ? "" : " (--warn says which and why)"));
    }
    if (counts.unreadable > 0) {
      print_error("WARNING: " + count_phrase(counts.unreadable, "listed file", "listed files") +
                  " could not be read");
    }
    if (counts.failed > 0) {
      print_error(
          "WARNING: " + count_phrase(counts.failed, "computed checksum", "computed checksums") +
          " did NOT match");
    }
    if (counts.ok + counts.failed + counts.unreadable == 0) {
      print_error(list_name + ": no file was verified");
    }
  }
  std::fflush(stdout);

  if (run.json) {
    nlohmann::json doc = {{"lists", lists},
                          {"entries", json_entries},
                          {"malformed", json_problems},
                          {"summary",
                           {{"ok", total.ok},
                            {"failed", total.failed},
                            {"unreadable", total.unreadable},
                            {"missing_ignored", total.ignored},
                            {"malformed", total.malformed}}}};
    // One list: also its name alone, as before lists became operands.
    if (lists.size() == 1) doc["list"] = lists[0];
    print_json(std::move(doc), JsonDoc::kCheck);
  }

  if (list_error) return kExitError;
  if (total.failed > 0 || total.unreadable > 0 || nothing_verified) return kExitMismatch;
  if (run.flags.strict && total.malformed > 0) return kExitMismatch;
  return kExitOk;
}

}  // namespace odf_hash::cli
