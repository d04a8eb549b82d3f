// The HTTP(S) object store (http_store.h); guarantees in open_store.h.
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
#include "http_store.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <utility>

#include "http_sinks.h"
#include "odf_hash/open_store.h"
#include "spool_file.h"

namespace odf_hash::remote {

namespace {

using Clock = std::chrono::steady_clock;

// Received bytes a streamed object may hold before the reader takes them.
constexpr size_t kMaxBuffered = 1 << 20;
// Without a Content-Length, an object the caller bounds by at most this (a ref, a block) is
// read whole when opened, so that its size is known.
constexpr uint64_t kReadWholeLimit = 64u << 20;

std::string encode_key(std::string_view key) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : key) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string attempts_note(unsigned attempts) {
  return attempts > 1 ? " (" + std::to_string(attempts) + " attempts)" : "";
}

// The validator for If-Range: a strong ETag, else Last-Modified, else none.
std::string validator_of(const ResponseHeaders& h) {
  if (!h.etag.empty() && h.etag.rfind("W/", 0) != 0) return h.etag;
  return h.last_modified;
}

// One object opened for reading.
class HttpObjectReader final : public ObjectReader {
 public:
  enum class Outcome { kOk, kRetry, kFatal };

  // `url` is requested; `name` (without its user information) is what messages show.
  HttpObjectReader(std::shared_ptr<CurlClient> client, std::string url, std::string name)
      : client_(std::move(client)), url_(std::move(url)), name_(std::move(name)) {}
  ~HttpObjectReader() override {
    stop();
    if (multi_ != nullptr) curl().multi_cleanup(multi_);
  }

  // The first GET, up to its headers: fills `info`; `*read` false when the object is
  // larger than max_size (then nothing more is fetched).
  Status begin(uint64_t max_size, ObjectInfo* info, bool* readable) {
    *readable = false;
    size_ = std::numeric_limits<uint64_t>::max();  // no bound on the first response yet
    ODF_HASH_RETURN_IF_ERROR(connect_with_retries(0));
    if (!headers_.content_encoding.empty() && headers_.content_encoding != "identity") {
      stop();
      return Status::io_error(name_ + ": the server sent the object encoded (Content-Encoding: " +
                              headers_.content_encoding + "), not its bytes");
    }
    validator_ = validator_of(headers_);
    info->kind = ObjectKind::kFile;
    if (headers_.content_length) {
      size_ = *headers_.content_length;
      info->size = size_;
      if (size_ > max_size) {
        stop();
        return Status::ok();
      }
    } else if (max_size <= kReadWholeLimit && max_size > kMaxBuffered) {
      // Read it whole now to learn its size (a shorter body is then a size mismatch, not a
      // cut transfer), into temporary storage: memory stays within kMaxBuffered per object
      // (a kamu node sends every data file this way).
      bool larger = false;
      ODF_HASH_RETURN_IF_ERROR(spool_stream(max_size + 1, &larger));
      if (larger) {
        info->size = max_size + 1;
        info->size_at_least = true;
        return Status::ok();
      }
      info->size = size_;
    } else if (max_size <= kReadWholeLimit) {
      // Read it whole now (at most max_size + 1 bytes, at most kMaxBuffered) to learn its
      // size.
      size_ = max_size + 1;
      read_whole_ = true;
      if (received_ > size_) overflow_ = true;  // bytes that came with the headers
      if (paused_) unpause();
      ODF_HASH_RETURN_IF_ERROR(drive([this] { return overflow_; }));
      read_whole_ = false;
      if (overflow_ || received_ > max_size) {
        // Larger than the caller's bound, as an object announcing a larger Content-Length:
        // no reader, and a size known only as a lower bound (refs/head of 5 KiB is then
        // head-invalid whether or not the server announced its length).
        stop();
        info->size = max_size + 1;
        info->size_at_least = true;
        return Status::ok();
      }
      if (result_ != CURLE_OK) {
        return Status::io_error(transfer_error(name_, result_, errbuf_));
      }
      size_ = received_;
      info->size = size_;
    } else if (max_size != std::numeric_limits<uint64_t>::max()) {
      // The caller knows the size it expects (a recorded size): the body must have it.
      size_ = max_size;
      info->size = size_;
      if (received_ > size_) overflow_ = true;  // bytes that came with the headers
    } else if (auto total = headers_.accepts_ranges ? size_from_range() : std::nullopt) {
      // A server that serves ranges tells the size in a range's Content-Range.
      size_ = *total;
      info->size = size_;
      if (received_ > size_) overflow_ = true;
    } else {
      // Neither the server nor the caller knows the size, which random access (Parquet)
      // needs: the body is read whole into temporary storage now.
      ODF_HASH_ASSIGN_OR_RETURN(const uint64_t limit, spool_limit());
      ODF_HASH_RETURN_IF_ERROR(spool_stream(limit));
      info->size = size_;
    }
    *readable = true;
    return Status::ok();
  }

  const std::string& name() const noexcept override { return name_; }
  uint64_t size() const noexcept override { return size_; }

  Result<size_t> read(uint8_t* out, size_t n) override {
    if (n == 0) return size_t{0};
    if (spooled_at_open_) {
      ODF_HASH_ASSIGN_OR_RETURN(size_t got, spool_->read_at(pos_, out, n));
      pos_ += got;
      return got;
    }
    for (;;) {
      const size_t buffered = buf_.size() - buf_off_;
      if (buffered > 0) {
        const size_t c = std::min(n, buffered);
        std::memcpy(out, buf_.data() + buf_off_, c);
        buf_off_ += c;
        pos_ += c;
        if (buf_off_ == buf_.size()) {
          buf_.clear();
          buf_off_ = 0;
        }
        if (paused_ && buf_.size() - buf_off_ < kMaxBuffered / 2) unpause();
        return c;
      }
      if (overflow_) {
        return Status::io_error(name_ + ": the body is longer than the object's " +
                                std::to_string(size_) + " bytes");
      }
      if (pos_ >= size_) {
        // Everything announced arrived; make sure nothing follows (a body without
        // Content-Length sent beyond the size the caller expects).
        if (easy_ != nullptr && !done_) ODF_HASH_RETURN_IF_ERROR(drive([] { return false; }));
        if (overflow_) continue;
        return size_t{0};
      }
      if (easy_ == nullptr || done_) {
        // The transfer ended before the object did: resume it, or give up.
        const CURLcode code = result_;
        if (code == CURLE_OK && headers_.chunked) {
          // A chunked body that ended with its last chunk is whole: the object is shorter
          // than expected, and asking again would give the same bytes.
          return Status::io_error(name_ + ": the transfer ended after " + std::to_string(pos_) +
                                  " of the object's " + std::to_string(size_) +
                                  " bytes: the server's chunked body (no Content-Length) ends "
                                  "there, the object is shorter");
        }
        const bool transient = code == CURLE_OK || is_transient(code);
        const std::string reason =
            code == CURLE_OK ? "the server closed the body early" : curl().easy_strerror(code);
        if (!transient || attempts_ >= client_->options().max_attempts) {
          return Status::io_error(name_ + ": the transfer ended after " + std::to_string(pos_) +
                                  " of the object's " + std::to_string(size_) +
                                  " bytes: " + reason + attempts_note(attempts_));
        }
        ODF_HASH_RETURN_IF_ERROR(connect_with_retries(pos_));
        continue;
      }
      ODF_HASH_RETURN_IF_ERROR(drive([this] { return buf_.size() > buf_off_ || overflow_; }));
    }
  }

  Result<size_t> read_at(uint64_t offset, uint8_t* out, size_t n) override {
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

 private:
  // The headers of a finished blocking GET (a range read, the whole object into the spool):
  // kOk to look at the body and curl's code; else *error says why, kRetry when asking again
  // may help (a 5xx, 408, 429).
  Outcome judge_headers(const ResponseHeaders& h, CURLcode code, Status* error) const {
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

  static size_t on_body(char* data, size_t size, size_t nitems, void* user) {
    return static_cast<HttpObjectReader*>(user)->take_body(data, size * nitems);
  }

  size_t take_body(const char* data, size_t n) {
    if (!headers_.complete || !is_success(headers_.status)) return 0;  // stop at an error
    if (!classified_) classify();
    if (verdict_ != Outcome::kOk) return 0;  // connect reports it
    if (spooling_) {
      if (received_ + n > size_) {
        overflow_ = true;
        return 0;
      }
      spool_fault_ = spool_->append(reinterpret_cast<const uint8_t*>(data), n);
      if (!spool_fault_.is_ok()) return 0;
      received_ += n;
      return n;
    }
    if (!read_whole_ && buf_.size() - buf_off_ >= kMaxBuffered) {
      paused_ = true;
      return CURL_WRITEFUNC_PAUSE;  // libcurl hands the same bytes again after unpause
    }
    window_bytes_ += n;
    size_t skip = static_cast<size_t>(std::min<uint64_t>(skip_, n));
    skip_ -= skip;
    const size_t take = n - skip;
    if (transfer_start_ + received_ + take > size_) {
      overflow_ = true;
      return 0;
    }
    if (buf_off_ > 0 && buf_off_ >= buf_.size() / 2) {
      buf_.erase(buf_.begin(), buf_.begin() + static_cast<ptrdiff_t>(buf_off_));
      buf_off_ = 0;
    }
    buf_.insert(buf_.end(), data + skip, data + n);
    received_ += take;
    return n;
  }

  void unpause() {
    paused_ = false;
    window_start_ = Clock::now();
    window_bytes_ = 0;
    curl().easy_pause(easy_, CURLPAUSE_CONT);  // may deliver (and pause) at once
  }

  void stop() {
    if (easy_ == nullptr) return;
    curl().multi_remove_handle(multi_, easy_);
    client_->release(easy_);
    easy_ = nullptr;
    request_.reset();
  }

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
  std::optional<uint64_t> size_from_range() {
    uint8_t byte = 0;
    RangeSink sink{&byte, 1, 0, std::numeric_limits<uint64_t>::max()};
    char errbuf[CURL_ERROR_SIZE];
    CURL* easy = client_->acquire(url_, &sink.headers, errbuf, /*stall_guard=*/true);
    if (easy == nullptr) return std::nullopt;
    CurlList request;
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

  std::string spool_limit_note(uint64_t limit) const {
    return std::to_string(limit) +
           " bytes, the most odf-hash reads whole into temporary storage "
           "(ODF_HASH_HTTP_SPOOL_LIMIT)";
  }

  // Reads the current transfer's whole body (from its first byte, the headers read) into a
  // new spool of at most `limit` bytes; then size_ is its length and read()/read_at() serve
  // the spool. A transfer that breaks starts again from the first byte (such a server has
  // no ranges to resume). A body going on past `limit` is an error naming the spool limit,
  // or with `larger` set, *larger = true and nothing to read.
  Status spool_stream(uint64_t limit, bool* larger = nullptr) {
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
  Status spool_whole() {
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

  // One GET from `offset`, up to its headers.
  Outcome connect(uint64_t offset, Status* error) {
    stop();
    headers_ = ResponseHeaders{};
    done_ = false;
    result_ = CURLE_OK;
    overflow_ = false;
    paused_ = false;
    transfer_start_ = offset;
    received_ = 0;
    skip_ = 0;
    request_offset_ = offset;
    classified_ = false;
    if (multi_ == nullptr) multi_ = curl().multi_init();
    easy_ = multi_ != nullptr ? client_->acquire(url_, &headers_, errbuf_, false) : nullptr;
    if (easy_ == nullptr) {
      *error = Status::io_error(name_ + ": cannot start a request");
      return Outcome::kFatal;
    }
    if (offset > 0) {
      request_.add(range_header(offset, std::nullopt));
      if (!validator_.empty()) request_.add("If-Range: " + validator_);
    }
    curl().easy_setopt(easy_, CURLOPT_HTTPHEADER, request_.get());
    curl().easy_setopt(easy_, CURLOPT_WRITEFUNCTION, &HttpObjectReader::on_body);
    curl().easy_setopt(easy_, CURLOPT_WRITEDATA, this);
    curl().multi_add_handle(multi_, easy_);
    window_start_ = Clock::now();
    window_bytes_ = 0;
    *error = drive([this] { return headers_.complete; });
    if (!error->is_ok()) return Outcome::kFatal;
    if (headers_.too_many_header_bytes) {
      *error = Status::io_error(name_ + ": response headers over 256 KiB");
      return Outcome::kFatal;
    }
    if (!headers_.complete) {
      if (result_ == CURLE_OK) {  // a redirect libcurl could not follow
        *error = status_error(name_, headers_.status);
        return Outcome::kFatal;
      }
      *error = Status::io_error(transfer_error(name_, result_, errbuf_));
      return is_transient(result_) ? Outcome::kRetry : Outcome::kFatal;
    }
    if (!classified_) classify();
    if (verdict_ != Outcome::kOk) {
      stop();
      *error = verdict_error_;
    }
    return verdict_;
  }

  // Decides from the response's headers alone what a GET from request_offset_ got, before
  // any body byte is taken (take_body calls it at the first one; connect when the headers
  // end without a body): a resume answered 200 with the whole object (a server without
  // Range support) must drop the bytes already hashed, not append them.
  void classify() {
    classified_ = true;
    verdict_ = Outcome::kOk;
    verdict_error_ = Status::ok();
    const uint64_t offset = request_offset_;
    const long status = headers_.status;
    auto fail = [&](Outcome o, Status e) {
      verdict_ = o;
      verdict_error_ = std::move(e);
    };
    if (offset > 0 && status == 416) {
      return fail(Outcome::kFatal,
                  Status::io_error(name_ + ": the transfer ended after " + std::to_string(offset) +
                                   " of the object's " + std::to_string(size_) +
                                   " bytes, and the server has no more (HTTP 416)"));
    }
    if (!is_success(status)) {
      return fail(is_transient_status(status) ? Outcome::kRetry : Outcome::kFatal,
                  status_error(name_, status));
    }
    if (offset == 0) {
      if (status == 200) return;
      return fail(Outcome::kFatal, Status::io_error(name_ + ": the server answered HTTP " +
                                                    std::to_string(status) + " to a plain GET"));
    }
    // A resumed transfer: the rest of the same object, or the same object whole.
    if (status == 206) {
      const auto& cr = headers_.content_range;
      if (cr && cr->start == offset && (!cr->total || *cr->total == size_)) return;
    } else if (status == 200 && (validator_.empty() || validator_of(headers_) == validator_) &&
               (!headers_.content_length || *headers_.content_length == size_)) {
      skip_ = offset;  // no range support: the whole object again, the known part skipped
      transfer_start_ = 0;
      received_ = 0;
      return;
    }
    fail(Outcome::kFatal,
         Status::io_error(name_ + ": the object changed while being read (HTTP " +
                          std::to_string(status) + " to a request for its remaining bytes)"));
  }

  Status connect_with_retries(uint64_t offset) {
    for (;;) {
      ++attempts_;
      client_->backoff(attempts_);
      Status error;
      Outcome o = connect(offset, &error);
      if (o == Outcome::kOk) return Status::ok();
      if (o == Outcome::kFatal || attempts_ >= client_->options().max_attempts) {
        stop();
        return Status(error.code(), error.message() + attempts_note(attempts_));
      }
    }
  }

  std::shared_ptr<CurlClient> client_;
  std::string url_;
  std::string name_;
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

  // The whole object in temporary storage (see the top of this file).
  std::unique_ptr<SpoolFile> spool_;  // set once, before spool_ready_
  std::atomic<bool> spool_ready_{false};
  std::mutex spool_mu_;           // one spool_whole() at a time
  bool spooled_at_open_ = false;  // read() serves the spool too
  bool spooling_ = false;         // take_body writes to spool_
  Status spool_fault_;
};

class HttpStore final : public ObjectStore {
 public:
  HttpStore(std::string root, const HttpOptions& options)
      : root_(std::move(root)),
        shown_(redact_url(root_)),
        client_(std::make_shared<CurlClient>(options)) {}

  // Without the user information of the URL (open_store.h: redact_url).
  std::string location(std::string_view key) const override {
    if (key.empty()) return shown_;
    return shown_ + "/" + encode_key(key);
  }

  bool can_list() const noexcept override { return false; }

  Result<std::vector<ObjectEntry>> list(std::string_view prefix) const override {
    return Status::unsupported(location(prefix) + ": an HTTP server cannot be listed");
  }

  Result<ObjectInfo> stat(std::string_view key) const override {
    if (!is_valid_object_key(key)) return Status::invalid_argument(location(key) + ": not a key");
    const std::string url = url_of(key);
    const std::string shown = location(key);
    Status last;
    for (unsigned attempt = 1; attempt <= client_->options().max_attempts; ++attempt) {
      client_->backoff(attempt);
      ResponseHeaders headers;
      char errbuf[CURL_ERROR_SIZE];
      CURL* easy = client_->acquire(url, &headers, errbuf, /*stall_guard=*/true);
      if (easy == nullptr) return Status::io_error(shown + ": cannot start a request");
      curl().easy_setopt(easy, CURLOPT_NOBODY, 1L);
      const CURLcode code = curl().easy_perform(easy);
      client_->release(easy);
      if (headers.complete && is_success(headers.status)) {
        ObjectInfo info;
        info.kind = ObjectKind::kFile;
        info.size = headers.content_length.value_or(0);
        return info;
      }
      if (headers.complete) {
        last = status_error(shown, headers.status);
        if (!is_transient_status(headers.status)) return last;
      } else {
        last = Status::io_error(transfer_error(shown, code, errbuf));
        if (!is_transient(code)) return last;
      }
    }
    return Status(last.code(), last.message() + attempts_note(client_->options().max_attempts));
  }

  Result<OpenedObject> open(std::string_view key, const OpenOptions& options) const override {
    if (!is_valid_object_key(key)) return Status::invalid_argument(location(key) + ": not a key");
    auto reader = std::make_unique<HttpObjectReader>(client_, url_of(key), location(key));
    OpenedObject out;
    bool readable = false;
    ODF_HASH_RETURN_IF_ERROR(reader->begin(options.max_size, &out.info, &readable));
    if (readable) out.reader = std::move(reader);
    return out;
  }

 private:
  std::string url_of(std::string_view key) const { return root_ + "/" + encode_key(key); }

  std::string root_;   // requested, with the user information if any
  std::string shown_;  // root_ without it
  std::shared_ptr<CurlClient> client_;
};

}  // namespace

Result<std::shared_ptr<ObjectStore>> open_http_store(const std::string& root,
                                                     const HttpOptions& options) {
  std::string url = root;
  if (url.find_first_of("?#") != std::string::npos) {
    return Status::invalid_argument(redact_url(root) + ": a dataset URL has no query or fragment");
  }
  const size_t scheme_end = url.find("://");
  if (scheme_end == std::string::npos || url.size() == scheme_end + 3 ||
      url[scheme_end + 3] == '/') {
    return Status::invalid_argument(redact_url(root) +
                                    ": not an http:// or https:// URL with a host");
  }
  while (url.size() > scheme_end + 3 && url.back() == '/') url.pop_back();
  // "***@" is what redact_url leaves of user information (a task's dataset): no user.
  if (url.compare(scheme_end + 3, 4, "***@") == 0) url.erase(scheme_end + 3, 4);
  // A spool limit that does not parse is refused before anything is requested.
  ODF_HASH_RETURN_IF_ERROR(spool_limit().status());
  ODF_HASH_RETURN_IF_ERROR(load_curl().status());  // every libcurl call below needs it
  return std::shared_ptr<ObjectStore>(std::make_shared<HttpStore>(std::move(url), options));
}

}  // namespace odf_hash::remote
