// Internal to remote: the write callbacks of the HTTP store's blocking requests (libcurl's
// CURLOPT_WRITEFUNCTION with the sink as CURLOPT_WRITEDATA): a range read into the caller's
// buffer, and a whole object into a spool (spool_file.h). Each checks the first response it
// sees against the object as opened, so that a changed object is never stitched together.
#pragma once

#include <cstddef>
#include <cstdint>

#include "curl_client.h"
#include "odf_hash/status.h"
#include "spool_file.h"

namespace odf_hash::remote {

// The body of one range read, written into the caller's buffer.
struct RangeSink {
  uint8_t* out;
  size_t wanted;
  uint64_t offset;  // the object offset of out[0]
  uint64_t size;    // the object's size when opened
  ResponseHeaders headers;
  size_t got = 0;
  bool checked = false;
  bool full = false;           // a 200 to a range from 0: stopped once `wanted` bytes were there
  bool ignores_range = false;  // a 200 (the whole object) to a range from elsewhere
  Status fault;                // a response that cannot be right: not retried

  static size_t on_body(char* data, size_t size, size_t nitems, void* user);
};

// The body of a GET of the whole object, written to a spool.
struct WholeSink {
  SpoolFile* file;
  uint64_t size;  // the object's size when opened
  ResponseHeaders headers;
  bool checked = false;
  Status fault;

  static size_t on_body(char* data, size_t size, size_t nitems, void* user);
};

}  // namespace odf_hash::remote
