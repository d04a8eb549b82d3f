// One HTTP(S) object opened for reading (HttpStore::open in http_store.cpp), its members
// defined by read strategy:
//   http_object_stream.cpp  the first GET and sequential reads (one streamed transfer);
//   http_object_range.cpp   random access (range GETs) and the size probe (a one-byte range);
//   http_object_spool.cpp   the whole object in temporary storage when ranges or sizes fail.
//
// A sequential read is one streamed GET driven from the reading thread (libcurl's multi
// interface): bytes are handed to the caller as they arrive, at most kMaxBuffered wait in
// memory (the transfer is paused beyond that), and the stall clock runs only while the
// reader waits for bytes, so a slow consumer (hashing) is never mistaken for a slow server.
// A transfer that breaks resumes from the next byte (Range, If-Range on the validator of
// the first response). read_at is a blocking range GET on a handle of the shared pool,
// written straight into the caller's buffer.
//
// Servers that announce no size or serve no ranges (a kamu node answers data files with a
// chunked body, no Content-Length, and ignores Range): a sequential read bounded by the size
// the caller expects (a recorded size) streams as usual, the body must end exactly there.
// Random access needs the size and ranges, so an object whose size nobody knows is sized by
// a one-byte range (its Content-Range total) when the server says "Accept-Ranges: bytes",
// else read whole into anonymous temporary storage when opened (spool_file.h), and an object whose
// server ignores Range is read whole there on the first read_at that finds out; both at
// most spool_limit() bytes, with a message naming the limit beyond it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "curl_client.h"
#include "http_sinks.h"
#include "odf_hash/io/store.h"
#include "spool_file.h"

namespace odf_hash::remote::detail {

using Clock = std::chrono::steady_clock;

// Received bytes a streamed object may hold before the reader takes them.
constexpr size_t kMaxBuffered = 1 << 20;
// Without a Content-Length, an object the caller bounds by at most this (a ref, a block) is
// read whole when opened, so that its size is known.
constexpr uint64_t kReadWholeLimit = 64u << 20;

// " (N attempts)" after an error, when more than one GET was tried.
std::string attempts_note(unsigned attempts);

// The validator for If-Range: a strong ETag, else Last-Modified, else none.
std::string validator_of(const ResponseHeaders& h);

class HttpObjectReader final : public ObjectReader {
 public:
  enum class Outcome { kOk, kRetry, kFatal };

  // `url` is requested; `name` (without its user information) is what messages show.
  // `headers` ("Name: value") go with every request (HttpOptions::headers).
  HttpObjectReader(std::shared_ptr<CurlClient> client, std::string url, std::string name,
                   std::vector<std::string> headers = {})
      : client_(std::move(client)),
        url_(std::move(url)),
        name_(std::move(name)),
        headers_sent_(std::move(headers)) {}
  ~HttpObjectReader() override {
    stop();
    if (multi_ != nullptr) curl().multi_cleanup(multi_);
  }

  // The first GET, up to its headers: fills `info`; `*read` false when the object is
  // larger than max_size (then nothing more is fetched).
  Status begin(uint64_t max_size, ObjectInfo* info, bool* readable);

  const std::string& name() const noexcept override { return name_; }
  uint64_t size() const noexcept override { return size_; }

  // With nothing buffered, libcurl's chunks are copied straight into `out` (those beyond n
  // wait in the reader's buffer for the next call).
  Result<size_t> read(uint8_t* out, size_t n) override;

  Result<size_t> read_at(uint64_t offset, uint8_t* out, size_t n) override;

 private:
  // The headers of a finished blocking GET (a range read, the whole object into the spool):
  // kOk to look at the body and curl's code; else *error says why, kRetry when asking again
  // may help (a 5xx, 408, 429).
  Outcome judge_headers(const ResponseHeaders& h, CURLcode code, Status* error) const;

  static size_t on_body(char* data, size_t size, size_t nitems, void* user);

  size_t take_body(const char* data, size_t n);

  void unpause();

  void stop();

  // Makes received bytes wait in buf_ or the direct read's buffer (true), or finds the end of
  // the object (false): drives the transfer, resumes a broken one.
  Result<bool> fill();
  bool have_bytes() const noexcept { return buf_.size() > buf_off_ || direct_got_ > 0; }

  // Runs the current transfer until `enough()` or its end; a stall of read_timeout_s ends
  // it as a timeout.
  template <typename Pred>
  Status drive(Pred enough) {
    const auto stall = std::chrono::duration<double>(client_->options().read_timeout_s);
    while (easy_ != nullptr && !done_ && !enough()) {
      int running = 0;
      CURLMcode mc = curl().multi_perform(multi_, &running);
      if (mc != CURLM_OK) {
        return Status::io_error(name_ + ": " + curl().multi_strerror(mc));
      }
      int queued = 0;
      while (CURLMsg* msg = curl().multi_info_read(multi_, &queued)) {
        if (msg->msg == CURLMSG_DONE) {
          done_ = true;
          result_ = msg->data.result;
        }
      }
      if (done_ || enough()) break;
      if (client_->cancelled()) {  // a paused transfer calls no progress callback
        done_ = true;
        result_ = CURLE_ABORTED_BY_CALLBACK;
        std::snprintf(errbuf_, sizeof errbuf_, "cancelled");
        curl().multi_remove_handle(multi_, easy_);
        break;
      }
      // The minimum rate: every window of read_timeout_s (while not paused by us) must bring
      // kMinBytesPerSecond on average, so a server dripping a byte a second cannot hold a
      // transfer open forever.
      if (!paused_ && Clock::now() - window_start_ > stall) {
        const double timeout = client_->options().read_timeout_s;
        if (window_bytes_ >= static_cast<uint64_t>(kMinBytesPerSecond * timeout)) {
          window_start_ = Clock::now();
          window_bytes_ = 0;
        } else {
          done_ = true;
          result_ = CURLE_OPERATION_TIMEDOUT;
          if (window_bytes_ == 0) {
            std::snprintf(errbuf_, sizeof errbuf_, "no byte received for %.1f s", timeout);
          } else {
            std::snprintf(errbuf_, sizeof errbuf_,
                          "%llu bytes received in %.1f s, below the minimum rate of %ld bytes/s",
                          static_cast<unsigned long long>(window_bytes_), timeout,
                          kMinBytesPerSecond);
          }
          curl().multi_remove_handle(multi_, easy_);
          break;
        }
      }
      curl().multi_poll(multi_, nullptr, 0, 100, nullptr);
    }
    return Status::ok();
  }

  // The object's size from the Content-Range of a one-byte range GET, validated as the
  // stream's (If-Range); nullopt when the answer gives none (then the object is spooled).
  std::optional<uint64_t> size_from_range();

  std::string spool_limit_note(uint64_t limit) const;

  // Reads the current transfer's whole body (from its first byte, the headers read) into a
  // new spool of at most `limit` bytes; then size_ is its length and read()/read_at() serve
  // the spool. A transfer that breaks starts again from the first byte (such a server has
  // no ranges to resume). A body going on past `limit` is an error naming the spool limit,
  // or with `larger` set, *larger = true and nothing to read.
  Status spool_stream(uint64_t limit, bool* larger = nullptr);

  // For read_at on a server that ignores Range: the whole object (size_ bytes, a fresh GET
  // on a pooled handle) into a spool, once; concurrent callers wait for the first.
  Status spool_whole();

  // One GET from `offset`, up to its headers.
  Outcome connect(uint64_t offset, Status* error);

  // Decides from the response's headers alone what a GET from request_offset_ got, before
  // any body byte is taken (take_body calls it at the first one; connect when the headers
  // end without a body): a resume answered 200 with the whole object (a server without
  // Range support) must drop the bytes already hashed, not append them.
  void classify();

  Status connect_with_retries(uint64_t offset);

  std::shared_ptr<CurlClient> client_;
  std::string url_;
  std::string name_;
  std::vector<std::string> headers_sent_;  // with every request ("Name: value")
  uint64_t size_ = 0;
  uint64_t pos_ = 0;  // bytes handed to the caller by read()
  std::string validator_;
  unsigned attempts_ = 0;  // GETs started for the stream, in all

  // The current transfer.
  CURLM* multi_ = nullptr;
  CURL* easy_ = nullptr;
  CurlList request_;
  char errbuf_[CURL_ERROR_SIZE] = {};
  ResponseHeaders headers_;
  bool done_ = false;
  CURLcode result_ = CURLE_OK;
  bool paused_ = false;
  bool overflow_ = false;
  bool read_whole_ = false;
  uint64_t transfer_start_ = 0;     // object offset of the transfer's first kept byte
  uint64_t received_ = 0;           // bytes of the object the transfer delivered
  uint64_t skip_ = 0;               // leading body bytes to drop (a resume answered in full)
  uint64_t request_offset_ = 0;     // where the current GET asked to start
  bool classified_ = false;         // classify() ran for the current response
  Outcome verdict_ = Outcome::kOk;  // what classify() decided, and why when not kOk
  Status verdict_error_;
  Clock::time_point window_start_;  // the minimum-rate window (drive)
  uint64_t window_bytes_ = 0;       // body bytes taken in it
  std::vector<uint8_t> buf_;        // received, not yet read: buf_[buf_off_..]
  size_t buf_off_ = 0;
  // During a read() that found buf_ empty: the caller's buffer, which the body's bytes go to
  // first (libcurl's chunk copied once), those beyond its room to buf_.
  uint8_t* direct_ = nullptr;
  size_t direct_room_ = 0;
  size_t direct_got_ = 0;

  // The whole object in temporary storage (see the top of this file).
  std::unique_ptr<SpoolFile> spool_;  // set once, before spool_ready_
  std::atomic<bool> spool_ready_{false};
  std::mutex spool_mu_;           // one spool_whole() at a time
  bool spooled_at_open_ = false;  // read() serves the spool too
  bool spooling_ = false;         // take_body writes to spool_
  Status spool_fault_;
};

}  // namespace odf_hash::remote::detail
