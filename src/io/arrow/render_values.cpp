#include "render_values.h"

#include <exception>
#include <memory>

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

// Escapes what a terminal or a report must not see raw (control characters, bytes that are
// not UTF-8) and, when `quote`, the quote and backslash, without cutting.
std::string escape(std::string_view text, bool quote) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const size_t n = utf8_length(text, i);
    if (n == 1 && c >= 0x20 && c != 0x7f) {
      if (quote && (c == '"' || c == '\\')) out += '\\';
      out += static_cast<char>(c);
      ++i;
    } else if (n > 1) {
      out.append(text.substr(i, n));
      i += n;
    } else if (c == '\n') {
      out += "\\n";
      ++i;
    } else if (c == '\t') {
      out += "\\t";
      ++i;
    } else if (c == '\r') {
      out += "\\r";
      ++i;
    } else {
      out += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
      ++i;
    }
  }
  return out;
}

// Cuts already safe text to `max_chars` characters ("..." marks a cut).
std::string cut(const std::string& text, size_t max_chars) {
  size_t chars = 0;
  for (size_t i = 0; i < text.size(); ++chars) {
    if (chars >= max_chars) return text.substr(0, i) + "...";
    const size_t n = utf8_length(text, i);
    i += n == 0 ? 1 : n;
  }
  return text;
}

// A scalar as text: strings quoted, lists as [a, b], structs as {name: value}, dictionaries
// as their values; the rest as Arrow formats them. Stops adding once `budget` characters
// are reached (the caller cuts).
void render_scalar(const arrow::Scalar& s, std::string& out, size_t budget) {
  if (out.size() > budget) return;
  if (!s.is_valid) {
    out += "null";
    return;
  }
  switch (s.type->id()) {
    case arrow::Type::DICTIONARY: {
      auto decoded = static_cast<const arrow::DictionaryScalar&>(s).GetEncodedValue();
      if (decoded.ok()) render_scalar(**decoded, out, budget);
      return;
    }
    case arrow::Type::LIST:
    case arrow::Type::LARGE_LIST:
    case arrow::Type::FIXED_SIZE_LIST:
    case arrow::Type::LIST_VIEW:
    case arrow::Type::LARGE_LIST_VIEW: {
      const auto& list = static_cast<const arrow::BaseListScalar&>(s);
      out += "[";
      for (int64_t i = 0; list.value && i < list.value->length() && out.size() <= budget; ++i) {
        if (i > 0) out += ", ";
        auto item = list.value->GetScalar(i);
        if (item.ok()) render_scalar(**item, out, budget);
      }
      out += "]";
      return;
    }
    case arrow::Type::STRUCT: {
      const auto& st = static_cast<const arrow::StructScalar&>(s);
      out += "{";
      for (size_t i = 0; i < st.value.size() && out.size() <= budget; ++i) {
        if (i > 0) out += ", ";
        out += escape(s.type->field(int(i))->name(), false) + ": ";
        render_scalar(*st.value[i], out, budget);
      }
      out += "}";
      return;
    }
    default: break;
  }
  if (is_text(*s.type)) {
    const auto& b = static_cast<const arrow::BaseBinaryScalar&>(s);
    const std::string_view v =
        b.value ? std::string_view(reinterpret_cast<const char*>(b.value->data()),
                                   size_t(b.value->size()))
                : std::string_view();
    // At most budget bytes of a long value are escaped: the rest would be cut anyway.
    out += "\"" + escape(v.substr(0, budget + 4), true) + "\"";
    return;
  }
  out += escape(s.ToString(), false);
}

}  // namespace

struct RenderBatch {
  std::shared_ptr<arrow::Array> imported;  // a view of the caller's batch (released by no one)
  const arrow::StructArray* records = nullptr;
};

Result<RenderBatch*> open_render_batch(const ArrowSchema& schema, const ArrowArray& batch) try {
  ArrowSchema schema_view = schema;
  schema_view.release = &release_nothing_schema;
  ArrowArray batch_view = batch;
  batch_view.release = &release_nothing_array;
  // Imported as a struct array rather than a RecordBatch: a batch of a row window
  // (row_window.h) is sliced through the parent's offset, which a RecordBatch cannot have.
  auto imported = arrow::ImportArray(&batch_view, &schema_view);
  if (!imported.ok()) {
    return Status::internal("rendering values: " + imported.status().ToString());
  }
  const auto* rb = dynamic_cast<const arrow::StructArray*>(imported->get());
  if (rb == nullptr) return Status::invalid_argument("rendering values: not a struct batch");
  auto out = std::make_unique<RenderBatch>();
  out->imported = std::move(imported).ValueOrDie();
  out->records = rb;
  return out.release();
} catch (const std::exception& e) {
  return Status::internal(std::string("rendering values: ") + e.what());
}

void close_render_batch(RenderBatch* batch) {
  delete batch;
}

Result<std::vector<std::string>> render_batch_values(const RenderBatch* batch,
                                                     const std::vector<int>& child_path,
                                                     const std::vector<int64_t>& rows,
                                                     size_t max_chars) try {
  const arrow::StructArray* rb = batch->records;
  if (child_path.empty() || child_path[0] < 0 || child_path[0] >= rb->num_fields()) {
    return Status::invalid_argument("rendering values: no such column");
  }
  // The chain of arrays from the top-level column down (struct fields: same row indices;
  // field() applies the parent's offset).
  std::vector<std::shared_ptr<arrow::Array>> chain{rb->field(child_path[0])};
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
    if (row < 0 || row >= rb->length()) {
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
    std::string text;
    render_scalar(**scalar, text, max_chars);
    out.push_back(cut(text, max_chars));
  }
  return out;
} catch (const std::exception& e) {
  return Status::internal(std::string("rendering values: ") + e.what());
}

Result<std::vector<std::string>> render_values(const ArrowSchema& schema, const ArrowArray& batch,
                                               const std::vector<int>& child_path,
                                               const std::vector<int64_t>& rows, size_t max_chars) {
  ODF_HASH_ASSIGN_OR_RETURN(RenderBatch * b, open_render_batch(schema, batch));
  Result<std::vector<std::string>> out = render_batch_values(b, child_path, rows, max_chars);
  close_render_batch(b);
  return out;
}

}  // namespace odf_hash::io_internal
