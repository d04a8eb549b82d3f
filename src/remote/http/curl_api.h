// libcurl, loaded on first use. The HTTP store is the only user of libcurl, and linking it
// would make every start of odf-hash (and every import of the Python extension) load
// libcurl and the ~30 libraries it needs (TLS, Kerberos, LDAP, SSH, IDN...): twice the
// start-up time of `odf-hash physical tiny-file` (issue 12 item 2). So libcurl.so.4 is
// opened with dlopen when the first HTTP store is made, and its functions are called
// through this table. The headers (types, constants) are libcurl's own.
#pragma once

#include <curl/curl.h>

#include "odf_hash/core/status.h"

namespace odf_hash::remote {

// The libcurl functions the HTTP store calls, with libcurl's own signatures.
struct CurlApi {
  decltype(&::curl_global_init) global_init;
  decltype(&::curl_easy_init) easy_init;
  decltype(&::curl_easy_reset) easy_reset;
  decltype(&::curl_easy_setopt) easy_setopt;
  decltype(&::curl_easy_perform) easy_perform;
  decltype(&::curl_easy_pause) easy_pause;
  decltype(&::curl_easy_cleanup) easy_cleanup;
  decltype(&::curl_easy_strerror) easy_strerror;
  decltype(&::curl_share_init) share_init;
  decltype(&::curl_share_setopt) share_setopt;
  decltype(&::curl_share_cleanup) share_cleanup;
  decltype(&::curl_multi_init) multi_init;
  decltype(&::curl_multi_add_handle) multi_add_handle;
  decltype(&::curl_multi_remove_handle) multi_remove_handle;
  decltype(&::curl_multi_perform) multi_perform;
  decltype(&::curl_multi_poll) multi_poll;
  decltype(&::curl_multi_info_read) multi_info_read;
  decltype(&::curl_multi_strerror) multi_strerror;
  decltype(&::curl_multi_cleanup) multi_cleanup;
  decltype(&::curl_slist_append) slist_append;
  decltype(&::curl_slist_free_all) slist_free_all;
};

// Loads libcurl (once per process, thread-safe; curl_global_init done) and returns its
// table, or kUnsupported naming the library and what the dynamic loader said when it is
// not installed or lacks a function. The library stays loaded until the process ends.
Result<const CurlApi*> load_curl();

// The table. Precondition: load_curl() succeeded before (the HTTP store checks it when it
// is made; nothing else calls libcurl).
const CurlApi& curl();

}  // namespace odf_hash::remote
