// odf_hash._odf_hash: the nanobind extension under the Python package. It binds the public
// C++ API only (include/odf_hash/), turns Status errors into the package's exceptions
// (odf_hash/_errors.py) and releases the GIL around every hash, file read and verification.
// The Pythonic surface (argument handling, the Arrow PyCapsule protocol, docstrings) is in
// odf_hash/__init__.py; this module stays small and typed.
#include <Python.h>
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common.h"
#include "interruptible.h"
#include "odf_hash/core/multibase.h"
#include "odf_hash/core/multihash.h"
#include "odf_hash/core/multihash_hint.h"
#include "odf_hash/core/sha3.h"
#include "odf_hash/core/text.h"
#include "odf_hash/io/cancel.h"
#include "odf_hash/io/physical.h"
#include "odf_hash/io/record_stream.h"
#include "odf_hash/logical/logical.h"
#include "odf_hash/odf/slice.h"
#include "odf_hash/odf/verify.h"
#include "odf_hash/odf/verify_args.h"
#include "odf_hash/odf/verify_json.h"
#include "odf_hash/odf/verify_pins.h"
#include "odf_hash/odf/verify_plan.h"
#include "odf_hash/odf/verify_plan_json.h"
#include "odf_hash/odf/workspace.h"
#include "odf_hash/remote/hash_path_or_url.h"
#include "odf_hash/remote/open_store.h"
#include "os_string.h"

namespace nb = nanobind;
using namespace nb::literals;
using odf_hash_py::bind_compare;
using odf_hash_py::bind_query;
using odf_hash_py::capsule_pointer;
using odf_hash_py::LibraryError;
using odf_hash_py::options_for;
using odf_hash_py::run_interruptible;
using odf_hash_py::store_for;
using odf_hash_py::StoreTuple;
using odf_hash_py::take_stream;
using odf_hash_py::value_or_raise;

namespace {

// Multihash::parse, its error followed by what to fix when a fix is likely.
odf_hash::Multihash parse_multihash(const std::string& text) {
  auto parsed = odf_hash::Multihash::parse(text);
  if (parsed.is_ok()) return *parsed;
  std::string hint = odf_hash::suggest_multihash_fix(text);
  if (hint.empty()) throw LibraryError(parsed.status());
  throw LibraryError(
      odf_hash::Status(parsed.status().code(), parsed.status().message() + "; hint: " + hint));
}

const char* error_class(odf_hash::StatusCode code) {
  switch (code) {
    case odf_hash::StatusCode::kInvalidArgument:
    case odf_hash::StatusCode::kParseError: return "InvalidInputError";
    case odf_hash::StatusCode::kUnsupported: return "UnsupportedTypeError";
    case odf_hash::StatusCode::kNotFound: return "NotFoundError";
    case odf_hash::StatusCode::kIoError: return "IoError";
    default: return "Error";
  }
}

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const LibraryError& e) {
    nb::object errors = nb::module_::import_("odf_hash._errors");
    nb::object cls = errors.attr(error_class(e.status.code()));
    // A message may quote a file name that is not UTF-8: shown with \xNN escapes.
    const std::string m = odf_hash::redact_url(e.status.message());
    nb::object text = nb::steal(
        PyUnicode_DecodeUTF8(m.data(), static_cast<Py_ssize_t>(m.size()), "backslashreplace"));
    PyErr_SetObject(cls.ptr(), text.ptr());
  }
}

// The digest as (multihash text, rows, [(path, type, digest, reference gap)]); the gap is
// "" when the reference can hash the column (ColumnDigest::reference_gap).
using ColumnTuple = std::tuple<OsString, OsString, nb::bytes, std::string>;
using LogicalTuple = std::tuple<std::string, uint64_t, std::vector<ColumnTuple>>;

ColumnTuple column_tuple(const odf_hash::ColumnDigest& c) {
  return {OsString{c.path}, OsString{c.type},
          nb::bytes(reinterpret_cast<const char*>(c.digest.data()), c.digest.size()),
          c.reference_gap};
}

LogicalTuple to_tuple(const odf_hash::LogicalDigest& d) {
  std::vector<ColumnTuple> columns;
  columns.reserve(d.columns.size());
  for (const auto& c : d.columns) columns.push_back(column_tuple(c));
  return {d.multihash().to_string(), d.num_rows, std::move(columns)};
}

// Hashes an "arrow_array_stream" PyCapsule. The stream is moved out of the capsule (its
// struct is left released, so the capsule's destructor does nothing) and consumed here.
LogicalTuple logical_stream_capsule(nb::handle capsule, unsigned threads) {
  ArrowArrayStream stream = take_stream(capsule);
  // A stream produced in Python (a generator behind a RecordBatchReader) takes the GIL on
  // the work's thread; the waiting thread holds it only briefly.
  odf_hash::CancelFlag cancel{false};
  auto r = run_interruptible(cancel, [&] {
    return odf_hash::logical_hash_any_stream(&stream, options_for(threads, &cancel));
  });
  return to_tuple(value_or_raise(std::move(r)));
}

// Hashes an ("arrow_schema", "arrow_array") PyCapsule pair; both stay owned by their capsules.
LogicalTuple logical_array_capsules(nb::handle schema_capsule, nb::handle array_capsule,
                                    unsigned threads) {
  auto* schema = capsule_pointer<ArrowSchema>(schema_capsule, "arrow_schema");
  auto* array = capsule_pointer<ArrowArray>(array_capsule, "arrow_array");
  if (schema->release == nullptr || array->release == nullptr) {
    throw LibraryError(odf_hash::Status::invalid_argument("the Arrow array was already released"));
  }
  odf_hash::Result<odf_hash::LogicalDigest> r = odf_hash::Status::internal("not run");
  {
    nb::gil_scoped_release unlocked;
    r = odf_hash::logical_hash_any_array(*schema, *array, options_for(threads));
  }
  return to_tuple(value_or_raise(std::move(r)));
}

LogicalTuple logical_file(const OsString& path_arg, unsigned threads, const StoreTuple& store) {
  const std::string& path = path_arg.value;
  odf_hash::CancelFlag cancel{false};
  auto r = run_interruptible(cancel, [&] {
    return odf_hash::logical_hash_path_or_url(path, options_for(threads, &cancel),
                                              store_for(store, cancel));
  });
  return to_tuple(value_or_raise(std::move(r)));
}

// A PyCapsule "arrow_array_stream" over a file's record batches as arrow-rs reads them. The
// capsule owns a heap ArrowArrayStream: a consumer moves the stream out (leaving it
// released); the destructor releases whatever is left and frees the struct.
nb::object open_records_capsule(const OsString& path_arg) {
  const std::string& path = path_arg.value;
  auto* stream = new ArrowArrayStream{};
  odf_hash::Status st;
  {
    nb::gil_scoped_release unlocked;
    st = odf_hash::open_record_stream(path, stream);
  }
  if (!st.is_ok()) {
    delete stream;
    throw LibraryError(st);
  }
  PyObject* capsule = PyCapsule_New(stream, "arrow_array_stream", [](PyObject* cap) {
    auto* s = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(cap, "arrow_array_stream"));
    if (s == nullptr) return;
    if (s->release != nullptr) s->release(s);
    delete s;
  });
  if (capsule == nullptr) {
    stream->release(stream);
    delete stream;
    throw nb::python_error();
  }
  return nb::steal(capsule);
}

std::tuple<odf_hash::Multihash, uint64_t> physical_file(const OsString& path_arg,
                                                        const StoreTuple& store) {
  const std::string& path = path_arg.value;
  odf_hash::CancelFlag cancel{false};
  auto r = run_interruptible(
      cancel, [&] { return odf_hash::physical_hash_path_or_url(path, store_for(store, cancel)); });
  auto d = value_or_raise(std::move(r));
  return {d.hash, d.size};
}

// A read-only view of any object with the buffer protocol (bytes, bytearray, memoryview,
// numpy arrays...), released on destruction.
class BufferView {
 public:
  explicit BufferView(nb::handle obj) {
    if (PyObject_GetBuffer(obj.ptr(), &view_, PyBUF_SIMPLE) != 0) throw nb::python_error();
  }
  ~BufferView() { PyBuffer_Release(&view_); }
  BufferView(const BufferView&) = delete;
  BufferView& operator=(const BufferView&) = delete;
  const void* data() const { return view_.buf; }
  size_t size() const { return static_cast<size_t>(view_.len); }

 private:
  Py_buffer view_{};
};

// The streaming physical hasher behind odf_hash.physical(bytes or binary file).
class Sha3Hasher {
 public:
  void update(nb::handle data) {
    BufferView view(data);
    // Small updates are cheaper than a GIL round trip.
    if (view.size() < 64 * 1024) {
      hasher_.update(view.data(), view.size());
    } else {
      nb::gil_scoped_release unlocked;
      hasher_.update(view.data(), view.size());
    }
    size_ += view.size();
  }
  odf_hash::Multihash finalize() {
    size_ = 0;
    return odf_hash::Multihash::sha3_256(hasher_.finalize());
  }
  uint64_t size() const { return size_; }

 private:
  odf_hash::Sha3_256 hasher_;
  uint64_t size_ = 0;
};

nb::dict slice_to_dict(const odf_hash::odf::DataSlice& s) {
  nb::dict interval;
  interval["start"] = s.offset_interval.start;
  interval["end"] = s.offset_interval.end;
  nb::dict d;
  d["logicalHash"] = s.logical_hash.to_string();
  d["physicalHash"] = s.physical_hash.to_string();
  d["offsetInterval"] = interval;
  d["size"] = s.size;
  return d;
}

// The DataSlice as a dict, and the columns the reference cannot hash (column tuples).
std::tuple<nb::dict, std::vector<ColumnTuple>> data_slice(const OsString& path_arg, uint64_t offset,
                                                          unsigned threads,
                                                          const StoreTuple& store) {
  const std::string& path = path_arg.value;
  odf_hash::odf::SliceOptions options;
  options.offset = offset;
  odf_hash::CancelFlag cancel{false};
  options.logical = options_for(threads, &cancel);
  std::vector<odf_hash::ColumnDigest> gaps;
  options.reference_gaps = &gaps;
  auto r = run_interruptible(cancel, [&] {
    return odf_hash::odf::data_slice_of_path_or_url(path, options, store_for(store, cancel));
  });
  nb::dict d = slice_to_dict(value_or_raise(std::move(r)));
  std::vector<ColumnTuple> columns;
  for (const auto& c : gaps) columns.push_back(column_tuple(c));
  return {d, std::move(columns)};
}

// The report as plain values: (json text, problems as tuples), so that the Python side can
// build its typed objects without a second binding of every C++ struct.
// The last member: where a linked object is linked from (data file, column, row).
using LinkTuple = std::tuple<OsString, OsString, uint64_t>;
using ProblemTuple = std::tuple<std::string, std::optional<std::string>, std::optional<uint64_t>,
                                OsString, OsString, OsString, OsString, std::optional<LinkTuple>>;

using ReportTuple = std::tuple<std::string, std::vector<ProblemTuple>>;

ReportTuple report_tuple(const odf_hash::odf::DatasetReport& report) {
  std::vector<ProblemTuple> problems;
  for (const auto& p : report.problems) {
    problems.emplace_back(
        odf_hash::odf::problem_kind_name(p.kind),
        p.block ? std::optional<std::string>(p.block->to_string()) : std::nullopt,
        p.sequence_number, p.file, p.expected, p.actual, p.message,
        p.link ? std::optional<LinkTuple>(LinkTuple{p.link->data_file, p.link->column, p.link->row})
               : std::nullopt);
  }
  return {odf_hash::odf::verify_report_json(report), std::move(problems)};
}

// The verify modes as the Python keywords gave them, as text (verify_args.h parses and checks
// them, as for the command's flags): (expect_head, since, sample, seed, deep); None: not
// given. The pin files come apart: they are paths.
using ModesTuple = std::tuple<std::optional<std::string>, std::optional<std::string>,
                              std::optional<std::string>, std::optional<std::string>, bool>;

odf_hash::odf::VerifyModeArgs mode_args(const ModesTuple& modes,
                                        const std::optional<OsString>& pins = std::nullopt,
                                        const std::optional<OsString>& write_pins = std::nullopt) {
  odf_hash::odf::VerifyModeArgs a;
  std::tie(a.expect_head, a.since, a.sample, a.seed, std::ignore) = modes;
  if (pins) a.pins = pins->value;
  if (write_pins) a.write_pins = write_pins->value;
  return a;
}

odf_hash::odf::VerifyOptions verify_options(bool integrity_only, bool strict,
                                            const StoreTuple& store, const ModesTuple& modes,
                                            const odf_hash::CancelFlag& cancel) {
  odf_hash::odf::VerifyOptions options;
  options.integrity_only = integrity_only;
  options.strict = strict;
  options.store = store_for(store, cancel);
  options.deep = std::get<4>(modes);
  return options;
}

// verify_with_pins (verify_pins.h): the pin file's pin of the dataset, and its new pin
// written to `write_pins` when the pass may be pinned.
ReportTuple verify(const OsString& path_arg, unsigned jobs, bool integrity_only, bool strict,
                   const StoreTuple& store, const ModesTuple& modes,
                   const std::optional<OsString>& pins, const std::optional<OsString>& write_pins) {
  const std::string& path = path_arg.value;
  odf_hash::CancelFlag cancel{false};
  odf_hash::odf::VerifyOptions options =
      verify_options(integrity_only, strict, store, modes, cancel);
  options.jobs = jobs;
  auto r = run_interruptible(cancel, [&]() -> odf_hash::Result<odf_hash::odf::PinnedReport> {
    ODF_HASH_ASSIGN_OR_RETURN(
        odf_hash::odf::VerifyModes m,
        odf_hash::odf::parse_verify_modes(mode_args(modes, pins, write_pins),
                                          odf_hash::odf::ArgSpelling::kKeywords));
    m.apply(options);
    ODF_HASH_ASSIGN_OR_RETURN(
        odf_hash::odf::PinnedReport pinned,
        odf_hash::odf::verify_with_pins(path, options, m.pins ? &*m.pins : nullptr,
                                        m.write_pins.has_value()));
    if (m.write_pins && pinned.pin) {
      ODF_HASH_RETURN_IF_ERROR(odf_hash::odf::write_pins(*m.write_pins, {*pinned.pin}));
    }
    return pinned;
  });
  return report_tuple(value_or_raise(std::move(r)).report);
}

// Plan / check / merge (verify_plan.h), each side as its versioned JSON text: the Python
// layer's Task, CheckResult and Plan are plain data built from it (cheap to pickle), and
// everything that comes back is validated here by the C++ parsers.
std::string plan_verify(const OsString& path_arg, bool integrity_only, bool strict,
                        const StoreTuple& store, const ModesTuple& modes) {
  const std::string& path = path_arg.value;
  odf_hash::CancelFlag cancel{false};
  odf_hash::odf::VerifyOptions options =
      verify_options(integrity_only, strict, store, modes, cancel);
  auto r = run_interruptible(cancel, [&]() -> odf_hash::Result<odf_hash::odf::VerifyPlan> {
    ODF_HASH_ASSIGN_OR_RETURN(
        odf_hash::odf::VerifyModes m,
        odf_hash::odf::parse_verify_modes(mode_args(modes), odf_hash::odf::ArgSpelling::kKeywords));
    m.apply(options);
    return odf_hash::odf::plan_verify(path, options);
  });
  return odf_hash::odf::verify_plan_json(value_or_raise(std::move(r)));
}

// The worker's policy (odf_hash.Allow): None, or (datasets, endpoints, follow_symlinks).
using PolicyTuple = std::tuple<std::vector<std::string>, std::vector<std::string>, bool>;

std::string check_task(const std::string& task_json, const std::optional<PolicyTuple>& allow) {
  odf_hash::CancelFlag cancel{false};
  auto r = run_interruptible(cancel, [&]() -> odf_hash::Result<odf_hash::odf::FileCheckResult> {
    auto task = odf_hash::odf::parse_file_task_json(task_json);
    if (!task.is_ok()) return task.status();
    if (!allow) return odf_hash::odf::check_file(*task, &cancel);
    odf_hash::odf::TaskPolicy policy;
    std::tie(policy.datasets, policy.endpoints, policy.follow_symlinks) = *allow;
    return odf_hash::odf::check_file(*task, policy, &cancel);
  });
  return odf_hash::odf::check_result_json(value_or_raise(std::move(r)));
}

ReportTuple merge_checks(const std::string& plan_json, const std::vector<std::string>& results) {
  odf_hash::Result<odf_hash::odf::DatasetReport> r = odf_hash::Status::internal("not run");
  {
    nb::gil_scoped_release unlocked;
    [&] {
      auto plan = odf_hash::odf::parse_verify_plan_json(plan_json);
      if (!plan.is_ok()) {
        r = plan.status();
        return;
      }
      std::vector<odf_hash::odf::FileCheckResult> parsed;
      parsed.reserve(results.size());
      for (size_t i = 0; i < results.size(); ++i) {
        auto one = odf_hash::odf::parse_check_result_json(results[i]);
        if (!one.is_ok()) {
          r = odf_hash::Status::parse_error("results[" + std::to_string(i) +
                                            "]: " + one.status().message());
          return;
        }
        parsed.push_back(std::move(*one));
      }
      r = odf_hash::odf::merge_checks(*plan, std::move(parsed));
    }();
  }
  return report_tuple(value_or_raise(std::move(r)));
}

// The kamu workspace at `path` (workspace.h), or None when it is a dataset or no workspace:
// (folder of datasets, [(alias, entry name, location, report)]) for the entries `names`
// selects (None: all; select_datasets' first error is raised), report being None for a
// dataset to verify, else the not-a-dataset report of an entry that is none.
using EntryTuple = std::tuple<OsString, OsString, OsString, std::optional<ReportTuple>>;
using WorkspaceTuple = std::tuple<OsString, std::vector<EntryTuple>>;

std::optional<WorkspaceTuple> workspace(const OsString& path_arg, const StoreTuple& store,
                                        const std::optional<std::vector<OsString>>& names) {
  const std::string& path = path_arg.value;
  odf_hash::CancelFlag cancel{false};
  auto r = run_interruptible(
      cancel, [&] { return odf_hash::odf::open_workspace(path, store_for(store, cancel)); });
  std::optional<odf_hash::odf::Workspace> ws = value_or_raise(std::move(r));
  if (!ws) return std::nullopt;
  std::vector<EntryTuple> entries;
  if (names && names->empty()) return WorkspaceTuple{odf_hash::redact_url(ws->location), {}};
  std::vector<std::string> wanted;
  for (const auto& n : names.value_or(std::vector<OsString>{})) wanted.push_back(n.value);
  const auto selection =
      odf_hash::odf::select_datasets(*ws, wanted, odf_hash::redact_url(ws->location));
  if (!selection.errors.empty()) throw LibraryError(selection.errors.front());
  for (const auto* d : selection.chosen) {
    std::optional<ReportTuple> report;
    if (!d->not_a_dataset.empty()) report = report_tuple(odf_hash::odf::not_a_dataset_report(*d));
    entries.emplace_back(d->alias, d->id, odf_hash::redact_url(d->location), std::move(report));
  }
  return WorkspaceTuple{odf_hash::redact_url(ws->location), std::move(entries)};
}

// The canonical JSON of a task / result / plan after validation (Task.from_json...).
std::string normalize_task(const std::string& text) {
  return odf_hash::odf::file_task_json(value_or_raise(odf_hash::odf::parse_file_task_json(text)));
}
std::string normalize_result(const std::string& text) {
  return odf_hash::odf::check_result_json(
      value_or_raise(odf_hash::odf::parse_check_result_json(text)));
}
std::string normalize_plan(const std::string& text) {
  odf_hash::Result<odf_hash::odf::VerifyPlan> r = odf_hash::Status::internal("not run");
  {
    nb::gil_scoped_release unlocked;
    r = odf_hash::odf::parse_verify_plan_json(text);
  }
  return odf_hash::odf::verify_plan_json(value_or_raise(std::move(r)));
}

std::vector<std::string> problem_kinds() {
  std::vector<std::string> out;
  for (int k = 0;; ++k) {
    const char* name = odf_hash::odf::problem_kind_name(static_cast<odf_hash::odf::ProblemKind>(k));
    if (name == nullptr || std::strcmp(name, "unknown") == 0) break;
    out.emplace_back(name);
  }
  return out;
}

odf_hash::multibase::Base base_from(const std::string& base) {
  for (odf_hash::multibase::Base b : odf_hash::multibase::all_bases()) {
    if (base == odf_hash::multibase::base_name(b) ||
        (base.size() == 1 && base[0] == static_cast<char>(b))) {
      return b;
    }
  }
  throw LibraryError(
      odf_hash::Status::invalid_argument("unknown multibase '" + base +
                                         "': give a name such as 'base16', 'base58btc', "
                                         "'base64url' or a prefix such as 'f', 'z', 'u'"));
}

}  // namespace

NB_MODULE(_odf_hash, m) {
  m.doc() = "Low-level bindings of the odf-hash C++ library; use the odf_hash package instead.";
  nb::register_exception_translator(&translate);

  nb::class_<odf_hash::Multihash>(
      m, "Multihash",
      "A multihash as ODF metadata holds it: a code (``sha3-256`` for physical and block\n"
      "hashes, ``arrow0-sha3-256`` for logical hashes) and a 32-byte digest.\n\n"
      "``Multihash.parse(text)`` accepts every final multibase encoding (``f...`` hex, ``z...``\n"
      "base58btc, ``u...`` base64url...); ``str(h)`` and ``h.to_string()`` give the canonical\n"
      "ODF form (``f`` + lowercase hex), ``h.to_string(\"base58btc\")`` another base (a name or\n"
      "a multibase prefix), ``h.short`` the last 8 characters. Two multihashes are equal when\n"
      "their code and digest are, however they were written; they hash and pickle by value.\n"
      "``Multihash(text)`` is ``Multihash.parse(text)``. A ``str`` compares equal when it is\n"
      "a spelling of the same multihash (``h == \"zW1...\"`` parses the text; text that is not\n"
      "a multihash compares unequal), and ``hash(h) == hash(str(h))``, so a multihash finds\n"
      "its canonical string in a set or dict. Invalid text raises\n"
      "odf_hash.InvalidInputError, with a hint when a fix is likely (a missing character, a\n"
      "bare digest).")
      .def(
          "__init__",
          [](odf_hash::Multihash* self, const std::string& text) {
            new (self) odf_hash::Multihash(parse_multihash(text));
          },
          "text"_a)
      .def_static(
          "parse", [](const std::string& text) { return parse_multihash(text); }, "text"_a)
      .def_static(
          "from_bytes",
          [](nb::bytes raw) {
            return value_or_raise(odf_hash::Multihash::from_bytes(
                {reinterpret_cast<const uint8_t*>(raw.c_str()), raw.size()}));
          },
          "raw"_a)
      .def(
          "to_string",
          [](const odf_hash::Multihash& h, const std::string& base) {
            return h.to_string(base_from(base));
          },
          "base"_a = "base16")
      .def_prop_ro("short", &odf_hash::Multihash::short_string)
      .def_prop_ro("code",
                   [](const odf_hash::Multihash& h) { return static_cast<uint64_t>(h.code()); })
      .def_prop_ro("codec",
                   [](const odf_hash::Multihash& h) {
                     return std::string(odf_hash::hash_code_name(static_cast<uint64_t>(h.code())));
                   })
      .def_prop_ro("digest",
                   [](const odf_hash::Multihash& h) {
                     return nb::bytes(reinterpret_cast<const char*>(h.digest().data()),
                                      h.digest().size());
                   })
      .def("to_bytes",
           [](const odf_hash::Multihash& h) {
             auto b = h.to_bytes();
             return nb::bytes(reinterpret_cast<const char*>(b.data()), b.size());
           })
      .def("__eq__",
           [](const odf_hash::Multihash& a, const odf_hash::Multihash& b) { return a == b; })
      .def("__eq__",
           [](const odf_hash::Multihash& a, const std::string& text) {
             auto parsed = odf_hash::Multihash::parse(text);
             return parsed.is_ok() && *parsed == a;
           })
      .def("__eq__", [](const odf_hash::Multihash&, nb::handle) { return false; })
      // The canonical string's hash: equal objects (a multihash and its canonical text) hash
      // alike.
      .def("__hash__",
           [](const odf_hash::Multihash& h) { return nb::hash(nb::str(h.to_string().c_str())); })
      .def("__str__", [](const odf_hash::Multihash& h) { return h.to_string(); })
      .def("__repr__",
           [](const odf_hash::Multihash& h) { return "Multihash('" + h.to_string() + "')"; })
      .def("__getstate__", [](const odf_hash::Multihash& h) { return h.to_string(); })
      .def("__setstate__", [](odf_hash::Multihash& h, const std::string& s) {
        new (&h) odf_hash::Multihash(value_or_raise(odf_hash::Multihash::parse(s)));
      });

  nb::class_<Sha3Hasher>(m, "Sha3Hasher")
      .def(nb::init<>())
      .def("update", &Sha3Hasher::update, "data"_a)
      .def("finalize", &Sha3Hasher::finalize)
      .def_prop_ro("size", &Sha3Hasher::size);

  m.def("logical_stream_capsule", &logical_stream_capsule, "capsule"_a, "threads"_a);
  m.def("logical_array_capsules", &logical_array_capsules, "schema"_a, "array"_a, "threads"_a);
  m.def("logical_file", &logical_file, "path"_a, "threads"_a, "store"_a);
  m.def("open_records_capsule", &open_records_capsule, "path"_a);
  m.def("physical_file", &physical_file, "path"_a, "store"_a);
  m.def("data_slice", &data_slice, "path"_a, "offset"_a, "threads"_a, "store"_a);
  bind_compare(m);
  bind_query(m);
  m.def("verify", &verify, "path"_a, "jobs"_a, "integrity_only"_a, "strict"_a, "store"_a, "modes"_a,
        "pins"_a.none(), "write_pins"_a.none());
  m.def("plan_verify", &plan_verify, "path"_a, "integrity_only"_a, "strict"_a, "store"_a,
        "modes"_a);
  m.def("workspace", &workspace, "path"_a, "store"_a, "names"_a.none());
  m.def(
      "is_store_url", [](const OsString& text) { return odf_hash::is_store_url(text.value); },
      "text"_a);
  m.def(
      "redact_url", [](const OsString& text) { return OsString(odf_hash::redact_url(text.value)); },
      "text"_a);
  // Stops the AWS SDK behind S3 (open_store.h) before static destructors: called at exit.
  m.def("shutdown_remote_stores", [] {
    nb::gil_scoped_release unlocked;
    odf_hash::shutdown_remote_stores();
  });
  m.def("check_task", &check_task, "task_json"_a, "allow"_a = nb::none());
  m.def("merge_checks", &merge_checks, "plan_json"_a, "results"_a);
  m.def("normalize_task", &normalize_task, "text"_a);
  m.def("normalize_result", &normalize_result, "text"_a);
  m.def("normalize_plan", &normalize_plan, "text"_a);
  m.def("plan_json_version", [] { return odf_hash::odf::kVerifyPlanJsonVersion; });
  m.def("problem_kinds", &problem_kinds);
  m.def("library_version", [] { return std::string(ODF_HASH_VERSION_STRING); });
}
