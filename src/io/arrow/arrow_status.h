// Status conversions between odf-hash and Arrow C++ inside the Arrow module (internal to
// io): errors keep their kind across, and no exception crosses the C stream interface.
#pragma once

#include <exception>
#include <new>
#include <string>

#include <arrow/status.h>
#include <parquet/exception.h>

#include "odf_hash/core/status.h"

namespace odf_hash::io_internal {

inline Status from_arrow(const std::string& path, const arrow::Status& st) {
  std::string m = path + ": " + st.message();
  if (st.IsIOError()) return Status::io_error(m);
  if (st.IsNotImplemented()) return Status::unsupported(m);
  if (st.IsOutOfMemory()) return Status::io_error(m);
  return Status::parse_error(m);
}

inline arrow::Status to_arrow(const Status& st) {
  if (st.is_ok()) return arrow::Status::OK();
  if (st.code() == StatusCode::kUnsupported) return arrow::Status::NotImplemented(st.message());
  if (st.code() == StatusCode::kIoError) return arrow::Status::IOError(st.message());
  return arrow::Status::Invalid(st.message());
}

// Runs `fn` (returning arrow::Status) with every exception turned into a Status: Parquet
// C++ throws ParquetException on corrupt data, and allocation failures on absurd sizes
// throw std::bad_alloc; neither may cross the C stream interface.
template <typename Fn>
arrow::Status guarded(Fn&& fn) {
  try {
    return fn();
  } catch (const parquet::ParquetException& e) {
    return arrow::Status::Invalid("corrupt Parquet data: ", e.what());
  } catch (const std::bad_alloc&) {
    return arrow::Status::OutOfMemory("out of memory (corrupt sizes?)");
  } catch (const std::exception& e) {
    return arrow::Status::Invalid(e.what());
  } catch (...) {
    return arrow::Status::UnknownError("unknown exception");
  }
}

}  // namespace odf_hash::io_internal
