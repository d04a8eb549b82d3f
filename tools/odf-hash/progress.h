// The progress line on stderr while a long file is hashed:
//   \r<name>: 1.2 GiB / 4.0 GiB (30%) 540 MB/s
// Shown only when stderr is a terminal and only for a file that has taken more than a
// second; one file owns the line at a time (the first to cross the second), and the line
// is erased when that file is done or before a result line is printed.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

#include "odf_hash/core/text.h"
#include "odf_hash/io/physical.h"

namespace odf_hash::cli {

class ProgressDisplay {
 public:
  // enabled=false makes every call a no-op (non-terminal stderr, --status, --no-progress).
  explicit ProgressDisplay(bool enabled) : enabled_(enabled) {}
  ProgressDisplay(const ProgressDisplay&) = delete;
  ProgressDisplay& operator=(const ProgressDisplay&) = delete;

  // True when stderr is a terminal.
  static bool stderr_is_terminal();

  // A callback for physical_hash_file() reporting on `name`; empty when disabled. Call
  // finish(name) after the hash returns.
  ProgressFn callback_for(const std::string& name);
  void finish(const std::string& name);

  // Erases the line if one is shown (call before writing to stdout or stderr).
  void clear();

 private:
  void draw_locked(const std::string& name, uint64_t done, uint64_t total, double seconds);
  void clear_locked();

  bool enabled_;
  std::mutex mu_;
  std::string owner_;  // name whose progress is on screen; empty when none
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_draw_{};
};

using odf_hash::format_bytes;  // "1.2 GiB", "512 B" (text.h)

}  // namespace odf_hash::cli
