#include "progress.h"

#include "odf_hash/core/text.h"
#include "odf_hash/io/physical.h"
#include "output.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <utility>

#include "odf_hash/core/parallel.h"

namespace odf_hash::cli {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kDelay = std::chrono::seconds(1);
constexpr auto kRedrawEvery = std::chrono::milliseconds(200);

}  // namespace

bool ProgressDisplay::stderr_is_terminal() {
  return ::isatty(STDERR_FILENO) == 1;
}

ProgressFn ProgressDisplay::callback_for(const std::string& name) {
  if (!enabled_) return {};
  auto start = Clock::now();
  return [this, name, start](uint64_t done, uint64_t total) {
    auto now = Clock::now();
    if (now - start < kDelay) return true;
    std::lock_guard<std::mutex> lock(mu_);
    if (!owner_.empty() && owner_ != name) return true;
    owner_ = name;
    if (shown_ && now - last_draw_ < kRedrawEvery) return true;
    last_draw_ = now;
    draw_locked(name, done, total, std::chrono::duration<double>(now - start).count());
    return true;
  };
}

void ProgressDisplay::draw_locked(const std::string& name, uint64_t done, uint64_t total,
                                  double seconds) {
  std::string line = "\r" + escape_text(name) + ": " + format_bytes(done);
  if (total > 0) {
    line += " / " + format_bytes(total);
    char pct[16];
    std::snprintf(pct, sizeof pct, " (%d%%)", static_cast<int>(100.0 * done / total));
    line += pct;
  }
  if (seconds > 0) {
    char rate[32];
    std::snprintf(rate, sizeof rate, " %.0f MB/s", done / seconds / 1e6);
    line += rate;
  }
  line += "\x1b[K";  // erase the rest of a previous, longer line
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
  shown_ = true;
}

void ProgressDisplay::clear_locked() {
  if (!shown_) return;
  std::fputs("\r\x1b[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

void ProgressDisplay::finish(const std::string& name) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (owner_ != name) return;
  clear_locked();
  owner_.clear();
}

void ProgressDisplay::clear() {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mu_);
  clear_locked();
}

ReadProgress::ReadProgress(bool enabled, std::string name, std::shared_ptr<ReadCounter> counter,
                           uint64_t total)
    : display_(enabled && counter != nullptr),
      name_(std::move(name)),
      counter_(std::move(counter)),
      total_(total) {
  ProgressFn draw = display_.callback_for(name_);
  if (!draw) return;
  std::optional<std::thread> t = try_thread([this, draw] {
    std::unique_lock<std::mutex> lock(mu_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop_; })) {
      uint64_t done = counter_->bytes.load(std::memory_order_relaxed);
      if (total_ > 0) done = std::min(done, total_);
      draw(done, total_);
    }
  });
  if (t) thread_ = std::move(*t);
}

ReadProgress::~ReadProgress() {
  if (thread_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  display_.finish(name_);
}

FilesProgressLine::FilesProgressLine(std::string verb, const std::string& name)
    : verb_(std::move(verb)), name_(escape_text(name)) {}

FilesProgressLine::~FilesProgressLine() {
  if (shown_) std::fputs("\r\033[K", stderr);
}

void FilesProgressLine::update(uint64_t files_done, uint64_t files_total, uint64_t bytes_done,
                               uint64_t bytes_total) {
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(100) && files_done != files_total) {
    return;
  }
  last_ = now;
  shown_ = true;
  std::fprintf(stderr, "\r\033[K%s %s: %llu/%llu files, %.1f/%.1f MiB", verb_.c_str(),
               name_.c_str(), static_cast<unsigned long long>(files_done),
               static_cast<unsigned long long>(files_total), bytes_done / 1048576.0,
               bytes_total / 1048576.0);
  std::fflush(stderr);
}

}  // namespace odf_hash::cli
