// Shared by the tests of the Smart Transfer Protocol's blocks (block_tar_test.cpp, the
// smtp_blocks fuzzer): bytes gzip'd by zlib, to make answers a node could send.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <vector>

inline std::vector<uint8_t> gzip_bytes(const uint8_t* data, size_t size, int level = 6) {
  z_stream z{};
  deflateInit2(&z, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::vector<uint8_t> out(deflateBound(&z, size) + 64);
  z.next_in = const_cast<Bytef*>(data);
  z.avail_in = static_cast<uInt>(size);
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}
