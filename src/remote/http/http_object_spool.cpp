// HttpObjectReader (http_object.h): the whole object in temporary storage (spool_file.h),
// for servers that announce no size or serve no ranges.
#include "http_object.h"

#include <utility>

namespace odf_hash::remote::detail {

std::string HttpObjectReader::spool_limit_note(uint64_t limit) const {
  return std::to_string(limit) +
         " bytes, the most odf-hash reads whole into temporary storage "
         "(ODF_HASH_HTTP_SPOOL_LIMIT)";
}

// Reads the current transfer's whole body (from its first byte, the headers read) into a
// new spool of at most `limit` bytes; then size_ is its length and read()/read_at() serve
// the spool. A transfer that breaks starts again from the first byte (such a server has
// no ranges to resume). A body going on past `limit` is an error naming the spool limit,
// or with `larger` set, *larger = true and nothing to read.
Status HttpObjectReader::spool_stream(uint64_t limit, bool* larger) {
  ODF_HASH_ASSIGN_OR_RETURN(spool_, SpoolFile::create(name_));
  for (;;) {
    size_ = limit;  // take_body's bound while spooling
    spooling_ = true;
    spool_fault_ = Status::ok();
    if (buf_.size() > buf_off_) {  // bytes that came with the headers
      const size_t n = buf_.size() - buf_off_;
      if (n > limit) overflow_ = true;
      if (!overflow_) ODF_HASH_RETURN_IF_ERROR(spool_->append(buf_.data() + buf_off_, n));
    }
    buf_.clear();
    buf_off_ = 0;
    if (paused_) unpause();
    Status driven = drive([this] { return overflow_ || !spool_fault_.is_ok(); });
    spooling_ = false;
    if (!driven.is_ok()) return driven;
    if (!spool_fault_.is_ok()) {
      stop();
      return spool_fault_;
    }
    if (overflow_ && larger != nullptr) {
      stop();
      spool_.reset();
      *larger = true;
      return Status::ok();
    }
    if (overflow_) {
      stop();
      return Status::io_error(name_ +
                              ": the server does not announce the object's size (no "
                              "Content-Length), and its body goes on past " +
                              spool_limit_note(limit));
    }
    if (done_ && result_ == CURLE_OK) break;
    if (!is_transient(result_) || attempts_ >= client_->options().max_attempts) {
      const std::string error = transfer_error(name_, result_, errbuf_);
      stop();
      return Status::io_error(error + attempts_note(attempts_));
    }
    ODF_HASH_RETURN_IF_ERROR(spool_->clear());
    ODF_HASH_RETURN_IF_ERROR(connect_with_retries(0));
  }
  stop();
  size_ = spool_->size();
  spooled_at_open_ = true;
  spool_ready_.store(true, std::memory_order_release);
  return Status::ok();
}

// For read_at on a server that ignores Range: the whole object (size_ bytes, a fresh GET
// on a pooled handle) into a spool, once; concurrent callers wait for the first.
Status HttpObjectReader::spool_whole() {
  std::lock_guard<std::mutex> lock(spool_mu_);
  if (spool_ready_.load(std::memory_order_acquire)) return Status::ok();
  ODF_HASH_ASSIGN_OR_RETURN(const uint64_t limit, spool_limit());
  if (size_ > limit) {
    return Status::io_error(name_ +
                            ": the server ignores Range requests, which random access needs, "
                            "and the object's " +
                            std::to_string(size_) + " bytes are more than " +
                            spool_limit_note(limit));
  }
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<SpoolFile> file, SpoolFile::create(name_));
  Status last;
  for (unsigned attempt = 1;; ++attempt) {
    if (attempt > client_->options().max_attempts) {
      return Status::io_error(last.message() + attempts_note(attempt - 1));
    }
    client_->backoff(attempt);
    ODF_HASH_RETURN_IF_ERROR(file->clear());
    WholeSink sink{file.get(), size_, {}, false, Status::ok()};
    char errbuf[CURL_ERROR_SIZE];
    CURL* easy = client_->acquire(url_, &sink.headers, errbuf, /*stall_guard=*/true);
    if (easy == nullptr) return Status::io_error(name_ + ": cannot start a request");
    CurlList request;
    request.add(headers_sent_);
    curl().easy_setopt(easy, CURLOPT_HTTPHEADER, request.get());
    curl().easy_setopt(easy, CURLOPT_WRITEFUNCTION, &WholeSink::on_body);
    curl().easy_setopt(easy, CURLOPT_WRITEDATA, &sink);
    const CURLcode code = curl().easy_perform(easy);
    client_->release(easy);
    if (!sink.fault.is_ok()) return Status::io_error(name_ + ": " + sink.fault.message());
    if (Outcome o = judge_headers(sink.headers, code, &last); o != Outcome::kOk) {
      if (o == Outcome::kRetry) continue;
      return last;
    }
    if (code == CURLE_OK) {
      if (file->size() != size_) {
        return Status::io_error(name_ +
                                ": the object changed while being read (its whole body is now " +
                                std::to_string(file->size()) + " bytes)");
      }
      break;
    }
    last = Status::io_error(transfer_error(name_, code, errbuf));
    if (!is_transient(code)) return last;
  }
  spool_ = std::move(file);
  spool_ready_.store(true, std::memory_order_release);
  return Status::ok();
}

}  // namespace odf_hash::remote::detail
