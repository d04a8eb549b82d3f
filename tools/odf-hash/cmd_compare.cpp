// odf-hash compare ORIGINAL REPRODUCED: verification of a reproduced data file as the ODF
// specification describes it: physical hashes first; if they differ, logical hashes.
// Two verdicts (compare.h): what ODF checks (identical, equivalent: the same arrow0 hash,
// different) and what the records are (equal, the same in another order, different).
// Exit 0 only for identical files, or equivalent ones whose records were compared equal;
// 1 otherwise, naming what differs. Two datasets: each side verified as `verify` does,
// unverified (exit 3) when one fails (compare_sides.h).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <thread>

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "compare_sides.h"
#include "compare_text.h"
#include "markdown.h"
#include "odf_hash/compare/compare.h"
#include "odf_hash/compare/compare_datasets.h"
#include "odf_hash/compare/compare_json.h"
#include "odf_hash/core/text.h"
#include "odf_hash/io/read_counter.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/io/table.h"
#include "odf_hash/logical/logical.h"
#include "odf_hash/logical/record_digest.h"
#include "odf_hash/remote/open_store.h"
#include "odf_hash/remote/open_table.h"
#include "output.h"
#include "progress.h"
#include "store_flags.h"

namespace odf_hash::cli {

namespace {

struct CompareArgs {
  std::string original;
  std::string reproduced;
  bool json = false;
  FormatChoice format;  // --format (markdown: markdown.h)
  size_t show_rows = 5;
  bool ignore_order = false;
  std::vector<std::string> key;             // --key
  std::vector<std::string> ignore_columns;  // --ignore-columns
  bool ignore_time_columns = false;         // --ignore-time-columns (files: the ODF defaults)
  std::optional<double> rtol;               // --rtol
  std::optional<double> atol;               // --atol
  bool no_progress = false;                 // --no-progress
  bool datasets = false;  // ODF datasets (folders are taken as datasets without it)
  StoreOptions store;
};

bool is_directory(const std::string& path) {
  struct stat st {};
  return !is_store_url(path) && ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string chain_value(const std::string& v) {
  constexpr size_t kMax = 240;
  std::string e = escape_text(v);
  if (e.size() <= kMax) return e;
  size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(e[cut]) & 0xC0) == 0x80) --cut;  // UTF-8
  return e.substr(0, cut) + "... (" + std::to_string(v.size()) + " bytes)";
}

// The chain differences of a dataset comparison, after its "chains" line.
void print_chain_differences(const std::vector<odf::ChainDifference>& diffs) {
  size_t identity = 0;
  for (const auto& c : diffs) identity += c.identity_only ? 1 : 0;
  if (diffs.empty()) {
    std::printf("contents    the same transform, inputs, schema and sources\n");
    return;
  }
  std::printf("contents    %zu difference%s", diffs.size(), diffs.size() == 1 ? "" : "s");
  if (identity > 0) std::printf(" (%zu only in input dataset ids)", identity);
  std::printf("\n");
  for (const auto& c : diffs) {
    std::string block = std::to_string(c.sequence_number);
    if (c.reproduced_sequence_number != c.sequence_number) {
      block += " (reproduced " + std::to_string(c.reproduced_sequence_number) + ")";
    }
    std::printf("  block %s %s%s\n", block.c_str(), escape_text(c.field).c_str(),
                c.identity_only ? "  (input identity only: ids differ unless pulled from the "
                                  "same origin)"
                                : "");
    std::printf("    original    %s\n", chain_value(c.original).c_str());
    std::printf("    reproduced  %s\n", chain_value(c.reproduced).c_str());
  }
}

std::string interval_text(uint64_t start, uint64_t end) {
  return "[" + std::to_string(start) + ", " + std::to_string(end) + "]";
}

// A file's part in an entry: null when all of it, else its offsets and rows.
nlohmann::json slice_files_json(const std::vector<compare::SliceFile>& files) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& f : files) {
    nlohmann::json window;
    if (f.window) {
      window = {{"start", f.window->start},
                {"end", f.window->end},
                {"first_row", f.window->start - f.interval.start},
                {"last_row", f.window->end - f.interval.start}};
    }
    // "start"/"end" as in Python's SliceFile (one vocabulary), the offsets the file holds.
    j.push_back({{"file", f.file},
                 {"start", f.interval.start},
                 {"end", f.interval.end},
                 {"window", std::move(window)}});
  }
  return j;
}

// "data/f… [0, 199]", and for a part of the file " rows 0-149 (offsets 0-149)".
// Numbered when there are several ([1] a.parquet [0, 99], [2] ...): the row lines below name
// a file by its number.
std::string slice_file_list(const std::vector<compare::SliceFile>& files) {
  std::string out;
  for (size_t i = 0; i < files.size(); ++i) {
    const compare::SliceFile& f = files[i];
    out += (out.empty() ? "" : ", ") +
           (files.size() > 1 ? "[" + std::to_string(i + 1) + "] " : std::string()) +
           escape_text(f.file) + " " + interval_text(f.interval.start, f.interval.end);
    if (f.window) {
      out += " rows " + std::to_string(f.window->start - f.interval.start) + "-" +
             std::to_string(f.window->end - f.interval.start) + " (offsets " +
             std::to_string(f.window->start) + "-" + std::to_string(f.window->end) + ")";
    }
  }
  return out;
}

bool cut_into_parts(const std::vector<compare::SliceFile>& files) {
  return std::any_of(files.begin(), files.end(),
                     [](const compare::SliceFile& f) { return f.window.has_value(); });
}

std::vector<std::string> time_columns(const compare::DatasetComparison& d) {
  return {d.system_time_column, d.event_time_column};
}

void print_datasets_json(const compare::DatasetComparison& d) {
  const std::vector<std::string> time = time_columns(d);
  nlohmann::json slices = nlohmann::json::array();
  for (const auto& s : d.slices) {
    nlohmann::json js{{"start", s.interval.start},
                      {"end", s.interval.end},
                      {"original_files", slice_files_json(s.original_files)},
                      {"reproduced_files", slice_files_json(s.reproduced_files)},
                      {"verdict", compare::slice_verdict_name(s)}};
    if (s.comparison) {
      nlohmann::json c = comparison_json(*s.comparison);
      // Which file of the run holds each differing row (rows count from the run's start).
      if (s.comparison->rows && c.contains("differences")) {
        const auto& cols = s.comparison->rows->columns;
        for (size_t k = 0; k < cols.size(); ++k) {
          for (size_t r = 0; r < cols[k].first.size(); ++r) {
            const compare::DifferingRow& row = cols[k].first[r];
            nlohmann::json& jr = c["differences"][k]["rows"][r];
            jr["original_file"] = s.original_files.at(row.original_file).file;
            jr["reproduced_file"] = s.reproduced_files.at(row.reproduced_file).file;
          }
        }
      }
      js["comparison"] = std::move(c);
    }
    if (!s.error.empty()) js["error"] = s.error;
    js["only_time_columns_differ"] = s.comparison && compare::differs_only_in(*s.comparison, time);
    slices.push_back(std::move(js));
  }
  nlohmann::json j{{"original", {{"path", d.original}, {"blocks", d.original_blocks}}},
                   {"reproduced", {{"path", d.reproduced}, {"blocks", d.reproduced_blocks}}},
                   {"slices", slices},
                   {"system_time_column", d.system_time_column},
                   {"event_time_column", d.event_time_column},
                   {"verdict", d.same_records ? "same-records" : "different"}};
  j["chain_divergence"] = d.divergence
                              ? nlohmann::json{{"sequence_number", d.divergence->sequence_number},
                                               {"original", d.divergence->original},
                                               {"reproduced", d.divergence->reproduced}}
                              : nlohmann::json();
  j["chain_differences"] =
      nlohmann::json::parse(compare::chain_differences_json(d.chain_differences));
  const compare::DatasetSummary sum = compare::summarize(d);
  j["summary"] = {{"runs", sum.runs},
                  {"same", sum.same},
                  {"within_tolerance", sum.within_tolerance},
                  {"only_time_columns", sum.only_time_columns},
                  {"different", sum.different},
                  {"not_compared", sum.not_compared},
                  {"offsets_only_in_original", sum.only_in_original},
                  {"offsets_only_in_reproduced", sum.only_in_reproduced}};
  add_verification_json(d, j);
  print_json(std::move(j), JsonDoc::kCompareDatasets);
}

// One entry of the text report: its offsets and verdict, its files when they are a run or
// one side's, why it is unverified, and the differences.
void print_slice_text(const compare::DatasetComparison& d, const compare::SliceComparison& s) {
  const bool one_sided = s.original_files.empty() || s.reproduced_files.empty();
  const bool windows = cut_into_parts(s.original_files) || cut_into_parts(s.reproduced_files);
  const bool run = s.original_files.size() > 1 || s.reproduced_files.size() > 1 || windows;
  std::string counts;
  if (!one_sided && windows) {
    counts = " (the offsets both hold: parts of their slices, compared record by record)";
  } else if (!one_sided && run) {
    counts = " (slices split differently: " + std::to_string(s.original_files.size()) +
             " original files, " + std::to_string(s.reproduced_files.size()) +
             " reproduced, compared record by record)";
  }
  const bool verified = s.comparison && compare::reproduction_verified(*s.comparison);
  // A run at another time: one line (JSON: only_time_columns_differ), counted apart by the
  // summary (compare::summarize).
  const bool only_time = compare::run_outcome(d, s) == compare::RunOutcome::kOnlyTimeColumns;
  std::string only_time_text;
  if (only_time) {
    for (const auto& c : s.comparison->differing_columns) {
      only_time_text += (only_time_text.empty() ? "" : ", ") + escape_text(c);
    }
    only_time_text = ": only the time columns differ (" + only_time_text +
                     "); every other column holds the same values, row by row";
  }
  std::printf("slice %-20s %s%s%s\n", interval_text(s.interval.start, s.interval.end).c_str(),
              compare::slice_verdict_name(s), only_time_text.c_str(), counts.c_str());
  if (run || one_sided) {
    if (!s.original_files.empty()) {
      std::printf("  original    %s\n", slice_file_list(s.original_files).c_str());
    }
    if (!s.reproduced_files.empty()) {
      std::printf("  reproduced  %s\n", slice_file_list(s.reproduced_files).c_str());
    }
  }
  if (!s.error.empty()) std::printf("  %s\n", escape_text(s.error).c_str());
  const std::string note = slice_note(d, s);
  if (!note.empty()) std::printf("%s\n", note.c_str());
  // A run verified by a tolerance: the tolerance's verdict (arrow0 differs there).
  if (s.comparison && (!verified || s.comparison->tolerance) && !only_time) {
    print_verdict(*s.comparison, RunFiles{&s.original_files, &s.reproduced_files});
  }
}

// The closing summary: what the runs both hold came to, and why a run at another time
// differs.
void print_summary(const compare::DatasetSummary& t) {
  const uint64_t runs = t.runs;
  if (runs == 0) return;
  std::string parts;
  const auto add = [&](uint64_t n, const char* what) {
    if (n > 0) parts += (parts.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  };
  add(t.same, t.within_tolerance == 0 ? "the same records"
                                      : ("the same records (" + std::to_string(t.within_tolerance) +
                                         " of them within the tolerance)")
                                            .c_str());
  add(t.only_time_columns, "different only in the time columns");
  add(t.different, "different");
  add(t.not_compared, "not compared or not vouched for");
  std::printf("summary     %llu run%s of slices both hold: %s\n",
              static_cast<unsigned long long>(runs), runs == 1 ? "" : "s", parts.c_str());
  if (t.only_time_columns > 0) {
    std::printf(
        "            (ODF stamps each record with the time it was added, and a source without "
        "an event time uses that time: a run at another time differs there alone; "
        "--ignore-time-columns compares the rest)\n");
  }
}

void print_datasets_text(const compare::DatasetComparison& d) {
  std::printf("original    %s (%llu blocks)\n", escape_text(d.original).c_str(),
              static_cast<unsigned long long>(d.original_blocks));
  print_side_check(d.original_check);
  std::printf("reproduced  %s (%llu blocks)\n", escape_text(d.reproduced).c_str(),
              static_cast<unsigned long long>(d.reproduced_blocks));
  print_side_check(d.reproduced_check);
  if (d.divergence) {
    std::printf("chains      diverge at block %llu: %s vs %s\n",
                static_cast<unsigned long long>(d.divergence->sequence_number),
                d.divergence->original.empty() ? "(end)" : d.divergence->original.c_str(),
                d.divergence->reproduced.empty() ? "(end)" : d.divergence->reproduced.c_str());
  } else {
    std::printf("chains      the same events, block by block\n");
  }
  print_chain_differences(d.chain_differences);
  for (const auto& s : d.slices) print_slice_text(d, s);
  const compare::DatasetSummary totals = compare::summarize(d);
  if (totals.only_in_original > 0 || totals.only_in_reproduced > 0) {
    std::printf(
        "one side    %llu offsets only in the original, %llu only in the reproduction; "
        "the offsets both hold: %s\n",
        static_cast<unsigned long long>(totals.only_in_original),
        static_cast<unsigned long long>(totals.only_in_reproduced),
        totals.runs == 0                                    ? "none"
        : d.verdict == compare::DatasetVerdict::kUnverified ? "not vouched for"
        : totals.same == totals.runs                        ? "the same records"
                                                            : "different");
  }
  print_summary(totals);
  print_dataset_verdict(d);
}

// compare ORIGINAL_DATASET REPRODUCED_DATASET: the offsets both datasets hold grouped into
// runs of slices (one file a side when the two split alike; parts of files where the slices
// never end together), each compared as two tables; the offsets one side holds listed.
int run_datasets(const CompareArgs& args, const LogicalHashOptions& logical,
                 const compare::CompareOptions& compare) {
  Result<compare::DatasetComparison> result =
      compare::compare_datasets(args.original, args.reproduced, logical, args.store, compare);
  if (!result.is_ok()) {
    std::fprintf(stderr, "odf-hash compare: %s\n", escape_text(result.status().message()).c_str());
    return kExitError;
  }
  if (args.json) {
    print_datasets_json(*result);
  } else {
    print_datasets_text(*result);
  }
  return dataset_exit_code(*result);
}

// `verb(original, reproduced)` on ORIGINAL and REPRODUCED opened as tables, their bytes read
// counted and shown on a terminal as `label` (progress.h: compare reads them once or more).
template <typename Verb>
auto on_two_tables(const CompareArgs& args, const char* label, Verb&& verb)
    -> decltype(verb(Table{}, Table{})) {
  ODF_HASH_ASSIGN_OR_RETURN(Table original, open_table(args.original, args.store));
  ODF_HASH_ASSIGN_OR_RETURN(Table reproduced, open_table(args.reproduced, args.store));
  auto counter = std::make_shared<ReadCounter>();
  ReadProgress progress(!args.no_progress && ProgressDisplay::stderr_is_terminal(), label, counter);
  return verb(count_reads(original, counter), count_reads(reproduced, counter));
}

// --ignore-order: the same multiset of records? (unordered.h; not the ODF hash)
int run_unordered(const CompareArgs& args) {
  compare::UnorderedOptions options;
  options.max_examples = args.show_rows;
  Result<compare::UnorderedComparison> result = on_two_tables(
      args, "compare --ignore-order",
      [&](const Table& a, const Table& b) { return compare::compare_unordered(a, b, options); });
  if (!result.is_ok()) {
    std::fprintf(stderr, "odf-hash compare: %s\n", escape_text(result.status().message()).c_str());
    return kExitError;
  }
  const compare::UnorderedComparison& c = *result;
  if (args.json) {
    print_json(nlohmann::json::parse(compare::unordered_comparison_json(c)),
               JsonDoc::kCompareUnordered);
  } else {
    print_unordered_side("original", c.original);
    print_unordered_side("reproduced", c.reproduced);
    std::printf("verdict     %s (row order ignored; not the ODF hash)\n",
                c.same_records  ? "same records"
                : c.same_values ? "different schemas, the same values in every record"
                                : "different records");
    for (const auto& d : c.schema_differences) {
      std::printf("schema      %s: %s\n", escape_text(d.field).c_str(),
                  escape_text(schema_difference_text(d)).c_str());
    }
    if (!c.same_records && !c.same_values) {
      if (c.original.digest.rows != c.reproduced.digest.rows) {
        std::printf("rows        original %llu, reproduced %llu\n",
                    static_cast<unsigned long long>(c.original.digest.rows),
                    static_cast<unsigned long long>(c.reproduced.digest.rows));
      }
      print_only("only in original", c.original);
      print_only("only in reproduced", c.reproduced);
      if (c.original.only_here == 0 && c.reproduced.only_here == 0) {
        // The sums differ and every record was matched: two records' digests share their
        // first 11 bytes (unordered.h), which the partitions compare.
        std::printf(
            "records     the digests' sums differ, but no record was found on one side "
            "alone (two records share the first 88 bits of their digests)\n");
      }
    }
  }
  return c.same_records ? kExitOk : kExitMismatch;
}

// --key: rows matched by key, in any order (keyed.h; not the ODF hash)
int run_keyed(const CompareArgs& args) {
  compare::KeyedOptions options;
  options.key = args.key;
  options.ignore = args.ignore_columns;
  options.ignore_time_columns = args.ignore_time_columns;
  options.max_examples = args.show_rows;
  Result<compare::KeyedComparison> result = on_two_tables(
      args, "compare --key",
      [&](const Table& a, const Table& b) { return compare::compare_keyed(a, b, options); });
  if (!result.is_ok()) {
    std::fprintf(stderr, "odf-hash compare: %s\n", escape_text(result.status().message()).c_str());
    return kExitError;
  }
  if (args.json) {
    print_json(nlohmann::json::parse(compare::keyed_comparison_json(*result)),
               JsonDoc::kCompareKeyed);
  } else {
    print_keyed(*result);
  }
  return result->same_records ? kExitOk : kExitMismatch;
}

int run_compare(const CompareArgs& args) {
  const bool datasets =
      args.datasets || (is_directory(args.original) && is_directory(args.reproduced));
  if (args.ignore_order && datasets) {
    std::fprintf(stderr,
                 "odf-hash compare: --ignore-order compares two data files, not datasets\n");
    return kExitError;
  }
  if (args.ignore_order && (!args.ignore_columns.empty() || args.ignore_time_columns)) {
    std::fprintf(stderr,
                 "odf-hash compare: --ignore-order compares whole records; --ignore-columns and "
                 "--ignore-time-columns do not apply to it\n");
    return kExitError;
  }
  if (args.ignore_order && !args.key.empty()) {
    std::fprintf(stderr,
                 "odf-hash compare: --key already ignores the row order; leave out "
                 "--ignore-order\n");
    return kExitError;
  }
  if (args.ignore_order && (args.rtol || args.atol)) {
    std::fprintf(stderr,
                 "odf-hash compare: --ignore-order compares whole records; --rtol and --atol "
                 "do not apply to it\n");
    return kExitError;
  }
  if (args.ignore_order) return run_unordered(args);
  if (!args.key.empty()) {
    const char* refused = datasets                   ? "compares two data files, not datasets"
                          : (args.rtol || args.atol) ? "compares values exactly; --rtol and "
                                                       "--atol do not apply to it"
                                                     : nullptr;
    if (refused != nullptr) {
      std::fprintf(stderr, "odf-hash compare: --key %s\n", refused);
      return kExitError;
    }
    return run_keyed(args);
  }
  // Two files side by side, each with half of the cores for its columns.
  LogicalHashOptions options;
  options.threads = std::max(1u, std::thread::hardware_concurrency() / 2);
  compare::CompareOptions compare;
  compare.locate_rows = args.show_rows > 0;
  compare.rows.max_rows = args.show_rows;
  compare.ignore_columns = args.ignore_columns;
  compare.ignore_time_columns = args.ignore_time_columns;
  if (args.rtol || args.atol) {
    compare.tolerance = compare::Tolerance{args.rtol.value_or(0), args.atol.value_or(0)};
  }
  if (datasets) return run_datasets(args, options, compare);
  Result<compare::FileComparison> result = on_two_tables(
      args, "compare",
      [&](const Table& a, const Table& b) { return compare::compare(a, b, options, compare); });
  if (!result.is_ok()) {
    std::fprintf(stderr, "odf-hash compare: %s\n", escape_text(result.status().message()).c_str());
    return kExitError;
  }
  const compare::FileComparison& c = *result;
  if (args.json) {
    print_json(comparison_json(c), JsonDoc::kCompareFiles);
  } else {
    print_side("original", c.original);
    print_side("reproduced", c.reproduced);
    print_verdict(c);
  }
  return compare::reproduction_verified(c) ? kExitOk : kExitMismatch;
}

}  // namespace

Command add_compare_command(CLI::App& root) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* app = root.add_subcommand(
      "compare",
      "Compare a reproduced data file with the original: physical hashes, then logical "
      "(arrow0). Two verdicts: what ODF checks (identical / equivalent: the same arrow0 hash / "
      "different) and what the records are, compared value by value (equal / the same in "
      "another order / different: arrow0 has blind spots, e.g. it does not hash the row "
      "count). Exit 0 only for identical files or equivalent ones whose records are equal; "
      "1 otherwise, with the differing rows and why. Two ODF datasets (folders, or "
      "--datasets): slice by slice, each side verified first (exit 3 when one fails: nothing "
      "is vouched for).");
  app->add_option("ORIGINAL", args->original, "The original data file (or dataset)")->required();
  app->add_option("REPRODUCED", args->reproduced, "The reproduced data file (or dataset)")
      ->required();
  app->add_flag("--json", args->json, "Machine-readable output");
  add_format_option(app, args->format,
                    "a summary for a pull request, a ticket or a CI job summary, the verdict "
                    "first (tables of the sides and of the first differences)");
  app->add_option("--rows", args->show_rows,
                  "For different files, or equivalent ones whose records differ: differing rows "
                  "shown per column (default 5; 0: do not look for them, which saves a second "
                  "read of the differing columns)")
      ->check(CLI::NonNegativeNumber);
  app->add_flag("--datasets", args->datasets,
                "ORIGINAL and REPRODUCED are ODF datasets (implied for two folders; needed for "
                "URLs): their data slices paired by offset interval (slices split at other "
                "offsets on each side: the smallest runs ending at one offset on both, read as "
                "one table each; where they never end together, e.g. a reproduction with more "
                "records, the offsets both hold, as parts of files), each compared record by "
                "record; the offsets only one side holds are listed; and where the chains' "
                "events diverge. Each side is verified as `verify` verifies it (its chain, "
                "and every data file read against the hash its own chain records, checked "
                "while it is read); its problems are reported in verify's terms. Exit 0 when "
                "both sides verify and every offset is on both sides and identical or "
                "equivalent with equal records, 1 different, 3 unverified: a side failed its "
                "own verification (or its chain is broken: the offsets below are unreached), "
                "so nothing is vouched for");
  app->add_flag("--ignore-order", args->ignore_order,
                "Not the ODF hash: whether the two files hold the same multiset of records in "
                "any row order (and column order), with the records only one side has (their "
                "rows; --rows examples per side), or the schemas' differences when every "
                "record's values match. Exit 0 same records, 1 different");
  app->add_option("--key", args->key,
                  "Not the ODF hash: rows matched by the values of these top-level columns "
                  "(comma-separated, or repeated), in any row order, as data-diff tools do: "
                  "the keys only one side holds, the keys several rows hold, and the matched "
                  "rows whose other columns differ, column by column with both values (--rows "
                  "examples of each). Bounded memory (spills to $TMPDIR). Exit 0 when every "
                  "key is on both sides with the same values, 1 otherwise")
      ->delimiter(',');
  app->add_option("--ignore-columns", args->ignore_columns,
                  "Top-level columns left out when the records are compared (comma-separated, "
                  "or repeated): a reproduction whose other columns hold the same records, in "
                  "order, exits 0, the verdict still saying that arrow0 (which covers every "
                  "column) differs")
      ->delimiter(',');
  app->add_flag("--ignore-time-columns", args->ignore_time_columns,
                "Leave out the time columns ODF stamps, which differ in a reproduction run at "
                "another time: a dataset's SetVocab's system and event time columns, two "
                "files' system_time and event_time");
  app->add_option("--rtol", args->rtol,
                  "Relative tolerance for floating-point columns (a recomputation through "
                  "another engine, or a sum in another order): when the records differ, they "
                  "are compared again in order, float16/32/64 columns value by value with "
                  "|reproduced - original| <= atol + rtol * |original| (numpy.isclose), every "
                  "other column exactly. Exit 0 when every value is within (\"equal within "
                  "tolerance\", with the largest deviation and where); the arrow0 verdict is "
                  "still reported (it differs). Default 0")
      ->check(CLI::NonNegativeNumber);
  app->add_option("--atol", args->atol,
                  "Absolute tolerance for floating-point columns (see --rtol). Default 0")
      ->check(CLI::NonNegativeNumber);
  app->add_flag("--no-progress", args->no_progress,
                "Never show the progress line (the bytes read, shown on a terminal after a "
                "second)");
  add_store_flags(app, args->store);
  app->footer(store_help_footer());
  return Command{app, [args] {
                   apply_format(args->format, args->json, compare_markdown);
                   return run_compare(*args);
                 }};
}

}  // namespace odf_hash::cli
