// The progress line on stderr while a long file is hashed:
//   \r<name>: 1.2 GiB / 4.0 GiB (30%) 540 MB/s
// Shown only when stderr is a terminal and only for a file that has taken more than a
// second; one file owns the line at a time (the first to cross the second), and the line
// is erased when that file is done or before a result line is printed.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "odf_hash/core/text.h"
#include "odf_hash/io/physical.h"
#include "odf_hash/io/read_counter.h"

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

// A progress line fed by a ReadCounter (io/read_counter.h): for work that reads its objects
// more than once, or in pieces (compare, logical), drawn by a thread of its own every 200 ms
// after the first second, as ProgressDisplay draws it ("compare: 1.2 GiB 540 MB/s"; with a
// total: "/ 4.0 GiB (30%)", the count held at the total), and erased when destroyed.
// Disabled (nothing started) unless `enabled`.
class ReadProgress {
 public:
  ReadProgress(bool enabled, std::string name, std::shared_ptr<ReadCounter> counter,
               uint64_t total = 0);
  ReadProgress(const ReadProgress&) = delete;
  ReadProgress& operator=(const ReadProgress&) = delete;
  ~ReadProgress();

 private:
  ProgressDisplay display_;
  std::string name_;
  std::shared_ptr<ReadCounter> counter_;
  uint64_t total_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

// "\r<verb> <name>: 3/7 files, 1.2/4.5 MiB" on stderr for work over many files (verify,
// fetch), at most ten times a second (the last file always drawn), erased when destroyed.
// `name` is escaped here.
class FilesProgressLine {
 public:
  FilesProgressLine(std::string verb, const std::string& name);
  ~FilesProgressLine();
  FilesProgressLine(const FilesProgressLine&) = delete;
  FilesProgressLine& operator=(const FilesProgressLine&) = delete;
  void update(uint64_t files_done, uint64_t files_total, uint64_t bytes_done, uint64_t bytes_total);

 private:
  std::string verb_, name_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_;
};

using odf_hash::format_bytes;  // "1.2 GiB", "512 B" (text.h)

}  // namespace odf_hash::cli
