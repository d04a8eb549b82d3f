// What the extension's binding files share: library errors crossing into Python, the store
// and logical options as odf_hash/__init__.py passes them, and PyCapsule access.
#pragma once

#include <Python.h>
#include <nanobind/nanobind.h>

#include <exception>
#include <string>
#include <tuple>
#include <utility>

#include "odf_hash/arrow_c_data.h"
#include "odf_hash/core/status.h"
#include "odf_hash/io/cancel.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/logical/logical.h"

namespace odf_hash_py {

namespace nb = nanobind;

// A library error crossing into Python; translated to odf_hash.<class> by the translator.
struct LibraryError : std::exception {
  odf_hash::Status status;
  explicit LibraryError(odf_hash::Status s) : status(std::move(s)) {}
  const char* what() const noexcept override { return status.message().c_str(); }
};

template <typename T>
T value_or_raise(odf_hash::Result<T>&& r) {
  if (!r.is_ok()) throw LibraryError(r.status());
  return std::move(r).value();
}

// How URLs are opened (open_store.h), as odf_hash/__init__.py's keyword arguments give it:
// (endpoint_url, region, no_sign_request, connect_timeout, read_timeout, max_attempts,
// ipfs_gateway, trust_gateway).
using StoreTuple =
    std::tuple<std::string, std::string, bool, double, double, unsigned, std::string, bool>;

inline odf_hash::StoreOptions store_for(const StoreTuple& t) {
  odf_hash::StoreOptions o;
  std::tie(o.endpoint_url, o.region, o.no_sign_request, o.connect_timeout_s, o.read_timeout_s,
           o.max_attempts, o.ipfs_gateway, o.trust_gateway) = t;
  return o;
}

inline odf_hash::LogicalHashOptions options_for(unsigned threads,
                                                const odf_hash::CancelFlag* cancel = nullptr) {
  odf_hash::LogicalHashOptions o;
  o.threads = threads;
  o.cancel = cancel;
  return o;
}

inline odf_hash::StoreOptions store_for(const StoreTuple& t, const odf_hash::CancelFlag& cancel) {
  odf_hash::StoreOptions o = store_for(t);
  o.cancel = &cancel;
  return o;
}

template <typename T>
T* capsule_pointer(nb::handle capsule, const char* name) {
  void* p = PyCapsule_GetPointer(capsule.ptr(), name);
  if (p == nullptr) throw nb::python_error();
  return static_cast<T*>(p);
}

// Moves the stream out of an "arrow_array_stream" PyCapsule (its struct is left released, so
// the capsule's destructor does nothing); the caller consumes it.
inline ArrowArrayStream take_stream(nb::handle capsule) {
  auto* in = capsule_pointer<ArrowArrayStream>(capsule, "arrow_array_stream");
  if (in->release == nullptr) {
    throw LibraryError(
        odf_hash::Status::invalid_argument("the Arrow stream was already consumed or released"));
  }
  ArrowArrayStream stream = *in;
  in->release = nullptr;
  return stream;
}

// Registers the compare functions (compare_bindings.cpp) on the module.
void bind_compare(nb::module_& m);
// query_bindings.cpp: verify_query (a kamu node's signed query answer).
void bind_query(nb::module_& m);

// verify_bindings.cpp: verify, verify_workspace, plan / check / merge, problem kinds.
void bind_verify(nb::module_& m);

}  // namespace odf_hash_py
