// A C Data Interface struct (ArrowSchema, ArrowArray, ArrowArrayStream) owned by a scope:
// released when it ends (io and the layers above it; not installed).
#pragma once

namespace odf_hash::io_internal {

template <typename T>
struct Owned {
  T value{};
  Owned() = default;
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  ~Owned() { reset(); }
  // Releases the struct (if live) and leaves it empty, ready to be filled again.
  void reset() {
    if (value.release != nullptr) value.release(&value);
    value = T{};
  }
};

}  // namespace odf_hash::io_internal
