// OsString: text that comes from the operating system (a path, a file name in a dataset, a
// message quoting one), which is bytes, not necessarily UTF-8. Taken from Python as `str`
// (encoded as os.fsencode does: UTF-8 with surrogateescape) or `bytes`, and given back as
// `str` decoded the same way, so that a name that is not UTF-8 round-trips through os.fsencode
// instead of raising UnicodeDecodeError (or nanobind's "incompatible function arguments").
#pragma once

#include <Python.h>
#include <nanobind/nanobind.h>

#include <string>
#include <utility>

struct OsString {
  std::string value;
  OsString() = default;
  OsString(std::string v) : value(std::move(v)) {}  // NOLINT: implicit, for tuples
};

namespace nanobind::detail {

template <>
struct type_caster<OsString> {
  NB_TYPE_CASTER(OsString, const_name("str | bytes"))

  bool from_python(handle src, uint8_t, cleanup_list*) noexcept {
    PyObject* o = src.ptr();
    if (PyBytes_Check(o)) {
      value.value.assign(PyBytes_AS_STRING(o), static_cast<size_t>(PyBytes_GET_SIZE(o)));
      return true;
    }
    if (!PyUnicode_Check(o)) return false;
    PyObject* bytes = PyUnicode_AsEncodedString(o, "utf-8", "surrogateescape");
    if (bytes == nullptr) {
      PyErr_Clear();
      return false;
    }
    value.value.assign(PyBytes_AS_STRING(bytes), static_cast<size_t>(PyBytes_GET_SIZE(bytes)));
    Py_DECREF(bytes);
    return true;
  }

  static handle from_cpp(const OsString& s, rv_policy, cleanup_list*) noexcept {
    return PyUnicode_DecodeUTF8(s.value.data(), static_cast<Py_ssize_t>(s.value.size()),
                                "surrogateescape");
  }
};

}  // namespace nanobind::detail
