// read_string_columns (string_columns.h): the values of a few string columns, walked over the
// Arrow C Data Interface (no libarrow here: the Arrow module produces the batches).
#include "odf_hash/internal/io/string_columns.h"

#include <algorithm>
#include <cstring>

#include "odf_hash/internal/io/arrow_module.h"

namespace odf_hash {

namespace {

// Releases a C Data Interface struct when it goes out of scope.
template <typename T>
struct Owned {
  T value{};
  ~Owned() {
    if (value.release != nullptr) value.release(&value);
  }
};

bool valid_at(const ArrowArray& a, int64_t i) {
  if (a.n_buffers < 1 || a.buffers[0] == nullptr) return true;
  const int64_t bit = a.offset + i;
  return (static_cast<const uint8_t*>(a.buffers[0])[bit >> 3] >> (bit & 7)) & 1;
}

enum class StringKind { kUtf8, kLargeUtf8, kUtf8View };

// One column to read: where it sits in the stream's schema.
struct ColumnPlan {
  std::vector<int> child_path;  // child indices from the batch's struct array down
  StringKind kind = StringKind::kUtf8;
};

// The value at index i (already known valid) of a string array of `kind`, or an error when
// the buffers are inconsistent.
Status string_at(const ArrowArray& a, StringKind kind, int64_t i, std::string_view* out) {
  const int64_t j = a.offset + i;
  switch (kind) {
    case StringKind::kUtf8: {
      if (a.n_buffers < 3 || a.buffers[1] == nullptr) break;
      const auto* offsets = static_cast<const int32_t*>(a.buffers[1]);
      const int32_t b = offsets[j], e = offsets[j + 1];
      if (b < 0 || e < b || (e > b && a.buffers[2] == nullptr)) break;
      if (e == b) {
        *out = std::string_view();
        return Status::ok();
      }
      *out = std::string_view(static_cast<const char*>(a.buffers[2]) + b, size_t(e - b));
      return Status::ok();
    }
    case StringKind::kLargeUtf8: {
      if (a.n_buffers < 3 || a.buffers[1] == nullptr) break;
      const auto* offsets = static_cast<const int64_t*>(a.buffers[1]);
      const int64_t b = offsets[j], e = offsets[j + 1];
      if (b < 0 || e < b || (e > b && a.buffers[2] == nullptr)) break;
      if (e == b) {
        *out = std::string_view();
        return Status::ok();
      }
      *out = std::string_view(static_cast<const char*>(a.buffers[2]) + b, size_t(e - b));
      return Status::ok();
    }
    case StringKind::kUtf8View: {
      if (a.n_buffers < 2 || a.buffers[1] == nullptr) break;
      const uint8_t* view = static_cast<const uint8_t*>(a.buffers[1]) + 16 * j;
      int32_t len = 0;
      std::memcpy(&len, view, 4);
      if (len < 0) break;
      if (len <= 12) {
        *out = std::string_view(reinterpret_cast<const char*>(view + 4), size_t(len));
        return Status::ok();
      }
      int32_t buffer = 0, offset = 0;
      std::memcpy(&buffer, view + 8, 4);
      std::memcpy(&offset, view + 12, 4);
      // buffers: validity, views, data buffers..., variadic sizes.
      if (buffer < 0 || offset < 0 || 2 + int64_t{buffer} >= a.n_buffers - 1 ||
          a.buffers[2 + buffer] == nullptr) {
        break;
      }
      *out =
          std::string_view(static_cast<const char*>(a.buffers[2 + buffer]) + offset, size_t(len));
      return Status::ok();
    }
  }
  return Status::parse_error("inconsistent string array");
}

std::string join(const std::vector<std::string>& path) {
  std::string s;
  for (const auto& p : path) s += (s.empty() ? "" : ".") + p;
  return s;
}

}  // namespace

Status read_string_columns(std::shared_ptr<ObjectReader> object,
                           const std::vector<std::vector<std::string>>& paths,
                           const StringValueVisitor& visit) {
  if (object == nullptr) return Status::invalid_argument("read_string_columns: null object");
  ODF_HASH_ASSIGN_OR_RETURN(const io_internal::ArrowModuleApi* api, io_internal::arrow_module());
  const std::string name = object->name();
  Owned<ArrowSchema> schema;
  {
    Owned<ArrowArrayStream> whole;
    ODF_HASH_RETURN_IF_ERROR(api->open_record_stream(object, &whole.value));
    if (whole.value.get_schema(&whole.value, &schema.value) != 0) {
      return Status::io_error(name + ": reading the stream's schema failed");
    }
  }
  // The top-level fields involved, ascending: the projection asked of the Parquet reader.
  std::vector<int> top;
  std::vector<int> top_of(paths.size(), -1);
  for (size_t c = 0; c < paths.size(); ++c) {
    if (paths[c].empty()) return Status::invalid_argument("read_string_columns: empty path");
    for (int64_t i = 0; i < schema.value.n_children; ++i) {
      const char* n = schema.value.children[i]->name;
      if (n != nullptr && paths[c][0] == n) {
        top_of[c] = static_cast<int>(i);
        break;
      }
    }
    if (top_of[c] < 0) {
      return Status::parse_error(name + ": the file has no column \"" + paths[c][0] + "\"");
    }
    top.push_back(top_of[c]);
  }
  std::sort(top.begin(), top.end());
  top.erase(std::unique(top.begin(), top.end()), top.end());

  Owned<ArrowArrayStream> stream;
  bool projected = true;
  Status st = api->open_parquet_fields_stream(object, top, &stream.value);
  if (st.code() == StatusCode::kUnsupported) {
    projected = false;
    ODF_HASH_RETURN_IF_ERROR(api->open_record_stream(object, &stream.value));
  } else if (!st.is_ok()) {
    return st;
  }
  // Each column's path of child indices in the stream's batches, and its string kind.
  std::vector<ColumnPlan> plans(paths.size());
  for (size_t c = 0; c < paths.size(); ++c) {
    const int first =
        projected
            ? static_cast<int>(std::lower_bound(top.begin(), top.end(), top_of[c]) - top.begin())
            : top_of[c];
    plans[c].child_path.push_back(first);
    const ArrowSchema* s = schema.value.children[top_of[c]];
    for (size_t k = 1; k < paths[c].size(); ++k) {
      if (std::strcmp(s->format, "+s") != 0) {
        return Status::parse_error(name + ": column \"" + join(paths[c]) + "\": \"" +
                                   join({paths[c].begin(), paths[c].begin() + long(k)}) +
                                   "\" is not a struct");
      }
      int found = -1;
      for (int64_t i = 0; i < s->n_children; ++i) {
        if (s->children[i]->name != nullptr && paths[c][k] == s->children[i]->name) {
          found = static_cast<int>(i);
          break;
        }
      }
      if (found < 0) {
        return Status::parse_error(name + ": the file has no column \"" + join(paths[c]) + "\"");
      }
      plans[c].child_path.push_back(found);
      s = s->children[found];
    }
    const std::string format = s->format;
    if (s->dictionary != nullptr || (format != "u" && format != "U" && format != "vu")) {
      return Status::parse_error(name + ": column \"" + join(paths[c]) +
                                 "\" is not a string column (Arrow format \"" + format + "\")");
    }
    plans[c].kind = format == "u"   ? StringKind::kUtf8
                    : format == "U" ? StringKind::kLargeUtf8
                                    : StringKind::kUtf8View;
  }

  uint64_t row0 = 0;
  while (true) {
    Owned<ArrowArray> batch;
    if (stream.value.get_next(&stream.value, &batch.value) != 0) {
      const char* err = stream.value.get_last_error(&stream.value);
      return Status::io_error(name + ": " + (err != nullptr ? err : "reading a batch failed"));
    }
    if (batch.value.release == nullptr) break;  // end of stream
    const ArrowArray& root = batch.value;
    for (size_t c = 0; c < plans.size(); ++c) {
      // Rows whose parents are all valid, walking down the struct children.
      // A child's row i is its parent's row (parent offset + i): shifts[k] is the sum of the
      // offsets above chain[k].
      std::vector<const ArrowArray*> chain;
      std::vector<int64_t> shifts;
      const ArrowArray* a = &root;
      int64_t shift = 0;
      bool ok = true;
      for (int idx : plans[c].child_path) {
        if (idx >= a->n_children || a->children[idx] == nullptr) {
          ok = false;
          break;
        }
        shift += a->offset;
        a = a->children[idx];
        chain.push_back(a);
        shifts.push_back(shift);
      }
      if (!ok)
        return Status::parse_error(name + ": a batch lacks column \"" + join(paths[c]) + "\"");
      for (int64_t i = 0; i < root.length; ++i) {
        bool present = true;
        // Struct children share the parent's row index (plus their own offsets).
        for (size_t k = 0; k < chain.size(); ++k) {
          if (!valid_at(*chain[k], shifts[k] + i)) {
            present = false;
            break;
          }
        }
        if (!present) continue;
        std::string_view v;
        Status vs = string_at(*chain.back(), plans[c].kind, shifts.back() + i, &v);
        if (!vs.is_ok()) {
          return Status::parse_error(name + ": column \"" + join(paths[c]) + "\", row " +
                                     std::to_string(row0 + uint64_t(i)) + ": " + vs.message());
        }
        ODF_HASH_RETURN_IF_ERROR(visit(c, row0 + uint64_t(i), v));
      }
    }
    row0 += uint64_t(root.length);
  }
  return Status::ok();
}

}  // namespace odf_hash
