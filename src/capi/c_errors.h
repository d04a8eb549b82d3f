// Private to the C ABI: errors as codes and messages in the caller's odf_hash_error, and
// every entry point's guard that keeps exceptions from unwinding into C.
#pragma once

#include <algorithm>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "odf_hash/core/status.h"
#include "odf_hash/odf_hash.h"

namespace odf_hash::capi {

inline int report(odf_hash_error* err, int code, const char* message) noexcept {
  if (err != nullptr) {
    err->code = code;
    const size_t n = std::min(std::strlen(message), sizeof(err->message) - 1);
    std::memcpy(err->message, message, n);
    err->message[n] = '\0';
  }
  return code;
}

inline int report(odf_hash_error* err, const odf_hash::Status& status) noexcept {
  return report(err, static_cast<int>(status.code()), status.message().c_str());
}

inline int ok(odf_hash_error* err) noexcept {
  return report(err, ODF_HASH_OK, "");
}

inline int invalid(odf_hash_error* err, const char* message) noexcept {
  return report(err, ODF_HASH_INVALID_ARGUMENT, message);
}

// Runs `body` (which returns a status code) with every exception turned into a code.
template <typename Body>
int guarded(odf_hash_error* err, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return report(err, ODF_HASH_INTERNAL, "out of memory");
  } catch (const std::exception& e) {
    return report(err, ODF_HASH_INTERNAL, (std::string("internal error: ") + e.what()).c_str());
  } catch (...) {
    return report(err, ODF_HASH_INTERNAL, "internal error: unknown exception");
  }
}

}  // namespace odf_hash::capi
