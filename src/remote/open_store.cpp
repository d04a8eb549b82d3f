// The store factory (include/odf_hash/open_store.h).
#include "odf_hash/open_store.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <mutex>

#include "arrow_module.h"
#include "http_store.h"
#include "ipfs/ipfs_store.h"
#include "ipfs/ipfs_url.h"
#include "odf_hash/local_store.h"
#include "odf_hash/reader.h"

namespace odf_hash {

namespace {

bool starts_with_nocase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() &&
         std::equal(prefix.begin(), prefix.end(), text.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) ==
                  std::tolower(static_cast<unsigned char>(b));
         });
}

// Whether an S3 store was opened (and so the Arrow module loaded): only then is there an
// AWS SDK to shut down.
std::atomic<bool> s3_opened{false};

bool is_s3(std::string_view text) {
  return starts_with_nocase(text, "s3://");
}
bool is_http(std::string_view text) {
  return starts_with_nocase(text, "http://") || starts_with_nocase(text, "https://");
}
bool is_ipfs(std::string_view text) {
  return starts_with_nocase(text, "ipfs://") || starts_with_nocase(text, "ipns://");
}

// The gateway's URL, checked: http(s), no query or fragment, no trailing '/'.
Result<std::string> checked_gateway(const StoreOptions& options) {
  std::string gateway = resolve_ipfs_gateway(options.ipfs_gateway);
  if (!is_http(gateway)) {
    return Status::invalid_argument(redact_url(gateway) +
                                    ": an IPFS gateway is an http:// or https:// URL");
  }
  if (gateway.find_first_of("?#") != std::string::npos) {
    return Status::invalid_argument(redact_url(gateway) +
                                    ": an IPFS gateway URL has no query or fragment");
  }
  while (!gateway.empty() && gateway.back() == '/') gateway.pop_back();
  // "***@" is what redact_url leaves of user information (a task's gateway): no user.
  if (const size_t at = gateway.find("://***@"); at != std::string::npos) gateway.erase(at + 3, 4);
  return gateway;
}

remote::HttpOptions http_options(const StoreOptions& options) {
  remote::HttpOptions http;
  http.connect_timeout_s = options.connect_timeout_s;
  http.read_timeout_s = options.read_timeout_s;
  http.max_attempts = std::max(1u, options.max_attempts);
  http.cancel = options.cancel;
  return http;
}

// An ipfs:// dataset anchored by its CID (ipfs/ipfs_store.h); with trust_gateway, or for an
// ipns:// name (whose record odf-hash does not check), the gateway's path answers as kamu
// reads them (its dataset factory joins "{scheme}/{cid}{path}" onto protocol.ipfs.httpGateway),
// read by the HTTP store.
Result<std::shared_ptr<ObjectStore>> open_ipfs(const std::string& url,
                                               const StoreOptions& options) {
  ODF_HASH_ASSIGN_OR_RETURN(const remote::ipfs::IpfsUrl parsed, remote::ipfs::parse_ipfs_url(url));
  ODF_HASH_ASSIGN_OR_RETURN(const std::string gateway, checked_gateway(options));
  if (!options.trust_gateway) {
    if (parsed.ipns) {
      return Status::invalid_argument(
          redact_url(url) +
          ": an ipns:// name is resolved by the gateway, and odf-hash does not check IPNS "
          "records, so nothing would anchor what the gateway serves; verify the ipfs://CID it "
          "points to, or read it trusting the gateway (--trust-gateway)");
    }
    ODF_HASH_RETURN_IF_ERROR(remote::load_curl().status());  // every request needs it
    return remote::ipfs::open_ipfs_store(parsed, gateway, http_options(options));
  }
  return remote::open_http_store(gateway + remote::ipfs::gateway_path(parsed),
                                 http_options(options));
}

}  // namespace

std::string resolve_ipfs_gateway(const std::string& option) {
  if (!option.empty()) return option;
  for (const char* var : {"ODF_HASH_IPFS_GATEWAY", "KAMU_CONFIG__protocol__ipfs__httpGateway"}) {
    const char* v = std::getenv(var);
    if (v != nullptr && *v != '\0') return v;
  }
  return kDefaultIpfsGateway;
}

bool is_ipfs_url(std::string_view text) {
  return is_ipfs(text);
}

bool is_store_url(std::string_view text) {
  return is_s3(text) || is_http(text) || is_ipfs(text);
}

// Each "scheme://" starts an authority that ends at '/', '?', '#', whitespace or the end (not
// at a quote or '<': curl takes those in a password, "http://u:it's@host/"); its user
// information is what comes before its last '@'. A password holding '/', '?', '#' or a space
// (which curl refuses, but a user may type) ends the authority early: "u:pa/ss@host" shows
// as an authority "u:pa" with a port that is not a number. Such an authority is taken as user
// information up to the next '@' on the line (or whole, without one), so that no part of the
// password is shown. A port (digits after the host's ':', an IPv6 "[...]:port") is kept.
std::string redact_url(std::string_view text) {
  constexpr std::string_view kAuthorityEnd = "/?#\t\r\n ";
  std::string out;
  out.reserve(text.size());
  size_t done = 0;
  for (size_t sep = text.find("://"); sep != std::string_view::npos;
       sep = text.find("://", sep + 3)) {
    const size_t start = sep + 3;
    if (start < done) continue;  // inside user information already hidden
    size_t end = text.find_first_of(kAuthorityEnd, start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view authority = text.substr(start, end - start);
    if (authority.empty()) continue;
    size_t hide = std::string_view::npos;  // hide text[start, hide)
    if (const size_t at = authority.rfind('@'); at != std::string_view::npos) {
      hide = start + at;
    } else {
      // "host:port" or "[v6]:port" is an authority; "user:secret" with no '@' before the
      // first '/', '?', '#' or space is a password that holds one of them.
      const size_t host_end = authority.front() == '[' ? authority.find(']') : 0;
      const size_t colon =
          authority.find(':', host_end == std::string_view::npos ? authority.size() : host_end);
      const std::string_view port =
          colon == std::string_view::npos ? std::string_view() : authority.substr(colon + 1);
      const bool credentials = colon != std::string_view::npos &&
                               port.find_first_not_of("0123456789") != std::string_view::npos;
      if (credentials) {
        const size_t line_end = text.find_first_of("\r\n", end);
        const size_t next_at = text.substr(0, line_end).find('@', end);
        hide = next_at != std::string_view::npos ? next_at : end;
      }
    }
    if (hide == std::string_view::npos) continue;
    out.append(text.substr(done, start - done));
    out += "***";
    done = hide;  // from the '@' (or the end of the authority) on
  }
  out.append(text.substr(done));
  return out;
}

Status check_store_options(const StoreOptions& options) {
  // A NaN compares false with every bound, so it is refused by name: it would never fire.
  auto seconds = [](const char* what, double v) {
    if (std::isfinite(v) && v >= 0.1 && v <= 3600) return Status::ok();
    return Status::invalid_argument(std::string(what) +
                                    " must be a number of seconds from 0.1 "
                                    "to 3600, not " +
                                    std::to_string(v));
  };
  ODF_HASH_RETURN_IF_ERROR(seconds("the connect timeout", options.connect_timeout_s));
  ODF_HASH_RETURN_IF_ERROR(seconds("the read timeout", options.read_timeout_s));
  if (options.max_attempts < 1 || options.max_attempts > 20) {
    return Status::invalid_argument("max_attempts must be from 1 to 20, not " +
                                    std::to_string(options.max_attempts));
  }
  return Status::ok();
}

Result<std::shared_ptr<ObjectStore>> open_store(const std::string& url_or_path,
                                                const StoreOptions& options) {
  ODF_HASH_RETURN_IF_ERROR(refuse_nul(url_or_path));
  if (is_store_url(url_or_path)) ODF_HASH_RETURN_IF_ERROR(check_store_options(options));
  if (is_s3(url_or_path)) {
    if (redact_url(url_or_path) != url_or_path) {
      return Status::invalid_argument(redact_url(url_or_path) +
                                      ": an s3:// URL holds no credentials (they come from the "
                                      "AWS credential chain: environment, ~/.aws, ...)");
    }
    if (redact_url(options.endpoint_url) != options.endpoint_url) {
      return Status::invalid_argument(redact_url(options.endpoint_url) +
                                      ": an S3 endpoint URL holds no credentials");
    }
    ODF_HASH_ASSIGN_OR_RETURN(const io_internal::ArrowModuleApi* api, io_internal::arrow_module());
    if (api->open_s3_store == nullptr) {
      return Status::unsupported(redact_url(url_or_path) +
                                 ": this odf-hash was built without S3 support (Arrow's S3 "
                                 "file system was not found)");
    }
    s3_opened = true;
    Result<std::shared_ptr<ObjectStore>> store =
        api->open_s3_store("s3://" + url_or_path.substr(5), options);
    // A program that never calls shutdown_remote_stores (a C ABI or library user) still
    // stops the AWS SDK before the static destructors of what existed before it started:
    // registered after the SDK's start, this runs before those destructors.
    static std::once_flag at_exit;
    std::call_once(at_exit, [] { std::atexit(shutdown_remote_stores); });
    if (!store.is_ok()) return store;
    return cancellable_store(std::move(store).value(), options.cancel);
  }
  if (is_http(url_or_path) || is_ipfs(url_or_path)) {
    std::shared_ptr<ObjectStore> store;
    if (is_ipfs(url_or_path)) {
      ODF_HASH_ASSIGN_OR_RETURN(store, open_ipfs(url_or_path, options));
    } else {
      ODF_HASH_ASSIGN_OR_RETURN(store, remote::open_http_store(url_or_path, http_options(options)));
    }
    return cancellable_store(std::move(store), options.cancel);
  }
  LocalFolderOptions local;
  local.follow_symlinks = options.follow_symlinks;
  ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectStore> store,
                            open_local_folder(url_or_path, local));
  return cancellable_store(std::move(store), options.cancel);
}

Result<std::unique_ptr<ObjectReader>> open_object(const std::string& url_or_path,
                                                  const StoreOptions& options) {
  ODF_HASH_RETURN_IF_ERROR(refuse_nul(url_or_path));
  if (!is_store_url(url_or_path)) {
    ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> file, open_local_file(url_or_path));
    return cancellable_reader(std::move(file), options.cancel);
  }
  // The whole URL first: "ipfs://cid/.." must be refused as such, not split at its last '/'.
  if (is_ipfs(url_or_path)) {
    ODF_HASH_RETURN_IF_ERROR(remote::ipfs::parse_ipfs_url(url_or_path).status());
  }
  const size_t scheme_end = url_or_path.find("://") + 3;
  const size_t slash = url_or_path.rfind('/');
  if (slash == std::string::npos || slash < scheme_end || slash + 1 == url_or_path.size()) {
    return Status::invalid_argument(redact_url(url_or_path) +
                                    ": names no object (a URL ending in a name)");
  }
  ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectStore> store,
                            open_store(url_or_path.substr(0, slash), options));
  ODF_HASH_ASSIGN_OR_RETURN(OpenedObject opened, store->open(url_or_path.substr(slash + 1)));
  if (!opened.reader) {
    return Status::invalid_argument(redact_url(url_or_path) + ": is a " +
                                    object_kind_name(opened.info.kind) +
                                    ", not an object that can be read");
  }
  return std::move(opened.reader);
}

Result<PhysicalDigest> physical_hash_path_or_url(const std::string& name,
                                                 const StoreOptions& options,
                                                 const ProgressFn& progress) {
  // The flag is checked between chunks too: a local file is read without a store.
  const ProgressFn checked = [&](uint64_t done, uint64_t total) {
    if (cancel_requested(options.cancel)) return false;
    return !progress || progress(done, total);
  };
  if (!is_store_url(name)) return physical_hash_file(name, checked);
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> object, open_object(name, options));
  return physical_hash_object(*object, checked);
}

Result<LogicalDigest> logical_hash_path_or_url(const std::string& name,
                                               const LogicalHashOptions& logical_options,
                                               const StoreOptions& options) {
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> object, open_object(name, options));
  LogicalHashOptions checked = logical_options;
  if (checked.cancel == nullptr) checked.cancel = options.cancel;
  return logical_hash_object(std::move(object), checked);
}

void shutdown_remote_stores() {
  if (!s3_opened) return;
  auto api = io_internal::arrow_module();
  if (api.is_ok() && (*api)->shutdown_s3 != nullptr) (*api)->shutdown_s3();
}

}  // namespace odf_hash
