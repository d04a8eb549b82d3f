// Internal to remote: what every HTTP request of the HTTP store shares (libcurl set-up,
// response headers, the retry policy), so that http_store.cpp holds only the store and
// http_object*.cpp its object reader.
#pragma once

#include "curl_api.h"  // libcurl, loaded on first use

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "odf_hash/core/status.h"
#include "odf_hash/io/cancel.h"

namespace odf_hash::remote {

struct HttpOptions {
  double connect_timeout_s = 10;
  double read_timeout_s = 30;  // no byte for this long fails a request
  unsigned max_attempts = 4;   // per request, in all
  // Once set, transfers stop within ~100 ms (CURLE_ABORTED_BY_CALLBACK) and no new attempt
  // starts (cancel.h); null: never. A CancelScope on the requesting thread does the same.
  const std::atomic<bool>* cancel = nullptr;
  // Sent as "Authorization: Bearer <token>" when not empty (a kamu node's private dataset);
  // libcurl never sends it on to another host a redirect leads to.
  std::string bearer_token;
  // Appended as "?<query>" to every object's URL when not empty (a presigned download's
  // signature: the Smart Transfer Protocol's storage URLs); never shown in a message.
  std::string query;
  // Request headers ("Name: value") sent with every request when not empty: those a Smart
  // Transfer Protocol node names with a download (its storage may need them). Whoever fills
  // it checks them (smtp_store.cpp: header_fault); libcurl never sends a custom
  // Authorization or Cookie on to another host a redirect leads to.
  std::vector<std::string> headers;
};

// "Content-Range: bytes START-END/TOTAL" (TOTAL may be "*": unknown).
struct ContentRange {
  uint64_t start = 0;
  uint64_t end = 0;
  std::optional<uint64_t> total;
};

// The headers of the final response (those of redirects are dropped as the next ones come).
struct ResponseHeaders {
  long status = 0;
  std::optional<uint64_t> content_length;
  std::optional<ContentRange> content_range;
  std::string etag;
  std::string last_modified;
  std::string content_encoding;
  std::string content_type;     // as sent, parameters included
  bool chunked = false;         // Transfer-Encoding: chunked (the body's end is in the body)
  bool accepts_ranges = false;  // Accept-Ranges: bytes
  bool complete = false;  // the blank line ending a final (non-1xx, non-3xx) response's headers
  uint64_t header_bytes = 0;
  bool too_many_header_bytes = false;

  // Feeds one header line as libcurl hands it over (with its CR LF).
  void add_line(const char* data, size_t size);
};

// An easy handle, set up for one request: URL, timeouts, redirects (at most 8, http and
// https only), no compression asked, the shared DNS cache and TLS sessions, and the header
// callback filling `headers`. The caller sets its write callback and Range.
// The slowest a body may arrive: kMinBytesPerSecond on average over every window of
// read_timeout_s, else the attempt fails as a timeout (a server dripping a byte a second
// would otherwise hold a transfer open forever).
inline constexpr long kMinBytesPerSecond = 1024;

class CurlClient {
 public:
  explicit CurlClient(HttpOptions options);
  ~CurlClient();
  CurlClient(const CurlClient&) = delete;
  CurlClient& operator=(const CurlClient&) = delete;

  const HttpOptions& options() const noexcept { return options_; }

  // A handle from the pool (or a new one) set up for `url`; give it back with release().
  // `errbuf` (CURL_ERROR_SIZE bytes) receives curl's detail of a failure. `stall_guard`:
  // let libcurl fail a transfer slower than kMinBytesPerSecond over read_timeout_s (for
  // transfers that are never paused; a streamed body keeps its own clock, same rule).
  CURL* acquire(const std::string& url, ResponseHeaders* headers, char* errbuf, bool stall_guard);
  void release(CURL* easy);

  // Waits before attempt `attempt` (2, 3, ...): 0.25 s, 0.5 s, 1 s, ... at most 4 s; less
  // once options().cancel is set (the attempt then fails at once).
  void backoff(unsigned attempt) const;

  // Whether options().cancel, or the flag of this thread's CancelScope, was set.
  bool cancelled() const noexcept {
    return cancel_requested(options_.cancel) || CancelScope::requested();
  }

 private:
  HttpOptions options_;
  std::string ca_bundle_;  // $CURL_CA_BUNDLE when set
  CURLSH* share_ = nullptr;
  std::mutex share_locks_[CURL_LOCK_DATA_LAST];
  std::mutex pool_mu_;
  std::vector<CURL*> pool_;
};

// Request headers for CURLOPT_HTTPHEADER, freed with the list.
class CurlList {
 public:
  CurlList() = default;
  CurlList(const CurlList&) = delete;
  CurlList& operator=(const CurlList&) = delete;
  ~CurlList() { reset(); }
  void add(const std::string& line) {
    curl_slist* l = curl().slist_append(list_, line.c_str());
    if (l != nullptr) list_ = l;
  }
  void add(const std::vector<std::string>& lines) {
    for (const auto& line : lines) add(line);
  }
  void reset() {
    if (list_ != nullptr) curl().slist_free_all(list_);
    list_ = nullptr;
  }
  curl_slist* get() const { return list_; }

 private:
  curl_slist* list_ = nullptr;
};

// Whether an HTTP status is a success (2xx).
inline bool is_success(long status) {
  return status >= 200 && status < 300;
}

// Whether a failed transfer may succeed when tried again: timeouts, resets, a connection
// that closed early, a refused connection.
bool is_transient(CURLcode code);
// Whether an HTTP status may change when asked again: 5xx, 408, 429.
bool is_transient_status(long status);

// "<url>: <what went wrong>" for a transfer that failed with `code` (curl's own detail in
// `errbuf` when it has one).
std::string transfer_error(const std::string& url, CURLcode code, const char* errbuf);

// The error for a final response that is not a success: kNotFound for 404 / 410, an access
// denied kIoError for 401 / 403, kIoError otherwise.
Status status_error(const std::string& url, long status);

// "Range: bytes=START-" or "Range: bytes=START-END".
std::string range_header(uint64_t start, std::optional<uint64_t> end);

}  // namespace odf_hash::remote
