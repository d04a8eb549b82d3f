// odf_hash._odf_hash: the nanobind extension under the Python package. It binds the public
// C++ API only (include/odf_hash/), turns Status errors into the package's exceptions
// (odf_hash/_errors.py) and releases the GIL around every hash, file read and verification.
// The Pythonic surface (argument handling, the Arrow PyCapsule protocol, docstrings) is in
// odf_hash/*.py; this module stays small and typed. One file per concept: this one holds the
// module, its errors and hashing (multihashes, physical and logical hashes, data slices);
// verify_bindings.cpp verification, compare_bindings.cpp comparisons, query_bindings.cpp
// signed query answers.
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
#include "odf_hash/io/logical_file.h"
#include "odf_hash/io/physical.h"
#include "odf_hash/io/read_counter.h"
#include "odf_hash/io/record_stream.h"
#include "odf_hash/io/table.h"
#include "odf_hash/logical/logical.h"
#include "odf_hash/odf/slice.h"
#include "odf_hash/odf/verify.h"
#include "odf_hash/remote/hash_path_or_url.h"
#include "odf_hash/remote/open_store.h"
#include "odf_hash/remote/open_table.h"
#include "os_string.h"

namespace nb = nanobind;
using namespace nb::literals;
using odf_hash_py::bind_compare;
using odf_hash_py::bind_query;
using odf_hash_py::bind_verify;
using odf_hash_py::capsule_pointer;
using odf_hash_py::LibraryError;
using odf_hash_py::options_for;
using odf_hash_py::progress_tick;
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

// The digest as (multihash text, rows, [(path, type, digest, reference gap, hash note)]);
// the gap is "" when the reference can hash the column (ColumnDigest::reference_gap), the
// note "" when the hash depends on nothing the data does not show (ColumnDigest::hash_note).
using ColumnTuple = std::tuple<OsString, OsString, nb::bytes, std::string, std::string>;
using LogicalTuple = std::tuple<std::string, uint64_t, std::vector<ColumnTuple>>;

ColumnTuple column_tuple(const odf_hash::ColumnDigest& c) {
  return {OsString{c.path}, OsString{c.type},
          nb::bytes(reinterpret_cast<const char*>(c.digest.data()), c.digest.size()),
          c.reference_gap, c.hash_note};
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

// The object at a path or URL (open_object), its reads counted in `counter`.
odf_hash::Result<std::shared_ptr<odf_hash::ObjectReader>> open_counted(
    const std::string& path, const odf_hash::StoreOptions& store,
    const std::shared_ptr<odf_hash::ReadCounter>& counter) {
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<odf_hash::ObjectReader> object,
                            odf_hash::open_object(path, store));
  return odf_hash::count_reads(std::shared_ptr<odf_hash::ObjectReader>(std::move(object)), counter);
}

LogicalTuple logical_file(const OsString& path_arg, unsigned threads, const StoreTuple& store,
                          const nb::object& progress) {
  const std::string& path = path_arg.value;
  odf_hash::CancelFlag cancel{false};
  auto counter = std::make_shared<odf_hash::ReadCounter>();
  auto r = run_interruptible(
      cancel,
      [&]() -> odf_hash::Result<odf_hash::LogicalDigest> {
        ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<odf_hash::ObjectReader> object,
                                  open_counted(path, store_for(store, cancel), counter));
        return odf_hash::logical_hash_object(std::move(object), options_for(threads, &cancel));
      },
      progress_tick(progress, counter));
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
                                                        const StoreTuple& store,
                                                        const nb::object& progress) {
  const std::string& path = path_arg.value;
  odf_hash::CancelFlag cancel{false};
  auto counter = std::make_shared<odf_hash::ReadCounter>();
  auto r = run_interruptible(
      cancel,
      [&] {
        return odf_hash::physical_hash_path_or_url(
            path, store_for(store, cancel), [&counter](uint64_t done, uint64_t) {
              counter->bytes.store(done, std::memory_order_relaxed);
              return true;
            });
      },
      progress_tick(progress, counter));
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
                                                          unsigned threads, const StoreTuple& store,
                                                          const nb::object& progress) {
  const std::string& path = path_arg.value;
  odf_hash::odf::SliceOptions options;
  options.offset = offset;
  odf_hash::CancelFlag cancel{false};
  options.logical = options_for(threads, &cancel);
  std::vector<odf_hash::ColumnDigest> gaps;
  options.reference_gaps = &gaps;
  auto counter = std::make_shared<odf_hash::ReadCounter>();
  auto r = run_interruptible(
      cancel,
      [&]() -> odf_hash::Result<odf_hash::odf::DataSlice> {
        ODF_HASH_ASSIGN_OR_RETURN(odf_hash::Table file,
                                  odf_hash::open_table(path, store_for(store, cancel)));
        return odf_hash::odf::data_slice(odf_hash::count_reads(std::move(file), counter), options);
      },
      progress_tick(progress, counter));
  nb::dict d = slice_to_dict(value_or_raise(std::move(r)));
  std::vector<ColumnTuple> columns;
  for (const auto& c : gaps) columns.push_back(column_tuple(c));
  return {d, std::move(columns)};
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
  m.def("logical_file", &logical_file, "path"_a, "threads"_a, "store"_a, "progress"_a = nb::none());
  m.def("open_records_capsule", &open_records_capsule, "path"_a);
  m.def("physical_file", &physical_file, "path"_a, "store"_a, "progress"_a = nb::none());
  m.def("data_slice", &data_slice, "path"_a, "offset"_a, "threads"_a, "store"_a,
        "progress"_a = nb::none());
  bind_compare(m);
  bind_query(m);
  bind_verify(m);
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
  m.def("library_version", [] { return std::string(ODF_HASH_VERSION_STRING); });
}
