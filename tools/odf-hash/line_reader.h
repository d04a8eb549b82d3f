// Reads a text file ("-" = standard input) line by line in constant memory, for check lists
// that may be endless (`yes ... | odf-hash physical --check -`) or not text at all
// (`--check /dev/zero`): a line longer than kMaxLineBytes is reported as too long and skipped
// to its end, never held whole.
#pragma once

#include <cstddef>
#include <string>

#include "odf_hash/core/status.h"

namespace odf_hash::cli {

class LineReader {
 public:
  static constexpr size_t kMaxLineBytes = 1 << 20;

  LineReader() = default;
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // Opens `path`; the error names it.
  Status open(const std::string& path);

  // The next line, without its "\n", in `line`; `too_long` is set when the line was longer
  // than kMaxLineBytes (then `line` holds its first kMaxLineBytes bytes). False at the end of
  // the input; an error when reading fails.
  Result<bool> next(std::string& line, bool& too_long);

 private:
  Result<bool> fill();  // reads more input into buf_; false at the end

  std::string path_;
  int fd_ = -1;
  bool own_fd_ = false;
  bool eof_ = false;
  std::string buf_;
  size_t pos_ = 0;
};

}  // namespace odf_hash::cli
