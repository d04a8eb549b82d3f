// The compare functions of odf_hash._odf_hash (odf_hash/_compare.py builds its dataclasses
// from the dicts they return): two files, two datasets, and records in any order.
#include <Python.h>
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "common.h"
#include "interruptible.h"
#include "odf_hash/compare/compare.h"
#include "odf_hash/compare/compare_datasets.h"
#include "odf_hash/compare/compare_json.h"
#include "odf_hash/compare/unordered.h"
#include "odf_hash/io/read_counter.h"
#include "odf_hash/io/row_window.h"
#include "odf_hash/io/table.h"
#include "odf_hash/logical/record_digest.h"
#include "odf_hash/odf/verify_plan_json.h"
#include "odf_hash/remote/open_table.h"
#include "os_string.h"

namespace odf_hash_py {

using namespace nb::literals;

namespace {

nb::dict compared_file(const odf_hash::compare::ComparedFile& f) {
  nb::dict d;
  d["path"] = f.path;
  d["physical"] = f.physical ? nb::object(nb::str(f.physical->to_string().c_str())) : nb::none();
  d["size"] = f.size;
  if (f.logical) {
    d["logical"] = f.logical->multihash().to_string();
    d["rows"] = f.logical->num_rows;
  } else {
    d["logical"] = nb::none();
    d["rows"] = nb::none();
  }
  return d;
}

// A FileComparison as the dict odf_hash._compare builds its dataclasses from.
// [(column, differing_rows, hidden_segments,
//   [(row, offset, original, reproduced, original_file, reproduced_file)],
//   null_on_one_side)]
nb::list row_diff_list(const odf_hash::compare::RowDiff& rows) {
  nb::list diffs;
  for (const auto& col : rows.columns) {
    nb::list shown;
    for (const auto& row : col.first) {
      shown.append(nb::make_tuple(row.row, row.offset ? nb::cast(*row.offset) : nb::none(),
                                  row.original, row.reproduced, row.original_file,
                                  row.reproduced_file));
    }
    diffs.append(nb::make_tuple(col.column, col.differing_rows, col.hidden_segments, shown,
                                col.null_on_one_side));
  }
  return diffs;
}

// (rtol, atol), or None: CompareOptions::tolerance.
using ToleranceTuple = std::optional<std::tuple<double, double>>;

std::optional<odf_hash::compare::Tolerance> tolerance_of(const ToleranceTuple& t) {
  if (!t) return std::nullopt;
  return odf_hash::compare::Tolerance{std::get<0>(*t), std::get<1>(*t)};
}

// FileComparison::tolerance as a dict (odf_hash._compare.ToleranceCheck).
nb::dict tolerance_dict(const odf_hash::compare::ToleranceCheck& t) {
  nb::dict d;
  d["rtol"] = t.tolerance.rtol;
  d["atol"] = t.tolerance.atol;
  d["within"] = t.within;
  nb::list deviations;
  for (const auto& x : t.deviations) {
    deviations.append(nb::make_tuple(x.column, x.differing_rows, x.outside_rows, x.max_deviation,
                                     x.at.row, x.at.offset ? nb::cast(*x.at.offset) : nb::none(),
                                     x.at.original, x.at.reproduced));
  }
  d["deviations"] = deviations;
  d["original_rows"] = t.rows.original_rows;
  d["reproduced_rows"] = t.rows.reproduced_rows;
  d["differing_records"] = t.rows.differing_records;
  d["differences"] = row_diff_list(t.rows);
  d["error"] = t.error;
  return d;
}

nb::dict comparison_dict(const odf_hash::compare::FileComparison& c) {
  nb::dict d;
  d["verdict"] = odf_hash::compare::compare_verdict_name(c.verdict);
  d["original"] = compared_file(c.original);
  d["reproduced"] = compared_file(c.reproduced);
  nb::list cols;
  for (const auto& name : c.differing_columns) cols.append(name);
  d["differing_columns"] = cols;
  d["differences"] = c.rows ? row_diff_list(*c.rows) : nb::list();
  d["rows_located"] = c.rows.has_value();
  nb::list schema;
  for (const auto& x : c.schema_differences) {
    schema.append(nb::make_tuple(x.field, odf_hash::schema_difference_kind_name(x.kind), x.original,
                                 x.reproduced, x.encoding_only,
                                 x.changes_hash ? nb::cast(*x.changes_hash) : nb::none()));
  }
  d["schema_differences"] = schema;
  nb::list casts;
  for (const auto& k : c.casts) {
    casts.append(nb::make_tuple(k.field, k.cast, k.reproduced_cast ? "reproduced" : "original",
                                k.from, k.to, k.values_equal, k.changes_hash, k.error,
                                k.rows ? row_diff_list(*k.rows) : nb::list()));
  }
  d["casts"] = casts;
  d["records"] = odf_hash::compare::records_name(c.records);
  d["verified"] = odf_hash::compare::reproduction_verified(c);
  nb::list causes;
  for (const auto& k : c.causes) causes.append(nb::make_tuple(k.kind, k.column, k.text));
  d["causes"] = causes;
  // The run of rows one side alone has (compare.h's RowBlock), or None.
  if (c.row_block) {
    const auto& b = *c.row_block;
    nb::list first;
    for (const auto& e : b.first) {
      nb::dict r;
      r["row"] = e.row;
      r["offset"] = e.offset ? nb::cast(*e.offset) : nb::none();
      r["values"] = e.values;
      first.append(r);
    }
    nb::dict block;
    block["side"] = b.in_original ? "original" : "reproduced";
    block["row"] = b.row;
    block["rows"] = b.rows;
    block["at_end"] = b.at_end;
    block["first"] = first;
    d["row_block"] = block;
  } else {
    d["row_block"] = nb::none();
  }
  nb::list ignored;
  for (const auto& name : c.ignored_columns) ignored.append(name);
  d["ignored_columns"] = ignored;
  d["tolerance"] = c.tolerance ? nb::object(tolerance_dict(*c.tolerance)) : nb::none();
  return d;
}

// compare::compare of the tables of two lists of paths or URLs (open_table), or windows of
// their rows; the bytes read counted in `counter` when it is set (a progress callback).
odf_hash::Result<odf_hash::compare::FileComparison> compare_tables(
    const std::vector<std::string>& a, const std::vector<std::string>& b,
    const odf_hash::LogicalHashOptions& logical, const odf_hash::StoreOptions& store,
    const odf_hash::compare::CompareOptions& compare, odf_hash::RowWindow wa = {},
    odf_hash::RowWindow wb = {}, const std::shared_ptr<odf_hash::ReadCounter>& counter = nullptr,
    std::tuple<bool, bool> records_only = {false, false}) {
  ODF_HASH_ASSIGN_OR_RETURN(odf_hash::Table original, odf_hash::open_table(a, store, wa));
  ODF_HASH_ASSIGN_OR_RETURN(odf_hash::Table reproduced, odf_hash::open_table(b, store, wb));
  original.records_only = std::get<0>(records_only);
  reproduced.records_only = std::get<1>(records_only);
  return odf_hash::compare::compare(odf_hash::count_reads(std::move(original), counter),
                                    odf_hash::count_reads(std::move(reproduced), counter), logical,
                                    compare);
}

nb::dict compare_files(const OsString& a_arg, const OsString& b_arg, unsigned threads, size_t rows,
                       const StoreTuple& store, const std::vector<std::string>& ignore_columns,
                       const ToleranceTuple& tolerance, const nb::object& progress,
                       std::tuple<bool, bool> records_only) {
  const std::string& a = a_arg.value;
  const std::string& b = b_arg.value;
  odf_hash::compare::CompareOptions compare;
  compare.locate_rows = rows > 0;
  compare.rows.max_rows = rows;
  compare.ignore_columns = ignore_columns;
  compare.tolerance = tolerance_of(tolerance);
  odf_hash::CancelFlag cancel{false};
  auto counter = std::make_shared<odf_hash::ReadCounter>();
  auto r = run_interruptible(
      cancel,
      [&] {
        return compare_tables({a}, {b}, options_for(threads, &cancel), store_for(store, cancel),
                              compare, {}, {}, counter, records_only);
      },
      progress_tick(progress, counter));
  return comparison_dict(value_or_raise(std::move(r)));
}

// (skip, limit) rows of a table, limit None for every row to the end (row_window.h).
using WindowTuple = std::optional<std::tuple<uint64_t, std::optional<uint64_t>>>;

odf_hash::RowWindow row_window(const WindowTuple& w) {
  if (!w) return {};
  return odf_hash::RowWindow{std::get<0>(*w), std::get<1>(*w)};
}

// Two lists of files (paths or URLs), each read as one table (open_table),
// or windows of their rows: a run of slices of two datasets split at other boundaries, or
// the offsets both hold, as the Dask and Ray adapters compare it on a worker.
nb::dict compare_file_groups(const std::vector<OsString>& a_arg, const std::vector<OsString>& b_arg,
                             unsigned threads, size_t rows, const StoreTuple& store,
                             const WindowTuple& original_window,
                             const WindowTuple& reproduced_window, const ToleranceTuple& tolerance,
                             const nb::object& progress,
                             const std::vector<std::string>& ignore_columns) {
  std::vector<std::string> a, b;
  for (const auto& x : a_arg) a.push_back(x.value);
  for (const auto& x : b_arg) b.push_back(x.value);
  odf_hash::compare::CompareOptions compare;
  compare.locate_rows = rows > 0;
  compare.rows.max_rows = rows;
  compare.ignore_columns = ignore_columns;
  compare.tolerance = tolerance_of(tolerance);
  odf_hash::CancelFlag cancel{false};
  auto counter = std::make_shared<odf_hash::ReadCounter>();
  auto r = run_interruptible(
      cancel,
      [&] {
        return compare_tables(a, b, options_for(threads, &cancel), store_for(store, cancel),
                              compare, row_window(original_window), row_window(reproduced_window),
                              counter);
      },
      progress_tick(progress, counter));
  return comparison_dict(value_or_raise(std::move(r)));
}

// [(file, start, end, window)] of a run's files: window None (the whole file) or (first
// offset, last offset) of its part.
nb::list slice_files(const std::vector<odf_hash::compare::SliceFile>& files) {
  nb::list out;
  for (const auto& f : files) {
    out.append(nb::make_tuple(
        OsString(f.file), f.interval.start, f.interval.end,
        f.window ? nb::object(nb::make_tuple(f.window->start, f.window->end)) : nb::none()));
  }
  return out;
}

// A DatasetComparison as the dict odf_hash._compare builds its dataclasses from.
nb::dict dataset_dict(const odf_hash::compare::DatasetComparison& c) {
  nb::dict d;
  d["original"] = c.original;
  d["reproduced"] = c.reproduced;
  d["original_blocks"] = c.original_blocks;
  d["reproduced_blocks"] = c.reproduced_blocks;
  d["same_records"] = c.same_records;
  d["divergence"] =
      c.divergence ? nb::object(nb::make_tuple(c.divergence->sequence_number,
                                               c.divergence->original, c.divergence->reproduced))
                   : nb::none();
  nb::list chain;
  for (const auto& x : c.chain_differences) {
    // Field paths and values come from the blocks, which need not be UTF-8: bytes, decoded
    // with replacement by _compare.py.
    chain.append(nb::make_tuple(
        x.sequence_number, x.reproduced_sequence_number, x.event,
        nb::bytes(x.field.data(), x.field.size()), nb::bytes(x.original.data(), x.original.size()),
        nb::bytes(x.reproduced.data(), x.reproduced.size()), x.identity_only));
  }
  d["chain_differences"] = chain;
  nb::list slices;
  for (const auto& s : c.slices) {
    slices.append(
        nb::make_tuple(s.interval.start, s.interval.end, slice_files(s.original_files),
                       slice_files(s.reproduced_files),
                       s.comparison ? nb::object(comparison_dict(*s.comparison)) : nb::none(),
                       s.error, s.original_unreached, s.reproduced_unreached, s.vouched));
  }
  d["slices"] = slices;
  d["system_time_column"] = c.system_time_column;
  d["event_time_column"] = c.event_time_column;
  d["verdict"] = odf_hash::compare::dataset_verdict_name(c.verdict);
  // Each side's verification as its JSON (compare_json.h): the problems and file checks in
  // verify's form, which the package reads as it reads verify's reports.
  d["original_check"] = odf_hash::compare::side_check_json(c.original_check);
  d["reproduced_check"] = odf_hash::compare::side_check_json(c.reproduced_check);
  return d;
}

nb::dict compare_datasets(const OsString& a_arg, const OsString& b_arg, unsigned threads,
                          size_t rows, const StoreTuple& store, const ToleranceTuple& tolerance,
                          const std::vector<std::string>& ignore_columns,
                          bool ignore_time_columns) {
  odf_hash::compare::CompareOptions compare;
  compare.locate_rows = rows > 0;
  compare.rows.max_rows = rows;
  compare.ignore_columns = ignore_columns;
  compare.ignore_time_columns = ignore_time_columns;
  compare.tolerance = tolerance_of(tolerance);
  odf_hash::CancelFlag cancel{false};
  auto r = run_interruptible(cancel, [&] {
    return odf_hash::compare::compare_datasets(
        a_arg.value, b_arg.value, options_for(threads, &cancel), store_for(store, cancel), compare);
  });
  return dataset_dict(value_or_raise(std::move(r)));
}

// The slices of two datasets grouped into runs, not compared (for the Dask and Ray
// adapters, which compare each run on a worker: compare_file_groups).
nb::dict pair_dataset_slices(const OsString& a_arg, const OsString& b_arg,
                             const StoreTuple& store) {
  odf_hash::CancelFlag cancel{false};
  auto r = run_interruptible(cancel, [&] {
    return odf_hash::compare::pair_dataset_slices(a_arg.value, b_arg.value,
                                                  store_for(store, cancel));
  });
  odf_hash::compare::DatasetComparison c = value_or_raise(std::move(r));
  nb::dict d = dataset_dict(c);
  // The checks of the files the runs read (SideCheck::tasks), as task JSON, for the workers.
  for (auto [key, side] : {std::pair{"original_tasks", &c.original_check},
                           std::pair{"reproduced_tasks", &c.reproduced_check}}) {
    nb::list tasks;
    for (const auto& t : side->tasks) tasks.append(odf_hash::odf::file_task_json(t));
    d[key] = tasks;
  }
  return d;
}

// task_fingerprint of a task given as its JSON (verify_plan.h): what the result of its check
// must carry.
std::string task_fingerprint(const std::string& task_json) {
  return odf_hash::odf::task_fingerprint(
      value_or_raise(odf_hash::odf::parse_file_task_json(task_json)));
}

nb::dict unordered_side(const odf_hash::compare::UnorderedSide& s) {
  nb::dict d;
  d["path"] = s.path;
  d["rows"] = s.digest.rows;
  d["unordered"] = odf_hash::unordered_digest_string(s.digest.digest);
  d["only_here"] = s.only_here;
  nb::list examples;
  for (const auto& e : s.examples) {
    examples.append(nb::make_tuple(e.row, e.offset ? nb::cast(*e.offset) : nb::none(), e.values));
  }
  d["examples"] = examples;
  return d;
}

// `verb(original, reproduced)` on the two paths or URLs opened as tables, their reads
// counted for `progress`, interruptible (Ctrl-C): the order-insensitive and keyed comparisons.
template <typename Verb>
auto compare_two_tables(const OsString& a_arg, const OsString& b_arg, const StoreTuple& store,
                        const nb::object& progress, Verb&& verb) {
  using Out = std::invoke_result_t<Verb, odf_hash::Table, odf_hash::Table>;  // a Result
  odf_hash::CancelFlag cancel{false};
  auto counter = std::make_shared<odf_hash::ReadCounter>();
  auto r = run_interruptible(
      cancel,
      [&] {
        const odf_hash::StoreOptions opened = store_for(store, cancel);
        return [&]() -> Out {
          ODF_HASH_ASSIGN_OR_RETURN(odf_hash::Table a, odf_hash::open_table(a_arg.value, opened));
          ODF_HASH_ASSIGN_OR_RETURN(odf_hash::Table b, odf_hash::open_table(b_arg.value, opened));
          return verb(odf_hash::count_reads(std::move(a), counter),
                      odf_hash::count_reads(std::move(b), counter));
        }();
      },
      progress_tick(progress, counter));
  return value_or_raise(std::move(r));
}

nb::dict compare_unordered(const OsString& a_arg, const OsString& b_arg, size_t examples,
                           const StoreTuple& store, const nb::object& progress) {
  odf_hash::compare::UnorderedOptions options;
  options.max_examples = examples;
  auto c =
      compare_two_tables(a_arg, b_arg, store, progress, [&](odf_hash::Table a, odf_hash::Table b) {
        return odf_hash::compare::compare_unordered(a, b, options);
      });
  nb::dict d;
  d["same_records"] = c.same_records;
  d["same_values"] = c.same_values;
  d["original"] = unordered_side(c.original);
  d["reproduced"] = unordered_side(c.reproduced);
  nb::list schema;
  for (const auto& x : c.schema_differences) {
    schema.append(nb::make_tuple(x.field, odf_hash::schema_difference_kind_name(x.kind), x.original,
                                 x.reproduced, x.encoding_only));
  }
  d["schema_differences"] = schema;
  return d;
}

// compare --key (keyed.h): its JSON (keyed_comparison_json), which _keyed.py reads.
std::string compare_keyed(const OsString& a_arg, const OsString& b_arg,
                          const std::vector<std::string>& key,
                          const std::vector<std::string>& ignore, bool ignore_time_columns,
                          size_t examples, const StoreTuple& store, const nb::object& progress) {
  odf_hash::compare::KeyedOptions options;
  options.key = key;
  options.ignore = ignore;
  options.ignore_time_columns = ignore_time_columns;
  options.max_examples = examples;
  return odf_hash::compare::keyed_comparison_json(
      compare_two_tables(a_arg, b_arg, store, progress, [&](odf_hash::Table a, odf_hash::Table b) {
        return odf_hash::compare::compare_keyed(a, b, options);
      }));
}

// (digest text, rows) of a file's records in any order.
std::tuple<std::string, uint64_t> unordered_file(const OsString& path_arg,
                                                 const StoreTuple& store) {
  odf_hash::CancelFlag cancel{false};
  auto r = run_interruptible(cancel, [&] {
    return [&]() -> odf_hash::Result<odf_hash::compare::UnorderedFileDigest> {
      ODF_HASH_ASSIGN_OR_RETURN(odf_hash::Table t,
                                odf_hash::open_table(path_arg.value, store_for(store, cancel)));
      return odf_hash::compare::unordered_digest(t);
    }();
  });
  auto u = value_or_raise(std::move(r));
  return {odf_hash::unordered_digest_string(u.digest), u.rows};
}

// The same over an "arrow_array_stream" PyCapsule (moved out and consumed, as
// logical_stream_capsule does).
std::tuple<std::string, uint64_t> unordered_stream_capsule(nb::handle capsule) {
  ArrowArrayStream stream = take_stream(capsule);
  odf_hash::CancelFlag cancel{false};
  auto r = run_interruptible(cancel,
                             [&] { return odf_hash::unordered_digest_stream(&stream, &cancel); });
  auto u = value_or_raise(std::move(r));
  return {odf_hash::unordered_digest_string(u.digest), u.rows};
}

}  // namespace

void bind_compare(nb::module_& m) {
  m.def("compare_files", &compare_files, "original"_a, "reproduced"_a, "threads"_a, "rows"_a,
        "store"_a, "ignore_columns"_a = std::vector<std::string>{}, "tolerance"_a = nb::none(),
        "progress"_a = nb::none(), "records_only"_a = std::make_tuple(false, false));
  m.def("compare_file_groups", &compare_file_groups, "original"_a, "reproduced"_a, "threads"_a,
        "rows"_a, "store"_a, "original_window"_a = nb::none(), "reproduced_window"_a = nb::none(),
        "tolerance"_a = nb::none(), "progress"_a = nb::none(),
        "ignore_columns"_a = std::vector<std::string>{});
  m.def("compare_datasets", &compare_datasets, "original"_a, "reproduced"_a, "threads"_a, "rows"_a,
        "store"_a, "tolerance"_a = nb::none(), "ignore_columns"_a = std::vector<std::string>{},
        "ignore_time_columns"_a = false);
  m.def("pair_dataset_slices", &pair_dataset_slices, "original"_a, "reproduced"_a, "store"_a);
  m.def("task_fingerprint", &task_fingerprint, "task_json"_a);
  m.def("compare_unordered", &compare_unordered, "original"_a, "reproduced"_a, "examples"_a,
        "store"_a, "progress"_a = nb::none());
  m.def("compare_keyed", &compare_keyed, "original"_a, "reproduced"_a, "key"_a, "ignore"_a,
        "ignore_time_columns"_a, "examples"_a, "store"_a, "progress"_a = nb::none());
  m.def("unordered_file", &unordered_file, "path"_a, "store"_a);
  m.def("unordered_stream_capsule", &unordered_stream_capsule, "capsule"_a);
}

}  // namespace odf_hash_py
