// Errors as values: Status and Result<T>.
//
// Nothing in the odf-hash library throws across its API or aborts on bad data. Every
// operation that can fail returns a Status (or a Result<T> holding either a value or a
// non-OK Status) with a code and a human-readable message that names what went wrong
// (the path, the line, the column, the offending character...).
//
// Thread safety: Status and Result are plain values; distinct objects may be used from
// distinct threads freely.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace odf_hash {

enum class StatusCode : int {
  kOk = 0,
  kInvalidArgument,  // malformed input given by the caller: a bad hash string, a bad option
  kParseError,       // malformed data: a check file line, a corrupt Parquet file, a bad block
  kNotFound,         // a file or object that should exist does not
  kIoError,          // the operating system refused a read or an open
  kUnsupported,      // valid input we deliberately do not handle (e.g. a reserved Arrow type)
  kInternal,         // a bug in odf-hash; please report it
  kCancelled,        // the caller asked the work to stop (cancel.h)
};

// Short stable name of a code, e.g. "invalid argument".
const char* status_code_name(StatusCode code) noexcept;

class [[nodiscard]] Status {
 public:
  Status() noexcept = default;  // OK
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status ok() noexcept { return Status(); }
  static Status invalid_argument(std::string m) {
    return {StatusCode::kInvalidArgument, std::move(m)};
  }
  static Status parse_error(std::string m) { return {StatusCode::kParseError, std::move(m)}; }
  static Status not_found(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
  static Status io_error(std::string m) { return {StatusCode::kIoError, std::move(m)}; }
  static Status unsupported(std::string m) { return {StatusCode::kUnsupported, std::move(m)}; }
  static Status internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }
  static Status cancelled(std::string m) { return {StatusCode::kCancelled, std::move(m)}; }

  bool is_ok() const noexcept { return code_ == StatusCode::kOk; }
  explicit operator bool() const noexcept { return is_ok(); }
  StatusCode code() const noexcept { return code_; }
  const std::string& message() const noexcept { return message_; }

  // "<code name>: <message>", or "ok".
  std::string to_string() const;

  // Returns a copy whose message is "<prefix>: <message>" (for adding context).
  Status with_context(const std::string& prefix) const {
    if (is_ok()) return *this;
    return Status(code_, prefix + ": " + message_);
  }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Either a T or a non-OK Status. Accessing value() of an error is a programming error
// (checked by assert in debug builds).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {  // NOLINT: implicit by design
    assert(!std::get<Status>(v_).is_ok() && "Result constructed from an OK Status");
  }

  bool is_ok() const noexcept { return std::holds_alternative<T>(v_); }
  explicit operator bool() const noexcept { return is_ok(); }

  const T& value() const& {
    assert(is_ok());
    return std::get<T>(v_);
  }
  T& value() & {
    assert(is_ok());
    return std::get<T>(v_);
  }
  T&& value() && {
    assert(is_ok());
    return std::get<T>(std::move(v_));
  }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

  // The error; Status::ok() when this holds a value.
  Status status() const {
    if (is_ok()) return Status::ok();
    return std::get<Status>(v_);
  }

 private:
  std::variant<T, Status> v_;
};

}  // namespace odf_hash

// Propagation helpers for implementation files.
#define ODF_HASH_CONCAT_INNER_(a, b) a##b
#define ODF_HASH_CONCAT_(a, b) ODF_HASH_CONCAT_INNER_(a, b)

#define ODF_HASH_RETURN_IF_ERROR(expr)                      \
  do {                                                      \
    ::odf_hash::Status odf_hash_status_ = (expr);           \
    if (!odf_hash_status_.is_ok()) return odf_hash_status_; \
  } while (0)

#define ODF_HASH_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                    \
  if (!tmp.is_ok()) return tmp.status();                \
  lhs = std::move(tmp).value()

#define ODF_HASH_ASSIGN_OR_RETURN(lhs, expr) \
  ODF_HASH_ASSIGN_OR_RETURN_IMPL_(ODF_HASH_CONCAT_(odf_hash_result_, __LINE__), lhs, expr)
