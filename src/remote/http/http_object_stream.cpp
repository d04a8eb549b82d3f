// HttpObjectReader (http_object.h): the first GET and sequential reads, one streamed
// transfer resumed from the next byte when it breaks.
#include "http_object.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

namespace odf_hash::remote::detail {

std::string attempts_note(unsigned attempts) {
  return attempts > 1 ? " (" + std::to_string(attempts) + " attempts)" : "";
}

std::string validator_of(const ResponseHeaders& h) {
  if (!h.etag.empty() && h.etag.rfind("W/", 0) != 0) return h.etag;
  return h.last_modified;
}

// The first GET, up to its headers: fills `info`; `*read` false when the object is
// larger than max_size (then nothing more is fetched).
Status HttpObjectReader::begin(uint64_t max_size, ObjectInfo* info, bool* readable) {
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

Result<size_t> HttpObjectReader::read(uint8_t* out, size_t n) {
  if (n == 0) return size_t{0};
  if (spooled_at_open_) {
    ODF_HASH_ASSIGN_OR_RETURN(size_t got, spool_->read_at(pos_, out, n));
    pos_ += got;
    return got;
  }
  if (buf_.size() == buf_off_ && !read_whole_) {
    // Nothing waits: the transfer's next bytes go straight to `out` (take_body), the chunk
    // a direct read paused at first.
    direct_ = out;
    direct_room_ = n;
    if (paused_) unpause();
  }
  Result<bool> some = fill();
  const size_t got = direct_got_;
  direct_ = nullptr;
  direct_room_ = direct_got_ = 0;
  ODF_HASH_RETURN_IF_ERROR(some.status());
  if (got > 0) {
    pos_ += got;
    return got;
  }
  if (!*some) return size_t{0};
  const size_t c = std::min(n, buf_.size() - buf_off_);
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

Result<bool> HttpObjectReader::fill() {
  for (;;) {
    if (have_bytes()) return true;
    if (overflow_) {
      return Status::io_error(name_ + ": the body is longer than the object's " +
                              std::to_string(size_) + " bytes");
    }
    if (pos_ >= size_) {
      // Everything announced arrived; make sure nothing follows (a body without
      // Content-Length sent beyond the size the caller expects).
      if (easy_ != nullptr && !done_) ODF_HASH_RETURN_IF_ERROR(drive([] { return false; }));
      if (overflow_) continue;
      return false;
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
                                " of the object's " + std::to_string(size_) + " bytes: " + reason +
                                attempts_note(attempts_));
      }
      ODF_HASH_RETURN_IF_ERROR(connect_with_retries(pos_));
      continue;
    }
    ODF_HASH_RETURN_IF_ERROR(drive([this] { return have_bytes() || overflow_; }));
  }
}

size_t HttpObjectReader::on_body(char* data, size_t size, size_t nitems, void* user) {
  return static_cast<HttpObjectReader*>(user)->take_body(data, size * nitems);
}

size_t HttpObjectReader::take_body(const char* data, size_t n) {
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
  if (direct_ != nullptr && direct_got_ > 0 && buf_off_ == buf_.size() &&
      n > direct_room_ - direct_got_) {
    // A direct read that holds bytes and has no room for these: they wait in libcurl for the
    // next read() (at most one chunk; the socket keeps the rest), not in buf_ to be copied
    // twice.
    paused_ = true;
    return CURL_WRITEFUNC_PAUSE;
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
  // As bytes: a char range into a vector of uint8_t is copied one element at a time (16% of
  // fetch's CPU), a uint8_t range by memmove.
  const auto* bytes = reinterpret_cast<const uint8_t*>(data) + skip;
  size_t rest = take;
  if (direct_ != nullptr && buf_off_ == buf_.size()) {  // no byte waits before these
    const size_t d = std::min(rest, direct_room_ - direct_got_);
    std::memcpy(direct_ + direct_got_, bytes, d);
    direct_got_ += d;
    bytes += d;
    rest -= d;
  }
  buf_.insert(buf_.end(), bytes, bytes + rest);
  received_ += take;
  return n;
}

void HttpObjectReader::unpause() {
  paused_ = false;
  window_start_ = Clock::now();
  window_bytes_ = 0;
  curl().easy_pause(easy_, CURLPAUSE_CONT);  // may deliver (and pause) at once
}

void HttpObjectReader::stop() {
  if (easy_ == nullptr) return;
  curl().multi_remove_handle(multi_, easy_);
  client_->release(easy_);
  easy_ = nullptr;
  request_.reset();
}

// One GET from `offset`, up to its headers.
HttpObjectReader::Outcome HttpObjectReader::connect(uint64_t offset, Status* error) {
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
  request_.add(headers_sent_);
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
void HttpObjectReader::classify() {
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

Status HttpObjectReader::connect_with_retries(uint64_t offset) {
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

}  // namespace odf_hash::remote::detail
