// Data files as record streams (include/odf_hash/io/record_stream.h): detecting Parquet and Arrow
// IPC files by their magic bytes, and opening their records through the Arrow module
// (arrow_module.h). The concatenated stream of several files: concat_stream.cpp.
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "odf_hash/internal/io/arrow_module.h"
#include "odf_hash/io/local_store.h"
#include "odf_hash/io/record_stream.h"

namespace odf_hash {

const char* file_format_name(FileFormat format) {
  switch (format) {
    case FileFormat::kParquet: return "parquet";
    case FileFormat::kArrowIpcFile: return "arrow-ipc-file";
    case FileFormat::kArrowIpcStream: return "arrow-ipc-stream";
  }
  return "unknown";
}

namespace {

uint32_t load_le32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

}  // namespace

// Parquet files start and end with "PAR1" (an encrypted footer ends with "PARE"). Arrow
// IPC files start with "ARROW1" and end with it. Arrow IPC streams start with a message:
// the 0xFFFFFFFF continuation marker and a little-endian int32 metadata length, or, in the
// legacy (pre-0.15) format, the length alone. A stream holding only the end-of-stream
// marker (length 0) is still a stream; opening it reports the missing schema.
Result<FileFormat> detect_file_format(ObjectReader& object) {
  const std::string& path = object.name();
  const uint64_t size = object.size();
  uint8_t head[8] = {};
  ODF_HASH_ASSIGN_OR_RETURN(size_t head_len, object.read_at(0, head, sizeof head));
  if (head_len == 0) {
    return Status::parse_error(path + ": not a Parquet or Arrow IPC file (empty file)");
  }
  uint8_t tail[6] = {};
  size_t tail_len = 0;
  if (size >= sizeof tail) {
    ODF_HASH_ASSIGN_OR_RETURN(tail_len, object.read_at(size - sizeof tail, tail, sizeof tail));
  }

  if (head_len >= 4 && std::memcmp(head, "PAR1", 4) == 0) {
    if (size >= 12 && tail_len == 6 && std::memcmp(tail + 2, "PAR1", 4) == 0) {
      return FileFormat::kParquet;
    }
    if (size >= 12 && tail_len == 6 && std::memcmp(tail + 2, "PARE", 4) == 0) {
      return Status::unsupported(path + ": encrypted Parquet files are not supported");
    }
    return Status::parse_error(path +
                               ": truncated or corrupt Parquet file (no PAR1 magic at the end)");
  }
  if (head_len >= 6 && std::memcmp(head, "ARROW1", 6) == 0) {
    if (size >= 12 && tail_len == 6 && std::memcmp(tail, "ARROW1", 6) == 0) {
      return FileFormat::kArrowIpcFile;
    }
    return Status::parse_error(
        path + ": truncated or corrupt Arrow IPC file (no ARROW1 magic at the end)");
  }
  if (head_len == 8) {
    const uint32_t first = load_le32(head);
    const uint32_t second = load_le32(head + 4);
    if (first == 0xFFFFFFFFu && second < 0x80000000u && 8 + uint64_t{second} <= size) {
      return FileFormat::kArrowIpcStream;
    }
    // Legacy stream: a positive metadata length, then a FlatBuffer whose root offset
    // points inside that metadata.
    if (first > 0 && first < 0x80000000u && 4 + uint64_t{first} <= size && second >= 4 &&
        second < first) {
      return FileFormat::kArrowIpcStream;
    }
  }
  return Status::parse_error(path + ": not a Parquet or Arrow IPC file");
}

Result<FileFormat> detect_file_format(const std::string& path) {
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> object, open_local_file(path));
  return detect_file_format(*object);
}

Status open_record_stream(const std::string& path, ArrowArrayStream* out) {
  if (out == nullptr) return Status::invalid_argument("open_record_stream: null output stream");
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> object, open_local_file(path));
  return open_record_stream(std::shared_ptr<ObjectReader>(std::move(object)), out);
}

Status open_record_stream(std::shared_ptr<ObjectReader> object, ArrowArrayStream* out) {
  if (out == nullptr) return Status::invalid_argument("open_record_stream: null output stream");
  if (object == nullptr) return Status::invalid_argument("open_record_stream: null object");
  Result<const io_internal::ArrowModuleApi*> api = io_internal::arrow_module();
  if (!api.is_ok()) return api.status().with_context(object->name());
  return (*api)->open_record_stream(std::move(object), out);
}

}  // namespace odf_hash
