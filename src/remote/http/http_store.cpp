// The HTTP(S) object store (http_store.h); guarantees in open_store.h. Objects are read by
// HttpObjectReader (http_object.h: how a sequential read streams, how random access and
// servers without sizes or ranges are served).
#include "http_store.h"

#include <cctype>
#include <memory>
#include <utility>

#include "http_object.h"
#include "odf_hash/core/text.h"
#include "odf_hash/io/store.h"

namespace odf_hash::remote {

namespace {

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

using detail::attempts_note;
using detail::HttpObjectReader;

class HttpStore final : public ObjectStore {
 public:
  HttpStore(std::string root, const HttpOptions& options, std::shared_ptr<CurlClient> client)
      : root_(std::move(root)),
        shown_(redact_url(root_)),
        query_(options.query.empty() ? "" : "?" + options.query),
        headers_(options.headers),
        client_(client ? std::move(client) : std::make_shared<CurlClient>(options)) {}

  // Without the user information of the URL (text.h: redact_url).
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
      CurlList request;
      request.add(headers_);
      curl().easy_setopt(easy, CURLOPT_HTTPHEADER, request.get());
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
    auto reader = std::make_unique<HttpObjectReader>(client_, url_of(key), location(key), headers_);
    OpenedObject out;
    bool readable = false;
    ODF_HASH_RETURN_IF_ERROR(reader->begin(options.max_size, &out.info, &readable));
    if (readable) out.reader = std::move(reader);
    return out;
  }

 private:
  std::string url_of(std::string_view key) const { return root_ + "/" + encode_key(key) + query_; }

  std::string root_;                  // requested, with the user information if any
  std::string shown_;                 // root_ without it
  std::string query_;                 // "?<HttpOptions::query>" or "": requested, never shown
  std::vector<std::string> headers_;  // HttpOptions::headers: sent, never shown
  std::shared_ptr<CurlClient> client_;
};

}  // namespace

Result<std::shared_ptr<ObjectStore>> open_http_store(const std::string& root,
                                                     const HttpOptions& options,
                                                     std::shared_ptr<CurlClient> client) {
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
  return std::shared_ptr<ObjectStore>(
      std::make_shared<HttpStore>(std::move(url), options, std::move(client)));
}

}  // namespace odf_hash::remote
