// Internal to remote: the write callbacks of the HTTP store's blocking requests (libcurl's
// CURLOPT_WRITEFUNCTION with the sink as CURLOPT_WRITEDATA): a range read into the caller's
// buffer and a whole object into a spool (spool_file.h), each checking the first response it
// sees against the object as opened so that a changed object is never stitched together; and
// a small body (an IPFS block, checked by its CID afterwards) into memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "curl_client.h"
#include "odf_hash/core/status.h"
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

// The body of a GET kept in memory, at most `limit` bytes: a larger body (announced or sent)
// stops the transfer with `too_large` set, before more than `limit` bytes are held.
struct BufferSink {
  size_t limit;
  ResponseHeaders headers;
  std::vector<uint8_t> body;
  bool too_large = false;

  static size_t on_body(char* data, size_t size, size_t nitems, void* user);
};

}  // namespace odf_hash::remote
