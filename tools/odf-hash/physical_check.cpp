// `odf-hash physical --check LIST`: verifies the files of a check list, with the output,
// warnings and flags of coreutils' `sha256sum --check`.
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "commands.h"
#include "line_reader.h"
#include "odf_hash/check_list.h"
#include "odf_hash/physical.h"
#include "output.h"
#include "parallel.h"
#include "physical_options.h"
#include "progress.h"
#include "store_flags.h"

namespace odf_hash::cli {
namespace {

enum class Outcome { kOk, kFailed, kUnreadable, kMissingIgnored };

struct Verdict {
  Outcome outcome = Outcome::kOk;
  std::string actual;  // the computed hash, when the file was read
  uint64_t size = 0;
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

}  // namespace

int run_physical_check(const PhysicalOptions& options) {
  const std::string& list_name = options.check_list;
  const bool text = !options.json && !options.status;

  // The list is read and checked a batch of lines at a time, so memory stays constant
  // whatever its length (an endless `yes | ... --check -` included): only --json keeps every
  // entry, for the one document it prints at the end.
  LineReader reader;
  if (Status opened = reader.open(list_name); !opened.is_ok()) {
    if (!options.status) print_error(opened.message());
    return kExitError;
  }

  ProgressDisplay progress(text && !options.no_progress && ProgressDisplay::stderr_is_terminal());
  size_t ok = 0, failed = 0, unreadable = 0, ignored = 0, malformed = 0;
  nlohmann::json json_entries = nlohmann::json::array();
  nlohmann::json json_problems = nlohmann::json::array();

  auto report_malformed = [&](size_t line, const std::string& reason) {
    ++malformed;
    if (options.json) json_problems.push_back({{"line", line}, {"reason", reason}});
    if (text) {
      print_error(list_name + ":" + std::to_string(line) +
                  ": improperly formatted hash line: " + reason);
    }
  };

  auto check_batch = [&](const std::vector<CheckListEntry>& entries) {
    std::vector<char> stream(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) stream[i] = is_stream_argument(entries[i].path);
    run_ordered<Verdict>(
        entries.size(), options.jobs,
        [&](size_t i) {
          const CheckListEntry& e = entries[i];
          Verdict v;
          auto r = physical_hash_path_or_url(e.path, options.store, progress.callback_for(e.path));
          progress.finish(e.path);
          if (!r.is_ok()) {
            bool missing = r.status().code() == StatusCode::kNotFound;
            v.outcome =
                missing && options.ignore_missing ? Outcome::kMissingIgnored : Outcome::kUnreadable;
            v.error = r.status();
            return v;
          }
          v.actual = r->hash.to_string();
          v.size = r->size;
          v.outcome = r->hash == e.expected ? Outcome::kOk : Outcome::kFailed;
          return v;
        },
        [&](size_t i, Verdict& v) {
          const CheckListEntry& e = entries[i];
          switch (v.outcome) {
            case Outcome::kOk: ++ok; break;
            case Outcome::kFailed: ++failed; break;
            case Outcome::kUnreadable: ++unreadable; break;
            case Outcome::kMissingIgnored: ++ignored; break;
          }
          if (options.json) {
            nlohmann::json j = {{"path", e.path},
                                {"line", e.line},
                                {"expected", e.expected.to_string()},
                                {"status", outcome_name(v.outcome)}};
            if (!v.actual.empty()) {
              j["actual"] = v.actual;
              j["size"] = v.size;
            }
            if (!v.error.is_ok()) j["error"] = reason_of(v.error, e.path);
            json_entries.push_back(std::move(j));
            return;
          }
          if (!text || v.outcome == Outcome::kMissingIgnored) return;
          progress.clear();
          std::string name = escape_name(e.path);
          if (v.outcome == Outcome::kUnreadable) {
            std::fflush(stdout);
            print_error(v.error.message());
            std::printf("%s: FAILED open or read\n", name.c_str());
          } else if (v.outcome == Outcome::kFailed) {
            std::printf("%s: FAILED\n", name.c_str());
          } else if (!options.quiet) {
            std::printf("%s: OK\n", name.c_str());
          }
        },
        [&](size_t i) { return stream[i] != 0; });
  };

  std::vector<CheckListEntry> batch;
  std::string line;
  bool too_long = false;
  size_t line_number = 0;
  bool read_error = false;
  for (;;) {
    Result<bool> more = reader.next(line, too_long);
    if (!more.is_ok()) {
      if (!options.status) print_error(more.status().message());
      read_error = true;
      break;
    }
    if (!*more) break;
    ++line_number;
    if (too_long) {
      report_malformed(line_number, "line longer than " +
                                        std::to_string(LineReader::kMaxLineBytes >> 20) + " MiB");
      continue;
    }
    auto parsed = parse_check_line(line, line_number);
    if (!parsed.is_ok()) {
      report_malformed(line_number, parsed.status().message());
      continue;
    }
    if (!parsed->has_value()) continue;
    CheckListEntry& e = **parsed;
    // Only physical (sha3-256) hashes can match a file; a logical hash here is a mistake in
    // the list, reported like any other malformed line.
    if (e.expected.code() != HashCode::kSha3_256) {
      report_malformed(line_number, std::string("hash is ") +
                                        hash_code_name(static_cast<uint64_t>(e.expected.code())) +
                                        ", not a physical sha3-256 hash");
      continue;
    }
    batch.push_back(std::move(e));
    if (batch.size() >= kBatchLines) {
      check_batch(batch);
      batch.clear();
    }
  }
  if (!batch.empty()) check_batch(batch);
  if (read_error) return kExitError;
  if (ok + failed + unreadable + ignored == 0) {
    if (!options.status) {
      print_error(list_name + ": no properly formatted hash lines found");
    }
    return kExitError;
  }
  std::fflush(stdout);

  const bool none_verified = ok + failed + unreadable == 0;
  if (options.json) {
    print_json({{"list", list_name},
                {"entries", json_entries},
                {"malformed", json_problems},
                {"summary",
                 {{"ok", ok},
                  {"failed", failed},
                  {"unreadable", unreadable},
                  {"missing_ignored", ignored},
                  {"malformed", malformed}}}});
  } else if (text) {
    if (malformed > 0) {
      print_error("WARNING: " + count_phrase(malformed, "line is", "lines are") +
                  " improperly formatted");
    }
    if (unreadable > 0) {
      print_error("WARNING: " + count_phrase(unreadable, "listed file", "listed files") +
                  " could not be read");
    }
    if (failed > 0) {
      print_error("WARNING: " + count_phrase(failed, "computed checksum", "computed checksums") +
                  " did NOT match");
    }
    if (none_verified) print_error(list_name + ": no file was verified");
  }

  if (failed > 0 || unreadable > 0 || none_verified) return kExitMismatch;
  if (options.strict && malformed > 0) return kExitMismatch;
  return kExitOk;
}

}  // namespace odf_hash::cli
