// The store factory (include/odf_hash/remote/open_store.h).
#include "odf_hash/remote/open_store.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <mutex>

#include "http/http_store.h"
#include "ipfs/ipfs_store.h"
#include "ipfs/ipfs_url.h"
#include "odf_hash/core/text.h"
#include "odf_hash/internal/io/arrow_module.h"
#include "odf_hash/io/local_store.h"
#include "odf_hash/io/store.h"
#include "smtp/smtp_store.h"

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
bool is_smtp(std::string_view text) {
  return starts_with_nocase(text, "odf+http://") || starts_with_nocase(text, "odf+https://");
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

// http_options with $ODF_HASH_BEARER_TOKEN, for a dataset's own server (a kamu node's private
// dataset, over either transfer protocol); never for an IPFS gateway. Where it goes from there
// is the store's rule: the URL's host (libcurl drops it on a redirect elsewhere), or the node's
// own address only for odf+http(s)://.
remote::HttpOptions node_http_options(const StoreOptions& options) {
  remote::HttpOptions http = http_options(options);
  if (const char* token = std::getenv("ODF_HASH_BEARER_TOKEN"); token != nullptr) {
    http.bearer_token = token;
  }
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

bool is_smtp_url(std::string_view text) {
  return is_smtp(text);
}

bool is_store_url(std::string_view text) {
  return is_s3(text) || is_http(text) || is_ipfs(text) || is_smtp(text);
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
  if (is_smtp(url_or_path)) {
    ODF_HASH_ASSIGN_OR_RETURN(
        std::shared_ptr<ObjectStore> store,
        remote::open_smtp_store(url_or_path, node_http_options(options), options));
    return cancellable_store(std::move(store), options.cancel);
  }
  if (is_http(url_or_path) || is_ipfs(url_or_path)) {
    std::shared_ptr<ObjectStore> store;
    if (is_ipfs(url_or_path)) {
      ODF_HASH_ASSIGN_OR_RETURN(store, open_ipfs(url_or_path, options));
    } else {
      ODF_HASH_ASSIGN_OR_RETURN(store,
                                remote::open_http_store(url_or_path, node_http_options(options)));
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

void shutdown_remote_stores() {
  if (!s3_opened) return;
  auto api = io_internal::arrow_module();
  if (api.is_ok() && (*api)->shutdown_s3 != nullptr) (*api)->shutdown_s3();
}

}  // namespace odf_hash
