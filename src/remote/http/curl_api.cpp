// libcurl loaded on first use (curl_api.h).
#include "curl_api.h"

#include <dlfcn.h>

#include <mutex>
#include <string>

namespace odf_hash::remote {
namespace {

// The soname of libcurl's ABI 4, the one the headers describe (every libcurl since 7.16).
constexpr const char* kLibrary = "libcurl.so.4";

CurlApi g_api{};
Status g_status = Status::ok();

template <typename Fn>
bool bind(void* lib, const char* name, Fn& out, std::string& missing) {
  out = reinterpret_cast<Fn>(::dlsym(lib, name));
  if (out == nullptr && missing.empty()) missing = name;
  return out != nullptr;
}

Status load_once() {
  // RTLD_LOCAL: libcurl's symbols stay out of the global namespace (the Arrow module's
  // AWS SDK brings its own HTTP client); never dlclosed.
  void* lib = ::dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* why = ::dlerror();
    return Status::unsupported(std::string("http(s) URLs need libcurl (") + kLibrary +
                               ", Debian package libcurl4), which cannot be loaded: " +
                               (why != nullptr ? why : "unknown error"));
  }
  std::string missing;
  CurlApi& a = g_api;
  bind(lib, "curl_global_init", a.global_init, missing);
  bind(lib, "curl_easy_init", a.easy_init, missing);
  bind(lib, "curl_easy_reset", a.easy_reset, missing);
  bind(lib, "curl_easy_setopt", a.easy_setopt, missing);
  bind(lib, "curl_easy_perform", a.easy_perform, missing);
  bind(lib, "curl_easy_pause", a.easy_pause, missing);
  bind(lib, "curl_easy_cleanup", a.easy_cleanup, missing);
  bind(lib, "curl_easy_strerror", a.easy_strerror, missing);
  bind(lib, "curl_share_init", a.share_init, missing);
  bind(lib, "curl_share_setopt", a.share_setopt, missing);
  bind(lib, "curl_share_cleanup", a.share_cleanup, missing);
  bind(lib, "curl_multi_init", a.multi_init, missing);
  bind(lib, "curl_multi_add_handle", a.multi_add_handle, missing);
  bind(lib, "curl_multi_remove_handle", a.multi_remove_handle, missing);
  bind(lib, "curl_multi_perform", a.multi_perform, missing);
  bind(lib, "curl_multi_poll", a.multi_poll, missing);
  bind(lib, "curl_multi_info_read", a.multi_info_read, missing);
  bind(lib, "curl_multi_strerror", a.multi_strerror, missing);
  bind(lib, "curl_multi_cleanup", a.multi_cleanup, missing);
  bind(lib, "curl_slist_append", a.slist_append, missing);
  bind(lib, "curl_slist_free_all", a.slist_free_all, missing);
  if (!missing.empty()) {
    return Status::unsupported(std::string(kLibrary) + " has no " + missing +
                               " (libcurl too old for http(s) URLs)");
  }
  // Never cleaned up: curl_global_cleanup while another thread may still use libcurl (or
  // at exit, after static destructors) would be worse than the one-time allocation.
  const CURLcode rc = a.global_init(CURL_GLOBAL_DEFAULT);
  if (rc != CURLE_OK) {
    return Status::io_error(std::string("libcurl failed to start: ") + a.easy_strerror(rc));
  }
  return Status::ok();
}

}  // namespace

Result<const CurlApi*> load_curl() {
  static std::once_flag once;
  std::call_once(once, [] { g_status = load_once(); });
  if (!g_status.is_ok()) return g_status;
  return &g_api;
}

const CurlApi& curl() {
  return g_api;
}

}  // namespace odf_hash::remote
