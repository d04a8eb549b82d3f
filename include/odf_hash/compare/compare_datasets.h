// Comparing an original ODF dataset with a reproduced one (the same transformations run
// again elsewhere): their data slices paired by offset interval, each pair compared as
// compare.h compares two files (identical / equivalent / different, with where and why),
// and where the metadata chains themselves diverge.
//
// A comparison says nothing about data that was not checked against its own metadata: each
// side is verified as `verify` verifies it (SideCheck), and a side that fails makes the whole
// comparison "unverified" (DatasetVerdict): no slice of it reads as the same records.
//
// Thread safety: reentrant.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "odf_hash/compare/compare.h"
#include "odf_hash/core/status.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/logical/logical.h"
#include "odf_hash/odf/chain_diff.h"
#include "odf_hash/odf/odf_block.h"
#include "odf_hash/odf/verify.h"
#include "odf_hash/odf/verify_plan.h"

namespace odf_hash::compare {

// One data file of a dataset: its key ("data/f1620…") and the offsets it holds.
struct SliceFile {
  std::string file;
  odf::OffsetInterval interval;
  uint64_t size = 0;  // bytes, as the chain records it
  // The part of the file in this entry when not all of it: offsets window->start ..
  // window->end of `interval`, i.e. its rows (window->start - interval.start) ..
  // (window->end - interval.start) (a slice holds its offsets in row order). Set where the
  // other dataset holds only some of the file's offsets (a longer or later reproduction, a
  // gap), on the file cut there.
  std::optional<odf::OffsetInterval> window;
};

// One part of the offset line: offsets both datasets hold (the smallest run of consecutive
// slices of each side whose ends meet: the records split into files at other boundaries on
// each side, the original pulled after each ingest of its input, the reproduction once;
// cut at the end of the side that stops first, or before its gap, where the ends never
// meet), or offsets only one side holds. One whole file on each side: the slice pair of two
// datasets split alike.
struct SliceComparison {
  odf::OffsetInterval interval;  // the offsets of this entry (of the run, or of the one side)
  // In offset order; empty on the side lacking the interval. The first and last file of a
  // side may hold more offsets than `interval` (SliceFile::window says which part is here).
  std::vector<SliceFile> original_files;
  std::vector<SliceFile> reproduced_files;
  // Both sides have the interval and every file could be read: the runs compared as two
  // tables (compare() of two tables of the rows of `interval`; one whole file each, the
  // only case that can be identical). Rows are counted from the interval's
  // start; DifferingRow::original_file / reproduced_file index the lists above.
  std::optional<FileComparison> comparison;
  // The run could not be compared: a file could not be read, a file's schema is not the
  // run's first's (a schema change inside the run); or a slice of a malformed chain (an
  // interval that ends before it starts, or overlaps the side's previous one), listed alone:
  // the message.
  std::string error;
  // A side's chain is broken above the blocks that would hold these offsets
  // (SideCheck::unreached): whether that side holds them is not known, so the entry is
  // "unreached", never "only in" the other side. An entry neither side reached has no files.
  bool original_unreached = false;
  bool reproduced_unreached = false;
  // Both sides passed their verification (SideCheck::vouched): the comparison vouches for
  // `comparison`'s verdict. Otherwise a compared run is "unverified" whatever `comparison`
  // says (what the bytes read compared as, not vouched for).
  bool vouched = false;
};

// An entry's verdict as reports name it: "error" (also a run not compared yet),
// "unreached", "only-in-original", "only-in-reproduced", "unverified" (compared, not
// vouched for), else the comparison's ("identical", "equivalent", "different").
const char* slice_verdict_name(const SliceComparison& s);

// What a dataset comparison verified of one side, the way `verify` verifies a dataset
// (verify_plan.h), so that it vouches for nothing that was not checked against the side's own
// metadata:
//  - the chain, by plan_verify: refs/head, every block's bytes against its name, the links
//    and sequence numbers down to a Seed, the offsets, the link columns of linked objects;
//  - every data file the comparison reads, by check_file against what this side's chain
//    records: size, physical hash, and for a derivative dataset the logical fallback
//    (reproduced data may be encoded otherwise), as verify accepts it. The checks run on a
//    thread beside the comparison reading the same files.
// Files the comparison does not read are not checked (files_unchecked): the data of offsets
// only this side holds, checkpoints, linked objects.
struct SideCheck {
  std::optional<Multihash> head;         // refs/head, when it holds a multihash
  std::optional<odf::DatasetKind> kind;  // from the Seed, when reached
  bool chain_complete = false;           // the walk reached the seed
  // verify's problems (verify.h; problem_kind_name gives the kinds `verify --json` names):
  // the chain's and the layout's first, as plan_verify lists them, then those of the files
  // checked, in the order of `tasks`.
  std::vector<odf::Problem> problems;
  // The checks of the data files the comparison reads, each file once, in offset order (ids
  // 0, 1, ...: their positions; `file` is the SliceFile's key). pair_dataset_slices leaves
  // them to run (an engine runs a run's tasks beside its comparison: check_file of
  // verify_plan.h), compare_datasets runs them.
  std::vector<odf::FileTask> tasks;
  std::vector<odf::FileCheck> files;  // one per task checked, in task order
  uint64_t files_unchecked = 0;       // files the chain references that the comparison never reads
  // When the chain is broken (not complete): the offsets the blocks below the break hold,
  // which could not be read: from 0 to just before the first offset read, or to UINT64_MAX
  // when no block read tells. nullopt otherwise.
  std::optional<odf::OffsetInterval> unreached;

  // No problem, and every task checked.
  bool vouched() const noexcept { return problems.empty() && files.size() == tasks.size(); }
};

enum class DatasetVerdict {
  kSameRecords,  // both sides vouched for; every offset on both, every run identical/equivalent
  kDifferent,    // both sides vouched for; offsets one side only, a run different or an error
  kUnverified,   // a side failed its own verification: nothing is vouched for
};
const char* dataset_verdict_name(DatasetVerdict v);  // "same-records", "different", "unverified"

// The first block (from the seed) whose event differs between the chains.
struct ChainDivergence {
  uint64_t sequence_number = 0;
  std::string original;  // the event's kind ("SetTransform"), "" past the chain's end
  std::string reproduced;
};

struct DatasetComparison {
  std::string original;  // the datasets' locations
  std::string reproduced;
  uint64_t original_blocks = 0;
  uint64_t reproduced_blocks = 0;
  // Event kinds compared block by block from the seed; nullopt when the sequences are the
  // same.
  std::optional<ChainDivergence> divergence;
  // The events' contents compared field by field (chain_diff.h: which blocks are paired):
  // transform, inputs, schema, sources, consumed offsets. Neither these nor
  // the divergence change same_records: they say why records may differ, or that the
  // reproduction ran something else and still gave the same records.
  std::vector<odf::ChainDifference> chain_differences;
  std::vector<SliceComparison> slices;  // by interval start, then end
  // The time columns (the original's last SetVocab, else ODF's default names): ODF stamps
  // each record with the time it was added (system time), and a source without an event
  // time uses that time as the event time too, so a reproduction run at another time
  // differs there (differs_only_in).
  std::string system_time_column = "system_time";
  std::string event_time_column = "event_time";
  // Each side verified as `verify` verifies it (SideCheck).
  SideCheck original_check;
  SideCheck reproduced_check;
  DatasetVerdict verdict = DatasetVerdict::kUnverified;
  // verdict == kSameRecords: both sides vouched for, every offset on both sides, every run
  // verified (reproduction_verified of compare.h: identical, or equivalent with equal
  // records; false when any entry is one-sided, unreached or an error).
  bool same_records = false;
};

// Walks and checks both chains (plan_verify: problems found on the way, such as a missing
// block, end the walk there and leave the offsets below unreached; an unreadable refs/head
// is an error) and cuts the offset line into runs both sides hold and one-sided parts
// (SliceComparison): a DatasetComparison whose slices have no comparison yet and whose
// sides' tasks are not checked yet (so its verdict is kUnverified while any is left). For
// running the comparisons elsewhere (the Dask and Ray adapters: each run is
// compare() of the open_table of the two datasets' locations joined with the files' keys,
// with run_row_window of each side, and the tasks of its files not checked before run beside
// it, under a TaskPolicy).
Result<DatasetComparison> pair_dataset_slices(const std::string& original,
                                              const std::string& reproduced,
                                              const StoreOptions& store = {});

// The rows of a side's files (`files` of a SliceComparison, in offset order) that hold
// `interval`: skip the first file's offsets before it, keep as many rows as it has offsets.
// Whole (RowWindow::whole) when the files hold just `interval`, so that one whole file on
// each side is compared byte for byte first.
RowWindow run_row_window(const std::vector<SliceFile>& files, const odf::OffsetInterval& interval);

// Whether the records of a "different" comparison differ in some of `columns` only: the same
// schema (but for differences that do not change the hash: SchemaDifference::changes_hash)
// and row count, and every other column's digest equal (the same values, row by row).
// For a dataset's time columns (DatasetComparison::system_time_column, event_time_column)
// this is what a faithful reproduction run at another time gives.
bool differs_only_in(const FileComparison& c, const std::vector<std::string>& columns);

// What one entry of a dataset comparison came to: one side's offsets only, or a run both
// hold that is the same records (verified and vouched for), different in the time columns
// alone (differs_only_in), otherwise different, or not compared (an error, no comparison, a
// side not vouched for). What summarize counts and a report shows.
enum class RunOutcome { kOneSided, kSame, kOnlyTimeColumns, kDifferent, kNotCompared };
RunOutcome run_outcome(const DatasetComparison& d, const SliceComparison& s);

// What a dataset comparison came to, for its closing summary: the runs of slices both
// datasets hold, by outcome, and the offsets one side holds alone.
struct DatasetSummary {
  uint64_t runs = 0;                // runs of slices both hold: the sum of the four below
  uint64_t same = 0;                // verified (reproduction_verified) and vouched for
  uint64_t within_tolerance = 0;    // of `same`, verified by a tolerance (CompareOptions)
  uint64_t only_time_columns = 0;   // different in the time columns alone (differs_only_in)
  uint64_t different = 0;           // otherwise different
  uint64_t not_compared = 0;        // an error, not compared, or a side not vouched for
  uint64_t only_in_original = 0;    // offsets only the original holds (reached, no error)
  uint64_t only_in_reproduced = 0;  // offsets only the reproduction holds
};
DatasetSummary summarize(const DatasetComparison& d);

// pair_dataset_slices, then every run compared (compare() of two tables) while its files are
// checked on a thread beside (check_file of the side's tasks); the verdict is kUnverified when
// a side has a problem. kCancelled once *store.cancel is set.
Result<DatasetComparison> compare_datasets(const std::string& original,
                                           const std::string& reproduced,
                                           const LogicalHashOptions& logical = {},
                                           const StoreOptions& store = {},
                                           const CompareOptions& options = {});

}  // namespace odf_hash::compare
