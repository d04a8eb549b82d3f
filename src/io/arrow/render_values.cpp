#include "render_values.h"

#include <exception>

#include <arrow/array.h>
#include <arrow/c/bridge.h>
#include <arrow/record_batch.h>
#include <arrow/scalar.h>

namespace odf_hash::io_internal {

namespace {

// Arrow's importers take ownership of the struct they are given and call its release when
// done. These copies share the caller's buffers and children and release nothing, so the
// caller's schema and batch stay intact and theirs.
void release_nothing_schema(ArrowSchema* s) {
  s->release = nullptr;
}
void release_nothing_array(ArrowArray* a) {
  a->release = nullptr;
}

bool is_text(const arrow::DataType& t) {
  switch (t.id()) {
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING:
    case arrow::Type::STRING_VIEW:
    case arrow::Type::BINARY:
    case arrow::Type::LARGE_BINARY:
    case arrow::Type::BINARY_VIEW:
    case arrow::Type::FIXED_SIZE_BINARY: return true;
    default: return false;
  }
}

// Length of the UTF-8 sequence starting at s[i], or 0 when it is not valid UTF-8.
size_t utf8_length(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return 0;
  }
  return n;
}

}  // namespace

std::string render_safely(std::string_view text, size_t max_chars) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  size_t chars = 0;
  for (size_t i = 0; i < text.size();) {
    if (chars >= max_chars) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(text[i]);
    const size_t n = utf8_length(text, i);
    if (n == 1 && c >= 0x20 && c != 0x7f) {
      if (c == '\\')
        out += "\\\\";
      else
        out += static_cast<char>(c);
      ++i;
    } else if (n > 1) {
      out.append(text.substr(i, n));
      i += n;
    } else {  // a control character or a byte that is not UTF-8
      if (c == '\n')
        out += "\\n";
      else if (c == '\t')
        out += "\\t";
      else if (c == '\r')
        out += "\\r";
      else
        out += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
      ++i;
    }
    ++chars;
  }
  return out;
}

Result<std::vector<std::string>> render_values(const ArrowSchema& schema, const ArrowArray& batch,
                                               const std::vector<int>& child_path,
                                               const std::vector<int64_t>& rows,
                                               size_t max_chars) try {
  ArrowSchema schema_view = schema;
  schema_view.release = &release_nothing_schema;
  ArrowArray batch_view = batch;
  batch_view.release = &release_nothing_array;
  auto imported = arrow::ImportRecordBatch(&batch_view, &schema_view);
  if (!imported.ok()) {
    return Status::internal("rendering values: " + imported.status().ToString());
  }
  std::shared_ptr<arrow::RecordBatch> rb = *imported;
  if (child_path.empty() || child_path[0] < 0 || child_path[0] >= rb->num_columns()) {
    return Status::invalid_argument("rendering values: no such column");
  }
  // The chain of arrays from the top-level column down (struct fields: same row indices).
  std::vector<std::shared_ptr<arrow::Array>> chain{rb->column(child_path[0])};
  for (size_t k = 1; k < child_path.size(); ++k) {
    const auto* st = dynamic_cast<const arrow::StructArray*>(chain.back().get());
    if (st == nullptr || child_path[k] < 0 || child_path[k] >= st->num_fields()) {
      return Status::invalid_argument("rendering values: no such column");
    }
    chain.push_back(st->field(child_path[k]));
  }
  const arrow::Array& leaf = *chain.back();
  std::vector<std::string> out;
  for (int64_t row : rows) {
    if (row < 0 || row >= rb->num_rows()) {
      return Status::invalid_argument("rendering values: row out of range");
    }
    bool null = false;
    for (const auto& a : chain) null = null || a->IsNull(row);
    if (null) {
      out.push_back("null");
      continue;
    }
    auto scalar = leaf.GetScalar(row);
    if (!scalar.ok()) return Status::internal("rendering values: " + scalar.status().ToString());
    std::shared_ptr<arrow::Scalar> s = *scalar;
    if (s->type->id() == arrow::Type::DICTIONARY) {  // shown as its value, as hashed
      auto decoded = static_cast<const arrow::DictionaryScalar&>(*s).GetEncodedValue();
      if (!decoded.ok())
        return Status::internal("rendering values: " + decoded.status().ToString());
      s = *decoded;
    }
    if (is_text(*s->type)) {
      const auto& b = static_cast<const arrow::BaseBinaryScalar&>(*s);
      const std::string_view v =
          b.value ? std::string_view(reinterpret_cast<const char*>(b.value->data()),
                                     size_t(b.value->size()))
                  : std::string_view();
      std::string quoted = "\"";
      for (char ch : render_safely(v, max_chars)) {
        if (ch == '"')
          quoted += "\\\"";
        else
          quoted += ch;
      }
      out.push_back(quoted + "\"");
    } else {
      out.push_back(render_safely(s->ToString(), max_chars));
    }
  }
  return out;
} catch (const std::exception& e) {
  return Status::internal(std::string("rendering values: ") + e.what());
}

}  // namespace odf_hash::io_internal
