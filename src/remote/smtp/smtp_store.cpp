// odf+http://host/[account/]dataset: a dataset read by kamu's Smart Transfer Protocol
// (smtp_session.h). Opening the store runs one pull flow: the whole chain's blocks arrive in
// one answer (the raw block bytes, named by their hashes: checked against them by whoever
// walks the chain, as any store's blocks are), refs/head is the newest of them, and the node
// is asked for a download of each data file and checkpoint that the blocks whose bytes hash
// to their names reference (never the transfer plan's word, never a hash the blocks do not
// name: the node answers any hash). Objects are then read by HTTP from those downloads
// (their URLs carry the node's own address), with the headers the node names for each (its
// storage may need them; not those the client owns, such as Range; a header that would
// inject others refuses the download); an object the node gave no download for (a
// linked object, which the protocol does not name) from the Simple Transfer Protocol's path
// under the dataset's http:// URL. A download whose expiry has passed (presigned storage URLs
// carry one), or that the server refuses (401 / 403), is asked for again, once, in a new
// flow that begins after the head (no blocks sent again).
#include "smtp/smtp_store.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include "http/http_store.h"
#include "odf_hash/core/multihash.h"
#include "odf_hash/core/sha3.h"
#include "odf_hash/core/text.h"
#include "odf_hash/internal/io/bytes_reader.h"
#include "smtp/block_tar.h"
#include "smtp/smtp_session.h"

namespace odf_hash::remote {

namespace {

using Clock = std::chrono::system_clock;

// An RFC 3339 time ("2026-12-07T11:00:00Z", "...T11:00:00.123+01:00"); nullopt when it is
// none (then the download is taken as not expiring).
std::optional<std::chrono::sys_seconds> parse_rfc3339(const std::string& text) {
  std::tm tm{};
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &consumed) != 6) {
    return std::nullopt;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  size_t at = static_cast<size_t>(consumed);
  if (at < text.size() && text[at] == '.') {
    ++at;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
  }
  long offset = 0;
  if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
    int h = 0, m = 0;
    if (std::sscanf(text.c_str() + at + 1, "%2d:%2d", &h, &m) != 2) return std::nullopt;
    offset = (text[at] == '+' ? 1 : -1) * (h * 3600L + m * 60L);
  } else if (at >= text.size() || (text[at] != 'Z' && text[at] != 'z')) {
    return std::nullopt;
  }
  // In seconds: a far expiry ("2999-…") overflows the system clock's nanoseconds.
  return std::chrono::sys_seconds(std::chrono::seconds(static_cast<int64_t>(timegm(&tm)) - offset));
}

// "https://host:port" of a URL (scheme and authority, lowercase scheme and host as given).
std::string origin(const std::string& url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  const size_t slash = url.find('/', scheme + 3);
  std::string out = url.substr(0, slash);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Whether a block's bytes hash to `name` (its content address, multihash text).
bool named(const std::vector<uint8_t>& bytes, const std::string& name) {
  return Multihash::sha3_256(Sha3_256::digest(bytes)).to_string() == name;
}

struct Where {
  std::string url;
  std::optional<std::chrono::sys_seconds> expires;
  std::vector<std::string> headers;  // "Name: value", sent with the download's requests
  std::string refused;               // why the download cannot be requested (a header), or ""
};

// Why a download's header (the node's words, untrusted) cannot be sent: a name that is not an
// HTTP token, a control character in the value (CR LF would inject other headers), or a size
// past any real header's; "" when it can.
std::string header_fault(const std::string& name, const std::string& value) {
  static const char* kTokenPunct = "!#$%&'*+-.^_`|~";
  if (name.empty() || name.size() > 256) {
    return "a name of " + std::to_string(name.size()) + " bytes";
  }
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && std::strchr(kTokenPunct, c) == nullptr) {
      return "a name that is not an HTTP token";
    }
  }
  if (value.size() > 8192) return "a value of " + std::to_string(value.size()) + " bytes";
  for (char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t') || u == 0x7f) return "a control character in the value";
  }
  return "";
}

// The headers the HTTP client owns (the connection, the body's framing, the range a read or
// a resume asks for): never sent as a node names them.
bool client_owned(const std::string& name) {
  static const std::set<std::string> kOwn = {"host",
                                             "range",
                                             "if-range",
                                             "content-length",
                                             "transfer-encoding",
                                             "connection",
                                             "te",
                                             "upgrade",
                                             "expect",
                                             "accept-encoding",
                                             "keep-alive",
                                             "trailer",
                                             "proxy-connection",
                                             "proxy-authorization"};
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return kOwn.count(lower) != 0;
}

class SmtpStore final : public ObjectStore {
 public:
  SmtpStore(std::string http_url, std::string shown, std::shared_ptr<ObjectStore> simple,
            HttpOptions http, smtp::SessionOptions session)
      : http_url_(std::move(http_url)),
        shown_(std::move(shown)),
        simple_(std::move(simple)),
        http_(std::move(http)),
        session_(session) {}

  std::map<std::string, std::shared_ptr<const std::vector<uint8_t>>> memory;  // key -> bytes
  mutable std::map<std::string, Where> downloads;                             // key -> where
  std::map<std::string, smtp::ObjectRef> refs;  // key -> how the node names it
  std::optional<std::string> head;

  // An http(s) URL whose path ends in the object's name; a query (a presigned storage URL's
  // signature) is kept, a fragment is not a download.
  static bool is_download(const std::string& url, const std::string& key) {
    const bool http = url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0;
    const std::string name = key.substr(key.find('/') + 1);
    const std::string path = url.substr(0, url.find('?'));
    return http && url.find('#') == std::string::npos && path.size() > name.size() &&
           path.compare(path.size() - name.size() - 1, name.size() + 1, "/" + name) == 0;
  }

  // Where the node's download of `key` reads from: nullopt when it is no download of that
  // object (then the Simple Transfer Protocol's path is read). One with more than 64 headers
  // or one that cannot be sent (header_fault) is refused: the object is unreadable, and
  // nothing is requested.
  static std::optional<Where> where_of(const smtp::Download& d, const std::string& key) {
    if (!is_download(d.url, key)) return std::nullopt;
    Where w{d.url, d.expires_at ? parse_rfc3339(*d.expires_at) : std::nullopt, {}, ""};
    if (d.headers.size() > 64) {
      w.refused = "the node's download names " + std::to_string(d.headers.size()) +
                  " headers (at most 64 are sent)";
    }
    for (const auto& [name, value] : d.headers) {
      if (!w.refused.empty()) break;
      if (const std::string fault = header_fault(name, value); !fault.empty()) {
        w.refused = "the node's download names a header that cannot be sent (" +
                    escape_text(name.substr(0, 64)) + ": " + fault + ")";
      } else if (!client_owned(name)) {
        w.headers.push_back(name + ": " + value);
      }
    }
    return w;
  }

  std::string location(std::string_view key) const override {
    return key.empty() ? shown_ : shown_ + "/" + std::string(key);
  }
  bool can_list() const noexcept override { return false; }
  Result<std::vector<ObjectEntry>> list(std::string_view prefix) const override {
    return Status::unsupported(location(prefix) +
                               ": a node speaking the Smart Transfer "
                               "Protocol is not listed");
  }
  Result<ObjectInfo> stat(std::string_view key) const override {
    if (auto it = memory.find(std::string(key)); it != memory.end()) {
      ObjectInfo info;
      info.size = it->second->size();
      return info;
    }
    if (in_memory_only(key)) return Status::not_found(location(key) + ": not sent by the node");
    ODF_HASH_ASSIGN_OR_RETURN(auto where, store_of(key));
    return where.first->stat(where.second);
  }
  Result<OpenedObject> open(std::string_view key, const OpenOptions& options) const override {
    if (auto it = memory.find(std::string(key)); it != memory.end()) {
      OpenedObject out;
      out.info.size = it->second->size();
      if (out.info.size <= options.max_size) {
        out.reader = std::make_unique<io_internal::BytesReader>(location(key), it->second);
      }
      return out;
    }
    if (in_memory_only(key)) return Status::not_found(location(key) + ": not sent by the node");
    const std::string k(key);
    if (expired(k)) (void)refresh(k);
    ODF_HASH_ASSIGN_OR_RETURN(auto where, store_of(key));
    auto opened = where.first->open(where.second, options);
    if (!opened.is_ok() && refused(opened.status()) && refresh(k).is_ok()) {
      ODF_HASH_ASSIGN_OR_RETURN(where, store_of(key));
      opened = where.first->open(where.second, options);
    }
    return opened;
  }

 private:
  // refs/head and blocks/ come from the pull's answer only.
  static bool in_memory_only(std::string_view key) {
    return key == "refs/head" || key.rfind("blocks/", 0) == 0;
  }

  bool expired(const std::string& key) const {
    std::lock_guard lock(mu_);
    auto it = downloads.find(key);
    return it != downloads.end() && it->second.expires &&
           std::chrono::floor<std::chrono::seconds>(Clock::now()) + std::chrono::seconds(30) >=
               *it->second.expires;
  }

  static bool refused(const Status& s) {
    return s.message().find("access denied") != std::string::npos;
  }

  // Asks the node for `key`'s download again, in a new flow beginning after the head; once
  // per key.
  Status refresh(const std::string& key) const {
    std::lock_guard serial(refresh_mu_);
    smtp::ObjectRef ref;
    {
      std::lock_guard lock(mu_);
      auto r = refs.find(key);
      if (r == refs.end() || !refreshed_.insert(key).second) {
        return Status::not_found(location(key) + ": no download to ask again for");
      }
      ref = r->second;
    }
    ODF_HASH_ASSIGN_OR_RETURN(smtp::PullSession session,
                              smtp::PullSession::connect(http_url_, shown_, session_));
    ODF_HASH_RETURN_IF_ERROR(session.pull_blocks(head).status());
    ODF_HASH_ASSIGN_OR_RETURN(std::vector<smtp::Download> got, session.downloads({ref}));
    session.close();
    std::optional<Where> where = got.size() == 1 ? where_of(got[0], key) : std::nullopt;
    if (!where) {
      return Status::io_error(location(key) + ": no usable download in the node's answer");
    }
    std::lock_guard lock(mu_);
    downloads[key] = std::move(*where);
    return Status::ok();
  }

  // The store and key an object is read from: its download's folder on the node, or the
  // dataset's own http:// URL.
  Result<std::pair<std::shared_ptr<ObjectStore>, std::string>> store_of(
      std::string_view key) const {
    std::lock_guard lock(mu_);
    auto it = downloads.find(std::string(key));
    if (it == downloads.end()) return std::make_pair(simple_, std::string(key));
    if (!it->second.refused.empty()) {
      return Status::io_error(location(key) + ": " + it->second.refused);
    }
    const std::string& url = it->second.url;
    const std::vector<std::string>& headers = it->second.headers;
    const size_t question = url.find('?');
    const std::string path = url.substr(0, question);
    const std::string query = question == std::string::npos ? "" : url.substr(question + 1);
    const size_t slash = path.rfind('/');
    const std::string base = path.substr(0, slash);
    const std::string name = path.substr(slash + 1);
    // One store per folder, and per query and headers: a presigned URL's signature is its
    // object's own. The stores share one HTTP client (its connections) per kind: with the
    // node's token, for the node's own address, or without it.
    std::string store_key = query.empty() ? base : base + "?" + query;
    for (const auto& h : headers) store_key += "\n" + h;
    auto& store = by_base_[store_key];
    if (!store) {
      HttpOptions http = http_;
      const bool own = origin(base) == origin(http_url_);
      if (!own) http.bearer_token.clear();  // the token goes only where the node answers
      auto& client = clients_[own ? 1 : 0];
      // (libcurl is loaded: simple_ was opened first, by open_http_store.)
      if (!client) client = std::make_shared<CurlClient>(http);
      http.query = query;
      http.headers = headers;
      ODF_HASH_ASSIGN_OR_RETURN(store, open_http_store(base, http, client));
    }
    return std::make_pair(store, name);
  }

  std::string http_url_;
  std::string shown_;
  std::shared_ptr<ObjectStore> simple_;
  HttpOptions http_;
  smtp::SessionOptions session_;
  mutable std::mutex mu_;          // downloads, by_base_, clients_, refreshed_
  mutable std::mutex refresh_mu_;  // one refresh flow at a time
  mutable std::map<std::string, std::shared_ptr<ObjectStore>> by_base_;
  mutable std::shared_ptr<CurlClient> clients_[2];  // without, with the token (by_base_'s)
  mutable std::set<std::string> refreshed_;
};

}  // namespace

Result<std::shared_ptr<ObjectStore>> open_smtp_store(const std::string& url,
                                                     const HttpOptions& http,
                                                     const StoreOptions& store_options) {
  const BlockObjects& block_objects = store_options.block_objects;
  std::string http_url = url.substr(std::string("odf+").size());
  while (!http_url.empty() && http_url.back() == '/') http_url.pop_back();
  const std::string shown = redact_url(url);
  // The token in `http` ($ODF_HASH_BEARER_TOKEN, open_store.cpp) of a node's private dataset
  // goes to the node only (its pull flow, and the downloads at its own address), never to the
  // other hosts of download URLs (store_of).
  ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectStore> simple, open_http_store(http_url, http));
  smtp::SessionOptions so;
  so.connect_timeout_s = http.connect_timeout_s;
  so.read_timeout_s = http.read_timeout_s;
  so.cancel = http.cancel;
  so.bearer_token = http.bearer_token;
  // A block the caller holds (fetch: the destination's head), when its bytes hash to its name:
  // only the blocks after it are asked for.
  std::optional<std::string> begin_after;
  const auto& known = store_options.begin_after_block;
  if (!store_options.begin_after.empty() && known && named(*known, store_options.begin_after)) {
    begin_after = store_options.begin_after;
  }
  ODF_HASH_ASSIGN_OR_RETURN(smtp::PullSession session,
                            smtp::PullSession::connect(http_url, shown, so));
  Result<std::vector<uint8_t>> pulled = session.pull_blocks(begin_after);
  if (begin_after && !pulled.is_ok() && pulled.status().code() == StatusCode::kInvalidArgument) {
    // The node's history does not hold that block: the whole chain, in a new flow (whoever
    // walks it then finds the history rewritten).
    session.close();
    begin_after.reset();
    ODF_HASH_ASSIGN_OR_RETURN(session, smtp::PullSession::connect(http_url, shown, so));
    pulled = session.pull_blocks(std::nullopt);
  }
  ODF_HASH_ASSIGN_OR_RETURN(std::vector<uint8_t> gz, std::move(pulled));
  ODF_HASH_ASSIGN_OR_RETURN(std::vector<smtp::TarEntry> entries, smtp::unpack_blocks(gz, shown));

  auto store = std::make_shared<SmtpStore>(http_url, shown, simple, http, so);
  std::vector<smtp::ObjectRef> objects;
  std::vector<std::string> keys;
  for (auto& e : entries) {
    const auto bytes = std::make_shared<const std::vector<uint8_t>>(std::move(e.bytes));
    const bool named_right = named(*bytes, e.name);
    if (named_right && block_objects) {
      for (const auto& ref : block_objects(*bytes)) {
        const std::string key = std::string(ref.checkpoint ? "checkpoints/" : "data/") + ref.hash;
        if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
        keys.push_back(key);
        objects.push_back(smtp::ObjectRef{ref.checkpoint, ref.hash, ref.size});
      }
    }
    if (is_valid_object_key("blocks/" + e.name)) store->memory["blocks/" + e.name] = bytes;
  }
  if (begin_after) store->memory["blocks/" + *begin_after] = known;
  if (!entries.empty() || begin_after) {
    // Nothing after the block the caller holds: the node's head is that block.
    const std::string& head = entries.empty() ? *begin_after : entries.back().name;
    store->memory["refs/head"] =
        std::make_shared<const std::vector<uint8_t>>(head.begin(), head.end());
    store->head = head;
  }
  if (!objects.empty()) {
    ODF_HASH_ASSIGN_OR_RETURN(std::vector<smtp::Download> got, session.downloads(objects));
    for (size_t i = 0; i < got.size(); ++i) {
      store->refs[keys[i]] = objects[i];
      if (auto where = SmtpStore::where_of(got[i], keys[i])) {
        store->downloads[keys[i]] = std::move(*where);
      }
    }
  }
  session.close();
  return std::shared_ptr<ObjectStore>(std::move(store));
}

}  // namespace odf_hash::remote
