// IPFS blocks from a gateway (block_source.h).
#include "block_source.h"

#include <cctype>

#include "../http/http_sinks.h"
#include "odf_hash/core/text.h"
#include "odf_hash/io/store.h"

namespace odf_hash::remote::ipfs {

namespace {

constexpr size_t kSmallNodeBytes = 64u << 10;
constexpr const char* kRawType = "application/vnd.ipld.raw";
constexpr const char* kTrustHint =
    "; a gateway that cannot answer verifiable block requests can only be read trusting it "
    "(--trust-gateway), its content then not checked against the CID";

// The media type of a Content-Type value, lower case, without parameters.
std::string media_type(std::string_view value) {
  std::string out;
  for (char c : value.substr(0, value.find(';'))) {
    if (c == ' ' || c == '\t') continue;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

// What a decoded block holds in memory: its bytes, and per link a PbLink (a CID's two vectors,
// a name) beside them.
size_t memory_of(const Block& b) {
  return b.size + b.node.links.size() * (sizeof(PbLink) + 2 * 40);
}

std::string attempts_note(unsigned attempts) {
  return attempts > 1 ? " (" + std::to_string(attempts) + " attempts)" : "";
}

// The outcome of one finished GET: the block's bytes, or an error and whether asking again
// may help.
struct Attempt {
  Status error;
  bool retry = false;
};

Attempt judge(const std::string& url, const BufferSink& sink, CURLcode code, const char* errbuf) {
  const ResponseHeaders& h = sink.headers;
  auto fatal = [](Status s) { return Attempt{std::move(s), false}; };
  if (h.too_many_header_bytes)
    return fatal(Status::io_error(url + ": response headers over 256 KiB"));
  if (h.complete && !is_success(h.status)) {
    Status s = status_error(url, h.status);
    // A gateway that does not have the block, or a server that is no gateway: unavailable
    // content, not a missing file of the dataset.
    return Attempt{Status::io_error(s.message() + kTrustHint), is_transient_status(h.status)};
  }
  if (sink.too_large) {
    return fatal(Status::io_error(url + ": the gateway's block is larger than " +
                                  std::to_string(kMaxBlockBytes) +
                                  " bytes, more than an IPFS block may be"));
  }
  if (!h.complete || code != CURLE_OK) {
    if (code == CURLE_OK) return fatal(status_error(url, h.status));
    return Attempt{Status::io_error(transfer_error(url, code, errbuf)), is_transient(code)};
  }
  if (!h.content_encoding.empty() && h.content_encoding != "identity") {
    return fatal(Status::io_error(url + ": the gateway sent the block encoded (Content-Encoding: " +
                                  escape_untrusted(h.content_encoding) + "), not its bytes"));
  }
  if (media_type(h.content_type) != kRawType) {
    return fatal(Status::io_error(
        url + ": the gateway answered with " +
        (h.content_type.empty() ? std::string("no Content-Type")
                                : "Content-Type \"" + escape_untrusted(h.content_type) + "\"") +
        ", not a raw block (" + kRawType + "): it is not a trustless gateway" + kTrustHint));
  }
  return Attempt{Status::ok(), false};
}

}  // namespace

BlockSource::BlockSource(std::string gateway, std::string shown, const HttpOptions& options)
    : gateway_(std::move(gateway)),
      shown_(std::move(shown)),
      client_(std::make_shared<CurlClient>(options)) {}

std::string BlockSource::block_url(const Cid& cid) const {
  return shown_ + "/ipfs/" + cid.to_string() + "?format=raw";
}

Result<std::vector<uint8_t>> BlockSource::download(const Cid& cid) const {
  const std::string url = gateway_ + "/ipfs/" + cid.to_string() + "?format=raw";
  const std::string shown = block_url(cid);
  Status last;
  const unsigned attempts = client_->options().max_attempts;
  for (unsigned attempt = 1; attempt <= attempts; ++attempt) {
    client_->backoff(attempt);
    BufferSink sink{kMaxBlockBytes, {}, {}, false};
    char errbuf[CURL_ERROR_SIZE];
    CURL* easy = client_->acquire(url, &sink.headers, errbuf, /*stall_guard=*/true);
    if (easy == nullptr) return Status::io_error(shown + ": cannot start a request");
    CurlList request;
    request.add(std::string("Accept: ") + kRawType);
    curl().easy_setopt(easy, CURLOPT_HTTPHEADER, request.get());
    curl().easy_setopt(easy, CURLOPT_WRITEFUNCTION, &BufferSink::on_body);
    curl().easy_setopt(easy, CURLOPT_WRITEDATA, &sink);
    const CURLcode code = curl().easy_perform(easy);
    client_->release(easy);
    Attempt a = judge(shown, sink, code, errbuf);
    if (a.error.is_ok()) {
      Status checked = check_block(cid, sink.body);
      if (!checked.is_ok()) {
        if (checked.code() != StatusCode::kIoError) return checked;
        return Status::io_error(shown + ": " + checked.message() +
                                ": the gateway sent other content than the CID names");
      }
      return std::move(sink.body);
    }
    last = std::move(a.error);
    if (!a.retry) return last;
  }
  return Status(last.code(), last.message() + attempts_note(attempts));
}

std::shared_ptr<const Block> BlockSource::cached(const std::string& key) const {
  std::lock_guard lock(mu_);
  auto it = index_.find(key);
  if (it == index_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->second;
}

void BlockSource::keep(const std::string& key, std::shared_ptr<const Block> block) const {
  const Block& b = *block;
  if (b.is_raw() || (b.node.links.empty() && b.size > kSmallNodeBytes)) return;
  std::lock_guard lock(mu_);
  if (index_.count(key) != 0) return;
  cached_bytes_ += memory_of(b);
  lru_.emplace_front(key, std::move(block));
  index_[key] = lru_.begin();
  while (cached_bytes_ > kCacheBytes && !lru_.empty()) {
    cached_bytes_ -= memory_of(*lru_.back().second);
    index_.erase(lru_.back().first);
    lru_.pop_back();
  }
}

Result<std::shared_ptr<const Block>> BlockSource::get(const Cid& cid) const {
  ODF_HASH_RETURN_IF_ERROR(check_codec(cid));  // before any request
  const std::string key(cid.bytes.begin(), cid.bytes.end());
  if (auto hit = cached(key)) return hit;
  std::vector<uint8_t> bytes;
  if (cid.hash_code == kHashIdentity) {
    bytes = cid.digest;
  } else {
    ODF_HASH_ASSIGN_OR_RETURN(bytes, download(cid));
  }
  ODF_HASH_ASSIGN_OR_RETURN(Block decoded, decode_block(cid, std::move(bytes)));
  auto block = std::make_shared<const Block>(std::move(decoded));
  keep(key, block);
  return std::shared_ptr<const Block>(std::move(block));
}

}  // namespace odf_hash::remote::ipfs
