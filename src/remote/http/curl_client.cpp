// libcurl set-up shared by the HTTP store's requests (curl_client.h).
#include "curl_client.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <thread>

#include "odf_hash/core/text.h"

namespace odf_hash::remote {

namespace {

// A response whose headers exceed this is not an object store's: refused, never buffered.
constexpr uint64_t kMaxHeaderBytes = 256 * 1024;
constexpr long kMaxRedirects = 8;
constexpr long kReceiveBuffer = 256 * 1024;  // CURLOPT_BUFFERSIZE (see acquire)

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

bool is_https(std::string_view url) {
  return url.size() >= 8 && iequals(url.substr(0, 8), "https://");
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) {
    s.remove_suffix(1);
  }
  return s;
}

std::optional<uint64_t> parse_u64(std::string_view s) {
  uint64_t v = 0;
  if (s.empty()) return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<ContentRange> parse_content_range(std::string_view v) {
  if (v.substr(0, 6) != "bytes ") return std::nullopt;
  v.remove_prefix(6);
  size_t dash = v.find('-'), slash = v.find('/');
  if (dash == v.npos || slash == v.npos || slash < dash) return std::nullopt;
  auto start = parse_u64(v.substr(0, dash));
  auto end = parse_u64(v.substr(dash + 1, slash - dash - 1));
  if (!start || !end || *end < *start) return std::nullopt;
  ContentRange r{*start, *end, std::nullopt};
  std::string_view total = v.substr(slash + 1);
  if (total != "*") {
    r.total = parse_u64(total);
    if (!r.total) return std::nullopt;
  }
  return r;
}

// Non-zero aborts the transfer (CURLE_ABORTED_BY_CALLBACK) once HttpOptions::cancel (may be
// null) or the flag of the transferring thread's CancelScope is set.
int cancel_callback(void* flag, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return cancel_requested(static_cast<const CancelFlag*>(flag)) || CancelScope::requested() ? 1 : 0;
}

size_t header_callback(char* data, size_t size, size_t nitems, void* user) {
  auto* h = static_cast<ResponseHeaders*>(user);
  const size_t n = size * nitems;
  h->header_bytes += n;
  if (h->header_bytes > kMaxHeaderBytes) {
    h->too_many_header_bytes = true;
    return 0;  // aborts the transfer
  }
  h->add_line(data, n);
  return n;
}

}  // namespace

void ResponseHeaders::add_line(const char* data, size_t size) {
  std::string_view line(data, size);
  if (line.substr(0, 5) == "HTTP/") {
    // A new response (the first, or the one after a redirect or a 100 Continue).
    const uint64_t bytes = header_bytes;
    *this = ResponseHeaders{};
    header_bytes = bytes;
    size_t sp = line.find(' ');
    if (sp != line.npos) {
      auto code = parse_u64(trim(line.substr(sp + 1, 3)));
      status = code ? static_cast<long>(*code) : 0;
    }
    return;
  }
  if (trim(line).empty()) {
    complete = status >= 200 && !(status >= 300 && status < 400);
    return;
  }
  size_t colon = line.find(':');
  if (colon == line.npos) return;
  std::string_view name = trim(line.substr(0, colon));
  std::string_view value = trim(line.substr(colon + 1));
  if (iequals(name, "content-length")) {
    content_length = parse_u64(value);
  } else if (iequals(name, "content-range")) {
    content_range = parse_content_range(value);
  } else if (iequals(name, "etag")) {
    etag = std::string(value);
  } else if (iequals(name, "last-modified")) {
    last_modified = std::string(value);
  } else if (iequals(name, "content-encoding")) {
    content_encoding = std::string(value);
  } else if (iequals(name, "content-type")) {
    content_type = std::string(value);
  } else if (iequals(name, "accept-ranges")) {
    accepts_ranges = iequals(value, "bytes");
  } else if (iequals(name, "transfer-encoding")) {
    // "chunked" is always the last coding when present (RFC 9112, 6.1).
    chunked = value.size() >= 7 && iequals(value.substr(value.size() - 7), "chunked");
  }
}

CurlClient::CurlClient(HttpOptions options) : options_(options) {
  // As the curl tool does: $CURL_CA_BUNDLE names the certificates that https servers are
  // checked against (a private CA), instead of the system's.
  if (const char* ca = std::getenv("CURL_CA_BUNDLE"); ca != nullptr && ca[0] != '\0') {
    ca_bundle_ = ca;
  }
  share_ = curl().share_init();
  if (share_ != nullptr) {
    curl().share_setopt(
        share_, CURLSHOPT_LOCKFUNC, +[](CURL*, curl_lock_data data, curl_lock_access, void* user) {
          static_cast<CurlClient*>(user)->share_locks_[data].lock();
        });
    curl().share_setopt(
        share_, CURLSHOPT_UNLOCKFUNC, +[](CURL*, curl_lock_data data, void* user) {
          static_cast<CurlClient*>(user)->share_locks_[data].unlock();
        });
    curl().share_setopt(share_, CURLSHOPT_USERDATA, this);
    curl().share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl().share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
  }
}

CurlClient::~CurlClient() {
  for (CURL* e : pool_) curl().easy_cleanup(e);
  if (share_ != nullptr) curl().share_cleanup(share_);
}

CURL* CurlClient::acquire(const std::string& url, ResponseHeaders* headers, char* errbuf,
                          bool stall_guard) {
  CURL* easy = nullptr;
  {
    std::lock_guard<std::mutex> lock(pool_mu_);
    if (!pool_.empty()) {
      easy = pool_.back();
      pool_.pop_back();
    }
  }
  if (easy == nullptr) {
    easy = curl().easy_init();
    if (easy == nullptr) return nullptr;
  } else {
    curl().easy_reset(easy);  // keeps the handle's connections for reuse
  }
  errbuf[0] = '\0';
  curl().easy_setopt(easy, CURLOPT_URL, url.c_str());
  curl().easy_setopt(easy, CURLOPT_ERRORBUFFER, errbuf);
  curl().easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl().easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 1L);
  curl().easy_setopt(easy, CURLOPT_MAXREDIRS, kMaxRedirects);
  curl().easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
  // Never leave https for http: refs/head is not content-addressed, so a network attacker
  // answering a downgraded request could roll a dataset back. A redirect from https to http
  // then fails as CURLE_UNSUPPORTED_PROTOCOL (transfer_error names it).
  curl().easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, is_https(url) ? "https" : "http,https");
  curl().easy_setopt(easy, CURLOPT_USERAGENT, "odf-hash/0.1");
  if (!ca_bundle_.empty()) curl().easy_setopt(easy, CURLOPT_CAINFO, ca_bundle_.c_str());
  if (!options_.bearer_token.empty()) {
    curl().easy_setopt(easy, CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_BEARER));
    curl().easy_setopt(easy, CURLOPT_XOAUTH2_BEARER, options_.bearer_token.c_str());
  }
  curl().easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
  // Receive 256 KiB per read of the socket, not libcurl's 16 KiB: a sixteenth of the
  // system calls and callbacks on a fast link (curl's own tool uses 100 KiB); bench/fetch.sh.
  curl().easy_setopt(easy, CURLOPT_BUFFERSIZE, kReceiveBuffer);
  curl().easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(std::ceil(options_.connect_timeout_s * 1000)));
  if (stall_guard) {
    curl().easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, kMinBytesPerSecond);
    curl().easy_setopt(easy, CURLOPT_LOW_SPEED_TIME,
                       std::max(1L, static_cast<long>(std::ceil(options_.read_timeout_s))));
  }
  // libcurl calls this at least once a second, and on every poll of a waiting transfer.
  curl().easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
  curl().easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, cancel_callback);
  curl().easy_setopt(easy, CURLOPT_XFERINFODATA, options_.cancel);
  curl().easy_setopt(easy, CURLOPT_HEADERFUNCTION, header_callback);
  curl().easy_setopt(easy, CURLOPT_HEADERDATA, headers);
  if (share_ != nullptr) curl().easy_setopt(easy, CURLOPT_SHARE, share_);
  return easy;
}

void CurlClient::release(CURL* easy) {
  if (easy == nullptr) return;
  std::lock_guard<std::mutex> lock(pool_mu_);
  if (pool_.size() < 64) {
    pool_.push_back(easy);
  } else {
    curl().easy_cleanup(easy);
  }
}

void CurlClient::backoff(unsigned attempt) const {
  if (attempt < 2) return;
  const double seconds = std::min(4.0, 0.25 * std::pow(2.0, static_cast<double>(attempt - 2)));
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!cancelled() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

bool is_transient(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_SSL_CONNECT_ERROR: return true;
    default: return false;
  }
}

bool is_transient_status(long status) {
  return status >= 500 || status == 408 || status == 429;
}

std::string transfer_error(const std::string& url, CURLcode code, const char* errbuf) {
  std::string s = url + ": ";
  if (code == CURLE_TOO_MANY_REDIRECTS) {
    return s + "too many redirects (at most " + std::to_string(kMaxRedirects) + " are followed)";
  }
  if (code == CURLE_UNSUPPORTED_PROTOCOL && is_https(url)) {
    return s +
           "the server redirected to a URL that is not https; an https:// dataset is never "
           "read over plain http (or any other scheme)";
  }
  s += curl().easy_strerror(code);
  if (errbuf != nullptr && errbuf[0] != '\0') {
    std::string detail(errbuf);
    while (!detail.empty() && (detail.back() == '\n' || detail.back() == '\r')) detail.pop_back();
    s += " (" + redact_url(detail) + ")";
  }
  return s;
}

Status status_error(const std::string& url, long status) {
  const std::string code = "HTTP " + std::to_string(status);
  if (status == 404 || status == 410) return Status::not_found(url + ": not found (" + code + ")");
  if (status == 401 || status == 403) {
    return Status::io_error(url + ": access denied (" + code + ")");
  }
  if (status >= 300 && status < 400) {
    return Status::io_error(url + ": a redirect without a usable Location (" + code + ")");
  }
  return Status::io_error(url + ": the server answered " + code);
}

std::string range_header(uint64_t start, std::optional<uint64_t> end) {
  std::string s = "Range: bytes=" + std::to_string(start) + "-";
  if (end) s += std::to_string(*end);
  return s;
}

}  // namespace odf_hash::remote
