// odf-hash logical FILE...: the logical hash (arrow0-sha3-256) of Parquet / Arrow IPC files.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "check_runner.h"
#include "commands.h"
#include "odf_hash/compare/unordered.h"
#include "odf_hash/core/parallel.h"
#include "odf_hash/core/sha3.h"
#include "odf_hash/core/text.h"
#include "odf_hash/io/local_store.h"
#include "odf_hash/io/logical_file.h"
#include "odf_hash/io/read_counter.h"
#include "odf_hash/io/record_stream.h"
#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/io/table.h"
#include "odf_hash/logical/logical.h"
#include "odf_hash/logical/record_digest.h"
#include "odf_hash/remote/open_store.h"
#include "odf_hash/remote/open_table.h"
#include "output.h"
#include "progress.h"
#include "reference_gaps.h"
#include "stdin_spool.h"
#include "store_flags.h"

namespace odf_hash::cli {

namespace {

struct LogicalOptions {
  std::vector<std::string> files;  // files to hash, or with --check the check lists
  CheckFlags check;
  bool columns = false;
  bool json = false;
  bool unordered = false;  // the order-independent digest instead (unordered.h)
  unsigned jobs = 0;       // 0: chosen from the file count (see plan_threads)
  unsigned threads = 0;    // 0: chosen from the file count and --jobs
  LogicalFileOptions::ColumnStreams column_streams = LogicalFileOptions::ColumnStreams::kAuto;
  bool require_reference = false;  // --require-reference-compatible
  bool no_progress = false;        // --no-progress
  bool as_one = false;             // --as-one: the files (folders' files) as one table
  std::string stdin_limit = "8G";  // --stdin-limit: the most `logical -` copies
  StoreOptions store;              // for URLs
};

// Files in parallel and column threads per file, so that together they use every core once:
// one file gets every core for its columns; many files get a core each. What the user set is
// kept; the other one takes the cores left.
struct ThreadPlan {
  unsigned jobs;
  unsigned threads;
};
ThreadPlan plan_threads(const LogicalOptions& opt) {
  const unsigned cores = resolve_threads(0);
  const unsigned files = static_cast<unsigned>(std::max<size_t>(opt.files.size(), 1));
  ThreadPlan p{opt.jobs, opt.threads};
  if (p.jobs == 0)
    p.jobs = p.threads == 0 ? std::min(cores, files) : std::max(1u, cores / p.threads);
  if (p.threads == 0) p.threads = std::max(1u, cores / std::min(p.jobs, files));
  return p;
}

struct FileOutcome {
  std::optional<FileFormat> format;
  std::optional<LogicalDigest> digest;
  std::optional<compare::UnorderedFileDigest> unordered;
  Status error;
};

// The file is opened once: its format is detected and its records hashed from the same
// descriptor (what was detected is what is hashed).
// `counter`: the bytes read are added to it (a progress line), when not null.
FileOutcome hash_one(const std::string& path, const LogicalFileOptions& options,
                     const StoreOptions& store, bool unordered,
                     const std::shared_ptr<ReadCounter>& counter = nullptr) {
  FileOutcome out;
  Result<std::unique_ptr<ObjectReader>> opened = open_object(path, store);
  if (!opened.is_ok()) {
    out.error = opened.status();
    return out;
  }
  std::shared_ptr<ObjectReader> object =
      count_reads(std::shared_ptr<ObjectReader>(std::move(opened).value()), counter);
  Result<FileFormat> format = detect_file_format(*object);
  if (!format.is_ok()) {
    out.error = format.status();
    return out;
  }
  out.format = *format;
  if (unordered) {
    Result<compare::UnorderedFileDigest> u =
        compare::unordered_digest(Table::of(std::move(object)));
    if (!u.is_ok()) {
      out.error = u.status();
      return out;
    }
    out.unordered = *u;
    return out;
  }
  Result<LogicalDigest> digest = logical_hash_object(std::move(object), options);
  if (!digest.is_ok()) {
    out.error = digest.status();
    return out;
  }
  out.digest = std::move(digest).value();
  return out;
}

void print_text(const std::string& path, const FileOutcome& r, bool columns) {
  if (r.unordered) {
    std::printf("%s  %s\n", unordered_digest_string(r.unordered->digest).c_str(),
                escape_name(path).c_str());
    std::fflush(stdout);
    return;
  }
  if (!r.digest) {
    print_error(r.error.message());
    return;
  }
  std::printf("%s  %s\n", r.digest->multihash().to_string().c_str(), escape_name(path).c_str());
  if (columns) {
    for (const auto& c : r.digest->columns) {
      std::printf("  %s  %s  %s\n", to_hex(c.digest).c_str(), c.type.c_str(),
                  escape_name(c.path).c_str());
    }
  }
  std::fflush(stdout);
}

nlohmann::json to_json(const std::string& path, const FileOutcome& r, bool columns) {
  nlohmann::json j;
  j["path"] = path;
  if (r.unordered) {
    j["unordered"] = unordered_digest_string(r.unordered->digest);
    j["rows"] = r.unordered->rows;
    j["format"] = r.format ? nlohmann::json(file_format_name(*r.format)) : nlohmann::json();
    return j;
  }
  if (!r.digest) {
    j["error"] = reason_of(r.error, path);
    return j;
  }
  j["logical"] = r.digest->multihash().to_string();
  j["rows"] = r.digest->num_rows;
  j["format"] = r.format ? nlohmann::json(file_format_name(*r.format)) : nlohmann::json();
  const std::vector<ColumnDigest> gaps = reference_gaps(r.digest->columns);
  j["reference_compatible"] = gaps.empty();
  if (!gaps.empty()) j["reference_gaps"] = reference_gaps_json(gaps);
  const std::vector<ColumnDigest> noted = hash_notes(r.digest->columns);
  if (!noted.empty()) j["hash_notes"] = hash_notes_json(noted);
  if (columns) {
    nlohmann::json cols = nlohmann::json::array();
    for (const auto& c : r.digest->columns) {
      cols.push_back({{"path", c.path}, {"type", c.type}, {"digest", to_hex(c.digest)}});
      if (!c.reference_gap.empty()) cols.back()["reference_gap"] = c.reference_gap;
      if (!c.hash_note.empty()) cols.back()["hash_note"] = c.hash_note;
    }
    j["columns"] = std::move(cols);
  }
  return j;
}

// `logical -c LIST...`: the lists `logical` writes ('<arrow0 multihash>  <path>'), checked
// like sha256sum checks its own. Files are checked --jobs at a time, each on --threads
// threads (default: one file per core, one thread each: lists usually name many files).
int run_logical_check(const LogicalOptions& opt) {
  LogicalFileOptions options;
  options.threads = opt.threads == 0 ? 1 : opt.threads;
  options.column_streams = opt.column_streams;
  const unsigned jobs =
      opt.jobs != 0 ? opt.jobs : std::max(1u, resolve_threads(0) / options.threads);
  CheckRun run{opt.files, opt.check, jobs, opt.json, true};
  CheckKind kind{HashCode::kArrow0Sha3_256, "logical arrow0-sha3-256", false,
                 [&](const std::string& path, ProgressDisplay&) -> Result<CheckedHash> {
                   FileOutcome r = hash_one(path, options, opt.store, /*unordered=*/false);
                   if (!r.digest) return r.error;
                   return CheckedHash{r.digest->multihash(), std::nullopt, r.digest->num_rows};
                 }};
  return run_check(run, kind);
}

// Says one outcome: a hash kamu cannot check on stderr (or refused when asked), a hash that
// depends on what the data does not show on stderr, then the result as text or into `files`
// (--json). Whether a hash was given.
bool report_outcome(const LogicalOptions& opt, const std::string& shown, FileOutcome& r,
                    nlohmann::json& files) {
  if (r.digest) {
    const std::vector<ColumnDigest> gaps = reference_gaps(r.digest->columns);
    if (!gaps.empty() && opt.require_reference) {
      r.error = Status::unsupported(reference_gap_message(shown, gaps, true));
      r.digest.reset();
    } else if (!gaps.empty()) {
      print_error(reference_gap_message(shown, gaps, false));
    }
    if (r.digest) {
      for (const auto& m : hash_note_messages(shown, hash_notes(r.digest->columns))) {
        print_error(m);
      }
    }
  }
  const bool ok = r.digest || r.unordered;
  if (opt.json) {
    if (!ok) print_error(r.error.message());
    files.push_back(to_json(shown, r, opt.columns));
  } else {
    print_text(shown, r, opt.columns);
  }
  return ok;
}

// --as-one: the files (a folder: its files, table_files_in_folder) read as one table, in the
// order given, one hash of all their records.
int run_logical_as_one(const LogicalOptions& opt, const LogicalFileOptions& options) {
  std::vector<std::string> paths;
  for (const auto& f : opt.files) {
    struct stat st {};
    if (!is_store_url(f) && ::stat(f.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      Result<std::vector<std::string>> listed = table_files_in_folder(f);
      if (!listed.is_ok()) {
        print_error("logical: " + listed.status().message());
        return kExitError;
      }
      paths.insert(paths.end(), listed->begin(), listed->end());
    } else {
      paths.push_back(f);
    }
  }
  std::string shown;
  for (const auto& f : opt.files) shown += (shown.empty() ? "" : " + ") + f;
  auto counter = std::make_shared<ReadCounter>();
  std::optional<ReadProgress> progress;
  progress.emplace(!opt.no_progress && ProgressDisplay::stderr_is_terminal(), "logical", counter);
  FileOutcome r;
  Result<Table> table = open_table(paths, opt.store);
  if (table.is_ok() && !table->objects.empty()) {
    Result<FileFormat> format = detect_file_format(*table->objects.front());
    if (format.is_ok()) r.format = *format;
  }
  if (!table.is_ok()) {
    r.error = table.status();
  } else if (opt.unordered) {
    Result<compare::UnorderedFileDigest> u =
        compare::unordered_digest(count_reads(*table, counter));
    if (u.is_ok())
      r.unordered = *u;
    else
      r.error = u.status();
  } else {
    Result<LogicalDigest> d = logical_hash_objects(count_reads(*table, counter).objects, options);
    if (d.is_ok())
      r.digest = *d;
    else
      r.error = d.status();
  }
  progress.reset();
  nlohmann::json files = nlohmann::json::array();
  const bool ok = report_outcome(opt, shown, r, files);
  if (opt.json) {
    nlohmann::json doc;
    if (!files.empty()) files[0]["as_one"] = paths;
    doc["files"] = std::move(files);
    print_json(std::move(doc), JsonDoc::kLogical);
  } else if (ok) {
    std::printf("  (%zu file%s read as one table, in this order:)\n", paths.size(),
                paths.size() == 1 ? "" : "s");
    for (const auto& p : paths) std::printf("    %s\n", escape_name(p).c_str());
    std::fflush(stdout);
  }
  return ok ? kExitOk : kExitError;
}

int run_logical(const LogicalOptions& opt) {
  if (opt.check.check && opt.unordered) {
    print_error("logical: --unordered does not check lists (they hold arrow0 hashes)");
    return kExitError;
  }
  if (opt.check.check) return run_logical_check(opt);
  if (opt.files.empty()) {
    print_error(
        "logical: FILE is required (Parquet or Arrow IPC files; see 'odf-hash logical --help')");
    return kExitError;
  }
  const ThreadPlan plan = plan_threads(opt);
  LogicalFileOptions options;
  options.threads = plan.threads;
  options.column_streams = opt.column_streams;
  if (opt.as_one) {
    if (std::find(opt.files.begin(), opt.files.end(), "-") != opt.files.end()) {
      print_error("logical: --as-one reads files and folders, not standard input (-)");
      return kExitError;
    }
    options.threads = resolve_threads(opt.threads);
    return run_logical_as_one(opt, options);
  }
  // "-": standard input, copied to a temporary file first (the readers seek).
  std::vector<std::string> paths = opt.files;
  std::unique_ptr<StdinSpool> spool;
  if (std::count(paths.begin(), paths.end(), "-") > 1) {
    print_error("logical: standard input (-) can be named once");
    return kExitError;
  }
  if (auto dash = std::find(paths.begin(), paths.end(), "-"); dash != paths.end()) {
    Result<uint64_t> limit = parse_byte_size(opt.stdin_limit);
    if (!limit.is_ok()) {
      print_error("logical: --stdin-limit: " + limit.status().message());
      return kExitError;
    }
    Result<std::unique_ptr<StdinSpool>> spooled = StdinSpool::create(*limit);
    if (!spooled.is_ok()) {
      print_error(spooled.status().message());
      return kExitError;
    }
    spool = std::move(spooled).value();
    *dash = spool->path();
  }
  bool failed = false;
  nlohmann::json files = nlohmann::json::array();
  // The bytes read, on a terminal (progress.h), erased before each result line.
  auto counter = std::make_shared<ReadCounter>();
  std::optional<ReadProgress> progress;
  const bool show = !opt.no_progress && ProgressDisplay::stderr_is_terminal();
  progress.emplace(show, "logical", counter);
  run_ordered<FileOutcome>(
      opt.files.size(), plan.jobs,
      [&](size_t i) { return hash_one(paths[i], options, opt.store, opt.unordered, counter); },
      [&](size_t i, FileOutcome& r) {
        if (spool != nullptr && paths[i] == spool->path() && !r.error.is_ok()) {
          // The spool's path means nothing to the user: standard input is "-".
          std::string m = r.error.message();
          for (size_t at; (at = m.find(spool->path())) != std::string::npos;) {
            m.replace(at, spool->path().size(), "-");
          }
          r.error = Status(r.error.code(), m);
        }
        progress.reset();  // its line erased; drawn again for the files still being read
        if (i + 1 < opt.files.size()) {
          progress.emplace(show, "logical", counter);
        }
        if (!report_outcome(opt, opt.files[i], r, files)) failed = true;
      });
  if (opt.json) {
    nlohmann::json doc;
    doc["files"] = std::move(files);
    print_json(std::move(doc), JsonDoc::kLogical);
  }
  return failed ? kExitError : kExitOk;
}

}  // namespace

Command add_logical_command(CLI::App& root) {
  auto opt = std::make_shared<LogicalOptions>();
  CLI::App* app = root.add_subcommand(
      "logical",
      "Print the logical hash (arrow0-sha3-256) of Parquet and Arrow IPC files, computed "
      "over their records as the reference implementation reads them");
  app->add_option("FILE", opt->files,
                  "Parquet, Arrow IPC file or Arrow IPC stream files; with --check, the check "
                  "lists ('-' or none = standard input)");
  add_check_flags(app, opt->check);
  add_reference_flag(app, opt->require_reference);
  app->add_flag("--columns", opt->columns,
                "Also print the digest of every leaf column (hex, Arrow format string, path)");
  app->add_flag("--json", opt->json, "Print one JSON document instead of text");
  app->add_flag("--no-progress", opt->no_progress,
                "Never show the progress line (the bytes read, shown on a terminal after a "
                "second)");
  app->add_flag("--as-one", opt->as_one,
                "Hash the FILEs as one table, their records one file after the other in the "
                "order given (arrow0 does not depend on how records are split into files): the "
                "slices of a dataset, or a folder of part files; a FOLDER stands for every "
                "file below it in path order (a hive-partitioned folder: the key=value parts "
                "of the paths are not columns; names starting with '.' or '_' are passed "
                "over). The files must share one schema");
  app->add_flag("--unordered", opt->unordered,
                "Not the ODF hash: an order-independent digest of the records "
                "(unordered-sha3-256, the same for any row or column order; "
                "docs/unordered-digest.md)");
  app->add_option("-j,--jobs", opt->jobs,
                  "Files hashed in parallel (default: one per core, at most one per file)")
      ->check(CLI::Range(1u, 1024u));
  app->add_option("-t,--threads", opt->threads,
                  "Threads hashing the columns of each file (default: the cores left per file: "
                  "every core for one file, 1 when there are more files than cores). The "
                  "hashes do not depend on --jobs or --threads")
      ->check(CLI::Range(1u, 1024u));
  using ColumnStreams = LogicalFileOptions::ColumnStreams;
  app->add_option("--column-streams", opt->column_streams,
                  "With --threads > 1, read a Parquet file's columns in groups, each by its own "
                  "reader on its own thread: 'auto' (default: for files with >= 2 top-level "
                  "columns and enough data), 'on' (whenever there are >= 2 columns), 'off' "
                  "(one reader). The hashes do not depend on it")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, ColumnStreams>{{"auto", ColumnStreams::kAuto},
                                               {"on", ColumnStreams::kOn},
                                               {"off", ColumnStreams::kOff}},
          CLI::ignore_case))
      ->type_name("auto|on|off");
  app->add_option("--stdin-limit", opt->stdin_limit,
                  "FILE '-' is standard input, copied to an unnamed temporary file ($TMPDIR) "
                  "first, since Parquet and Arrow IPC files are read at random offsets: at most "
                  "this many bytes (default 8G; K, M, G, T suffixes)")
      ->type_name("SIZE");
  add_store_flags(app, opt->store);
  app->footer(
      "Output: '<multihash>  FILE' per file, in argument order. A file that cannot be read or "
      "hashed is reported on stderr; the others are still hashed and the exit status is 2.\n"
      "With -c/--check, each FILE is a list of such lines (as this command writes them); "
      "prints '<path>: OK', 'FAILED' or 'FAILED open or read' per line, as sha256sum -c: exit "
      "1 when a hash did not match or a file could not be read.\n"
      "A remote file (URL) is read by range requests: only what the Parquet or IPC reader "
      "needs.\n\n" +
      std::string(store_help_footer()));
  return Command{app, [opt] { return run_logical(*opt); }};
}

}  // namespace odf_hash::cli
