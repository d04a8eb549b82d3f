#include "int96.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include <arrow/buffer.h>
#include <arrow/util/bit_util.h>

#include "memory_pool.h"

namespace odf_hash::io_internal {

namespace {

constexpr int64_t kJulianDayOfEpoch = 2440588;
constexpr int64_t kReadChunk = 4096;     // levels per low-level ReadBatch call
constexpr int kMaxEmptyReads = 1 << 16;  // consecutive reads of no levels (empty pages)

// Two's-complement wrapping arithmetic (Rust's wrapping_mul / wrapping_add), without the
// undefined behaviour of signed overflow in C++.
int64_t wrapping_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
int64_t wrapping_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

Status leaf_error(int column, const std::string& what) {
  return Status::parse_error("INT96 column " + std::to_string(column) + ": " + what);
}

}  // namespace

int64_t int96_to_arrow_rs(const parquet::Int96& value, arrow::TimeUnit::type unit) {
  const int64_t day = static_cast<int32_t>(value.value[2]);  // as i32: signed
  uint64_t bits = 0;
  std::memcpy(&bits, value.value.data(), sizeof bits);  // value[0] low, value[1] high
  const auto nanos = static_cast<int64_t>(bits);        // as i64: signed
  int64_t per_day = 86400, nanos_per_unit = 1000000000;
  switch (unit) {
    case arrow::TimeUnit::SECOND: break;
    case arrow::TimeUnit::MILLI: per_day *= 1000, nanos_per_unit = 1000000; break;
    case arrow::TimeUnit::MICRO: per_day *= 1000000, nanos_per_unit = 1000; break;
    case arrow::TimeUnit::NANO: per_day *= 1000000000, nanos_per_unit = 1; break;
  }
  // day - 2440588 cannot overflow (day is an i32); the quotient truncates toward zero in
  // both languages.
  return wrapping_add(wrapping_mul(day - kJulianDayOfEpoch, per_day), nanos / nanos_per_unit);
}

namespace {

struct Found {
  std::vector<int> path;
  int column;
  std::shared_ptr<arrow::DataType> type;
};

// Collects the INT96 leaves under `field` (whose arrow-rs type is `target_ptr`).
Status collect(const parquet::arrow::SchemaField& field,
               const std::shared_ptr<arrow::DataType>& target_ptr,
               const parquet::SchemaDescriptor& descr, std::vector<int>* path,
               std::vector<Found>* out) {
  const arrow::DataType& target = *target_ptr;
  if (field.column_index >= 0) {
    if (field.column_index >= descr.num_columns() ||
        descr.Column(field.column_index)->physical_type() != parquet::Type::INT96) {
      return Status::ok();
    }
    if (target.id() != arrow::Type::TIMESTAMP) {
      return Status::unsupported("INT96 column '" + field.field->name() + "' read as " +
                                 target.ToString() + " (arrow-rs reads INT96 as timestamps)");
    }
    out->push_back({*path, field.column_index, target_ptr});
    return Status::ok();
  }
  if (static_cast<int>(field.children.size()) != target.num_fields()) {
    return Status::parse_error("column '" + field.field->name() +
                               "': Arrow C++ and arrow-rs read different structures");
  }
  for (size_t i = 0; i < field.children.size(); ++i) {
    path->push_back(static_cast<int>(i));
    ODF_HASH_RETURN_IF_ERROR(
        collect(field.children[i], target.field(static_cast<int>(i))->type(), descr, path, out));
    path->pop_back();
  }
  return Status::ok();
}

}  // namespace

Result<Int96Columns> Int96Columns::plan(const parquet::arrow::SchemaManifest& manifest,
                                        const arrow::Schema& target,
                                        const parquet::SchemaDescriptor& descr) {
  Int96Columns out;
  bool any = false;
  for (int i = 0; i < descr.num_columns() && !any; ++i) {
    any = descr.Column(i)->physical_type() == parquet::Type::INT96;
  }
  if (!any) return out;
  if (static_cast<int>(manifest.schema_fields.size()) != target.num_fields()) {
    return Status::parse_error("Arrow C++ and arrow-rs read different numbers of columns");
  }
  for (int f = 0; f < target.num_fields(); ++f) {
    std::vector<Found> found;
    std::vector<int> path;
    ODF_HASH_RETURN_IF_ERROR(collect(manifest.schema_fields[static_cast<size_t>(f)],
                                     target.field(f)->type(), descr, &path, &found));
    for (auto& x : found) {
      Leaf leaf;
      leaf.column = x.column;
      leaf.path = std::move(x.path);
      leaf.type = std::move(x.type);
      out.by_field_[f].push_back(std::move(leaf));
    }
  }
  return out;
}

void Int96Columns::keep_fields(const std::vector<int>& fields) {
  for (auto it = by_field_.begin(); it != by_field_.end();) {
    if (std::find(fields.begin(), fields.end(), it->first) == fields.end()) {
      it = by_field_.erase(it);
    } else {
      ++it;
    }
  }
}

Status Int96Columns::start_row_group(parquet::ParquetFileReader& file, int row_group) {
  if (by_field_.empty()) return Status::ok();
  auto group = file.RowGroup(row_group);
  for (auto& [field, leaves] : by_field_) {
    for (auto& leaf : leaves) {
      leaf.reader = std::dynamic_pointer_cast<parquet::Int96Reader>(group->Column(leaf.column));
      if (!leaf.reader) return leaf_error(leaf.column, "not readable as INT96");
      leaf.levels_total = group->metadata()->ColumnChunk(leaf.column)->num_values();
      leaf.levels_read = 0;
      leaf.values.clear();
      leaf.next = 0;
    }
  }
  return Status::ok();
}

Result<bool> Int96Columns::read_more(Leaf& leaf) {
  std::vector<int16_t> defs(kReadChunk), reps(kReadChunk);
  for (int empty = 0; leaf.levels_read < leaf.levels_total; ++empty) {
    if (empty == kMaxEmptyReads) {
      return leaf_error(leaf.column, "the column chunk ends before its metadata says");
    }
    leaf.values.resize(kReadChunk);
    leaf.next = 0;
    int64_t values_read = 0;
    const int64_t levels = leaf.reader->ReadBatch(kReadChunk, defs.data(), reps.data(),
                                                  leaf.values.data(), &values_read);
    leaf.values.resize(static_cast<size_t>(values_read));
    leaf.levels_read += levels;
    if (levels > 0) return true;
  }
  leaf.values.clear();
  leaf.next = 0;
  return false;
}

Status Int96Columns::take(Leaf& leaf, int64_t n, std::vector<parquet::Int96>* out) {
  out->clear();
  while (static_cast<int64_t>(out->size()) < n) {
    if (leaf.next == leaf.values.size()) {
      ODF_HASH_ASSIGN_OR_RETURN(const bool more, read_more(leaf));
      if (!more) {
        return leaf_error(leaf.column,
                          "the column chunk holds fewer values than Arrow C++ decoded");
      }
      continue;
    }
    const size_t k = std::min(leaf.values.size() - leaf.next,
                              static_cast<size_t>(n - static_cast<int64_t>(out->size())));
    out->insert(out->end(), leaf.values.begin() + static_cast<std::ptrdiff_t>(leaf.next),
                leaf.values.begin() + static_cast<std::ptrdiff_t>(leaf.next + k));
    leaf.next += k;
  }
  return Status::ok();
}

namespace {

// `type` with the type of its child `i` replaced (the parents of a rewritten INT96 leaf).
Result<std::shared_ptr<arrow::DataType>> with_child_type(
    const std::shared_ptr<arrow::DataType>& type, int i,
    const std::shared_ptr<arrow::DataType>& child) {
  arrow::FieldVector fields = type->fields();
  fields[static_cast<size_t>(i)] = fields[static_cast<size_t>(i)]->WithType(child);
  switch (type->id()) {
    case arrow::Type::STRUCT: return arrow::struct_(fields);
    case arrow::Type::LIST: return arrow::list(fields[0]);
    case arrow::Type::LARGE_LIST: return arrow::large_list(fields[0]);
    case arrow::Type::FIXED_SIZE_LIST:
      return arrow::fixed_size_list(
          fields[0], static_cast<const arrow::FixedSizeListType&>(*type).list_size());
    case arrow::Type::MAP: {
      auto made =
          arrow::MapType::Make(fields[0], static_cast<const arrow::MapType&>(*type).keys_sorted());
      if (made.ok()) return *made;
      return Status::unsupported("INT96 under a map: " + made.status().message());
    }
    default: return Status::unsupported("INT96 under " + type->ToString());
  }
}

bool valid_at(const arrow::ArrayData& d, int64_t i) {
  return d.buffers.empty() || !d.buffers[0] || d.null_count == 0 ||
         arrow::bit_util::GetBit(d.buffers[0]->data(), d.offset + i);
}

}  // namespace

// `defined[i]`: slot i of `d` and all its ancestors up to the nearest list are valid, i.e.
// the Parquet definition level of a leaf under slot i can reach its maximum. Raw INT96 values
// exist exactly for the leaf slots where it does (a required leaf under a null struct is
// "valid" in Arrow C++ but has no value in the file).
Result<std::shared_ptr<arrow::ArrayData>> Int96Columns::rewrite_leaf(
    Leaf& leaf, const std::shared_ptr<arrow::ArrayData>& d, size_t depth,
    const std::vector<uint8_t>& defined) {
  const auto structure_error = [&] {
    return leaf_error(leaf.column, "Arrow C++ decoded another structure");
  };
  if (depth < leaf.path.size()) {
    const auto i = static_cast<size_t>(leaf.path[depth]);
    if (i >= d->child_data.size()) return structure_error();
    const auto& child = d->child_data[i];
    std::vector<uint8_t> child_defined(static_cast<size_t>(child->length));
    switch (d->type->id()) {
      case arrow::Type::STRUCT:
        if (d->offset != 0 || child->length != d->length) return structure_error();
        for (int64_t k = 0; k < child->length; ++k) {
          child_defined[k] = defined[k] && valid_at(*child, k);
        }
        break;
      case arrow::Type::LIST:
      case arrow::Type::LARGE_LIST:
      case arrow::Type::MAP: {
        // Items exist only under lists that are present: every item slot is reachable.
        const bool large = d->type->id() == arrow::Type::LARGE_LIST;
        const int64_t first = large ? d->GetValues<int64_t>(1)[0] : d->GetValues<int32_t>(1)[0];
        const int64_t last =
            large ? d->GetValues<int64_t>(1)[d->length] : d->GetValues<int32_t>(1)[d->length];
        if (first != 0 || last != child->length) return structure_error();
        for (int64_t k = 0; k < child->length; ++k) child_defined[k] = valid_at(*child, k);
        break;
      }
      case arrow::Type::FIXED_SIZE_LIST: {
        const int64_t size = static_cast<const arrow::FixedSizeListType&>(*d->type).list_size();
        if (d->offset != 0 || child->length != d->length * size) return structure_error();
        for (int64_t k = 0; k < child->length; ++k) {
          child_defined[k] = defined[k / size] && valid_at(*child, k);
        }
        break;
      }
      default: return structure_error();
    }
    auto out = d->Copy();
    ODF_HASH_ASSIGN_OR_RETURN(out->child_data[i],
                              rewrite_leaf(leaf, child, depth + 1, child_defined));
    ODF_HASH_ASSIGN_OR_RETURN(
        out->type, with_child_type(d->type, static_cast<int>(i), out->child_data[i]->type));
    return out;
  }
  if (d->type->id() != arrow::Type::TIMESTAMP || d->buffers.size() != 2 || !d->buffers[1] ||
      d->buffers[1]->size() < (d->offset + d->length) * 8) {
    return leaf_error(leaf.column, "Arrow C++ decoded it as " + d->type->ToString());
  }
  int64_t count = 0;
  for (int64_t i = 0; i < d->length; ++i) count += defined[i];
  std::vector<parquet::Int96> raw;
  ODF_HASH_RETURN_IF_ERROR(take(leaf, count, &raw));
  auto allocated = arrow::AllocateBuffer((d->offset + d->length) * 8, reader_memory_pool());
  if (!allocated.ok()) return Status::io_error(allocated.status().message());
  std::shared_ptr<arrow::Buffer> values = std::move(allocated).ValueOrDie();
  auto* v = reinterpret_cast<int64_t*>(values->mutable_data());
  const auto unit = static_cast<const arrow::TimestampType&>(*leaf.type).unit();
  size_t next = 0;
  for (int64_t i = 0; i < d->offset + d->length; ++i) v[i] = 0;
  for (int64_t i = 0; i < d->length; ++i) {
    if (defined[i]) v[d->offset + i] = int96_to_arrow_rs(raw[next++], unit);
  }
  auto out = d->Copy();
  out->type = leaf.type;
  out->buffers[1] = std::move(values);
  return out;
}

Result<std::shared_ptr<arrow::Array>> Int96Columns::rewrite(
    int field, const std::shared_ptr<arrow::Array>& column) {
  auto it = by_field_.find(field);
  if (it == by_field_.end()) return column;
  auto data = column->data();
  std::vector<uint8_t> defined(static_cast<size_t>(data->length));
  for (int64_t k = 0; k < data->length; ++k) defined[k] = valid_at(*data, k);
  for (auto& leaf : it->second) {
    ODF_HASH_ASSIGN_OR_RETURN(data, rewrite_leaf(leaf, data, 0, defined));
  }
  return arrow::MakeArray(data);
}

Status Int96Columns::finish_row_group() {
  for (auto& [field, leaves] : by_field_) {
    for (auto& leaf : leaves) {
      if (!leaf.reader) continue;
      // Levels may remain (trailing nulls), values must not.
      bool extra = leaf.next != leaf.values.size();
      while (!extra) {
        ODF_HASH_ASSIGN_OR_RETURN(const bool more, read_more(leaf));
        if (!more) break;
        extra = !leaf.values.empty();
      }
      leaf.values.clear();
      leaf.next = 0;
      leaf.reader.reset();
      if (extra) {
        return leaf_error(leaf.column, "the column chunk holds more values than Arrow C++ decoded");
      }
    }
  }
  return Status::ok();
}

}  // namespace odf_hash::io_internal
