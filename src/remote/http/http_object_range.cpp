// HttpObjectReader (http_object.h): random access by range GETs on the shared pool, and the
// size of an object nobody announced, from a one-byte range.
#include "http_object.h"

#include <algorithm>
#include <limits>

namespace odf_hash::remote::detail {

Result<size_t> HttpObjectReader::read_at(uint64_t offset, uint8_t* out, size_t n) {
  if (offset >= size_ || n == 0) return size_t{0};
  n = static_cast<size_t>(std::min<uint64_t>(n, size_ - offset));
  if (spool_ready_.load(std::memory_order_acquire)) return spool_->read_at(offset, out, n);
  size_t got = 0;
  Status last;
  for (unsigned attempt = 1; got < n; ++attempt) {
    if (attempt > client_->options().max_attempts) {
      return Status::io_error(last.message() + attempts_note(attempt - 1));
    }
    client_->backoff(attempt);
    RangeSink sink{out + got, n - got, offset + got, size_};
    char errbuf[CURL_ERROR_SIZE];
    CURL* easy = client_->acquire(url_, &sink.headers, errbuf, /*stall_guard=*/true);
    if (easy == nullptr) return Status::io_error(name_ + ": cannot start a request");
    CurlList request;
    request.add(headers_sent_);
    request.add(range_header(offset + got, offset + n - 1));
    if (!validator_.empty()) request.add("If-Range: " + validator_);
    curl().easy_setopt(easy, CURLOPT_HTTPHEADER, request.get());
    curl().easy_setopt(easy, CURLOPT_WRITEFUNCTION, &RangeSink::on_body);
    curl().easy_setopt(easy, CURLOPT_WRITEDATA, &sink);
    const CURLcode code = curl().easy_perform(easy);
    client_->release(easy);
    got += sink.got;
    if (sink.ignores_range) {
      // No random access from this server: the object is read whole, once, and every
      // range is served from that copy.
      ODF_HASH_RETURN_IF_ERROR(spool_whole());
      return spool_->read_at(offset, out, n);
    }
    if (!sink.fault.is_ok()) return sink.fault;
    if (Outcome o = judge_headers(sink.headers, code, &last); o != Outcome::kOk) {
      if (o == Outcome::kRetry) continue;
      return last;
    }
    if (code == CURLE_OK || (code == CURLE_WRITE_ERROR && sink.full)) {
      if (sink.got < sink.wanted) last = Status::io_error(name_ + ": a range ended early");
      continue;  // done when got == n, else asks for the rest
    }
    last = Status::io_error(transfer_error(name_, code, errbuf));
    if (!is_transient(code)) return last;
  }
  return got;
}

// The headers of a finished blocking GET (a range read, the whole object into the spool):
// kOk to look at the body and curl's code; else *error says why, kRetry when asking again
// may help (a 5xx, 408, 429).
HttpObjectReader::Outcome HttpObjectReader::judge_headers(const ResponseHeaders& h, CURLcode code,
                                                          Status* error) const {
  if (h.too_many_header_bytes) {
    *error = Status::io_error(name_ + ": response headers over 256 KiB");
    return Outcome::kFatal;
  }
  if (!h.complete && code == CURLE_OK) {
    *error = status_error(name_, h.status);
    return Outcome::kFatal;
  }
  if (h.complete && !is_success(h.status)) {
    *error = status_error(name_, h.status);
    return is_transient_status(h.status) ? Outcome::kRetry : Outcome::kFatal;
  }
  return Outcome::kOk;
}

// The object's size from the Content-Range of a one-byte range GET, validated as the
// stream's (If-Range); nullopt when the answer gives none (then the object is spooled).
std::optional<uint64_t> HttpObjectReader::size_from_range() {
  uint8_t byte = 0;
  RangeSink sink{&byte, 1, 0, std::numeric_limits<uint64_t>::max()};
  char errbuf[CURL_ERROR_SIZE];
  CURL* easy = client_->acquire(url_, &sink.headers, errbuf, /*stall_guard=*/true);
  if (easy == nullptr) return std::nullopt;
  CurlList request;
  request.add(headers_sent_);
  request.add(range_header(0, 0));
  if (!validator_.empty()) request.add("If-Range: " + validator_);
  curl().easy_setopt(easy, CURLOPT_HTTPHEADER, request.get());
  curl().easy_setopt(easy, CURLOPT_WRITEFUNCTION, &RangeSink::on_body);
  curl().easy_setopt(easy, CURLOPT_WRITEDATA, &sink);
  (void)curl().easy_perform(easy);
  client_->release(easy);
  const auto& cr = sink.headers.content_range;
  if (sink.headers.status != 206 || !cr || cr->start != 0 || !cr->total) return std::nullopt;
  return cr->total;
}

}  // namespace odf_hash::remote::detail
