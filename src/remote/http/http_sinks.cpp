// The HTTP store's write callbacks (http_sinks.h).
#include "http_sinks.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace odf_hash::remote {

size_t RangeSink::on_body(char* data, size_t size, size_t nitems, void* user) {
  auto* s = static_cast<RangeSink*>(user);
  const size_t n = size * nitems;
  if (!is_success(s->headers.status)) return 0;  // an error page: its status says it all
  if (!s->checked) {
    s->checked = true;
    if (s->headers.status == 206) {
      const auto& cr = s->headers.content_range;
      if (!cr || cr->start != s->offset || (cr->total && *cr->total != s->size)) {
        s->fault = Status::io_error(
            "the object changed while being read (a range answered with another "
            "Content-Range)");
        return 0;
      }
    } else if (s->headers.content_length && *s->headers.content_length != s->size) {
      s->fault = Status::io_error("the object changed while being read (its whole body is now " +
                                  std::to_string(*s->headers.content_length) + " bytes)");
      return 0;
    } else if (s->offset != 0) {
      s->ignores_range = true;
      return 0;
    }
  }
  const size_t room = s->wanted - s->got;
  const size_t take = std::min(room, n);
  std::memcpy(s->out + s->got, data, take);
  s->got += take;
  if (take < n) {
    if (s->headers.status == 206) {
      s->fault = Status::io_error("a range response is longer than the range asked");
    } else {
      s->full = true;
    }
    return 0;
  }
  return n;
}

size_t WholeSink::on_body(char* data, size_t size, size_t nitems, void* user) {
  auto* s = static_cast<WholeSink*>(user);
  const size_t n = size * nitems;
  if (!is_success(s->headers.status)) return 0;
  if (!s->checked) {
    s->checked = true;
    const bool ranged = s->headers.status == 206;
    if (ranged || (s->headers.content_length && *s->headers.content_length != s->size)) {
      s->fault = Status::io_error(
          "the object changed while being read (its whole body is "
          "now of another size)");
      return 0;
    }
  }
  if (s->file->size() + n > s->size) {
    s->fault = Status::io_error(
        "the object changed while being read (its whole body is now "
        "longer than " +
        std::to_string(s->size) + " bytes)");
    return 0;
  }
  s->fault = s->file->append(reinterpret_cast<const uint8_t*>(data), n);
  return s->fault.is_ok() ? n : 0;
}

size_t BufferSink::on_body(char* data, size_t size, size_t nitems, void* user) {
  auto* s = static_cast<BufferSink*>(user);
  const size_t n = size * nitems;
  if (!is_success(s->headers.status)) return 0;
  if ((s->headers.content_length && *s->headers.content_length > s->limit) ||
      n > s->limit - s->body.size()) {
    s->too_large = true;
    return 0;
  }
  const auto* bytes = reinterpret_cast<const uint8_t*>(data);  // memmove, not a char loop
  s->body.insert(s->body.end(), bytes, bytes + n);
  return n;
}

}  // namespace odf_hash::remote
