// The sides of a row-by-row comparison (row_sides.h).
#include "row_sides.h"

#include <algorithm>
#include <cstring>

namespace odf_hash::compare::detail {

// The child indices leading from a struct schema to the leaf at `path` (field names joined
// with '.', names that hold dots matched whole), or empty when there is none.
std::vector<int> find_leaf(const ArrowSchema& s, std::string_view path) {
  for (int64_t i = 0; i < s.n_children; ++i) {
    const ArrowSchema* c = s.children[i];
    const std::string_view name = c->name != nullptr ? c->name : "";
    if (path == name && std::strcmp(c->format, "+s") != 0) return {static_cast<int>(i)};
    if (path.size() > name.size() && path.substr(0, name.size()) == name &&
        path[name.size()] == '.' && std::strcmp(c->format, "+s") == 0) {
      std::vector<int> rest = find_leaf(*c, path.substr(name.size() + 1));
      if (!rest.empty()) {
        rest.insert(rest.begin(), static_cast<int>(i));
        return rest;
      }
    }
  }
  return {};
}

int find_top(const ArrowSchema& s, std::string_view name) {
  for (int64_t i = 0; i < s.n_children; ++i) {
    if (s.children[i]->name != nullptr && name == s.children[i]->name) return static_cast<int>(i);
  }
  return -1;
}

// Opens a side's stream over `objects` (each file opened by `open`) and reads its schema.
Status open_stream(const std::vector<std::shared_ptr<ObjectReader>>& objects,
                   io_internal::StreamOpener open, Side& side, RowWindow window,
                   io_internal::StreamOpenerFrom open_from) {
  side.name = objects.at(0)->name();
  ODF_HASH_RETURN_IF_ERROR(io_internal::concatenate_streams(
      objects, std::move(open), &side.stream.value,
      [&side](size_t) { side.file_start.push_back(side.base); }, window, std::move(open_from)));
  if (side.stream.value.get_schema(&side.stream.value, &side.schema.value) != 0) {
    return Status::io_error(side.name + ": reading the stream's schema failed");
  }
  side.offset_child = find_top(side.schema.value, "offset");
  return Status::ok();
}

// A side whose records are compared whole (locate_record_differences), its stream open: the
// top-level `fields` (the original's, in its order, but the `ignored`) found by name, each
// with its encoder.
Status bind_record_fields(const std::vector<std::string>& fields,
                          const std::vector<std::string>& ignored, Side& side) {
  const ArrowSchema& schema = side.schema.value;
  size_t kept = 0;
  for (int64_t i = 0; i < schema.n_children; ++i) {
    const char* name = schema.children[i]->name;
    kept += std::find(ignored.begin(), ignored.end(), name != nullptr ? name : "") == ignored.end();
  }
  if (kept != fields.size()) {
    return Status::invalid_argument(side.name + ": another number of columns");
  }
  for (const auto& f : fields) {
    const int i = find_top(schema, f);
    if (i < 0) return Status::invalid_argument(side.name + ": no column \"" + f + "\"");
    side.leaves.push_back({i});
    ODF_HASH_ASSIGN_OR_RETURN(ColumnValueEncoder e, ColumnValueEncoder::create(schema, {i}));
    side.values.push_back(std::move(e));
  }
  ODF_HASH_ASSIGN_OR_RETURN(RecordDigester records, RecordDigester::create(schema, fields));
  side.records.emplace(std::move(records));
  return Status::ok();
}

Status check_groups(const std::vector<std::shared_ptr<ObjectReader>>& original,
                    const std::vector<std::shared_ptr<ObjectReader>>& reproduced,
                    const std::string& what) {
  for (const auto* group : {&original, &reproduced}) {
    if (group->empty()) return Status::invalid_argument(what + ": no object");
    for (const auto& o : *group) {
      if (o == nullptr) return Status::invalid_argument(what + ": null object");
    }
  }
  return Status::ok();
}

Result<std::vector<std::string>> open_record_sides(
    const io_internal::ArrowModuleApi& api,
    const std::vector<std::shared_ptr<ObjectReader>>& original,
    const std::vector<std::shared_ptr<ObjectReader>>& reproduced, RowWindow original_window,
    RowWindow reproduced_window, const std::vector<std::string>& ignore, Side& a, Side& b) {
  ODF_HASH_RETURN_IF_ERROR(open_stream(original, api.open_record_stream, a, original_window));
  ODF_HASH_RETURN_IF_ERROR(open_stream(reproduced, api.open_record_stream, b, reproduced_window));
  std::vector<std::string> fields;
  for (int64_t i = 0; i < a.schema.value.n_children; ++i) {
    const char* name = a.schema.value.children[i]->name;
    const std::string field = name != nullptr ? name : "";
    if (std::find(ignore.begin(), ignore.end(), field) == ignore.end()) fields.push_back(field);
  }
  if (fields.empty()) return Status::invalid_argument(a.name + ": every column is ignored");
  ODF_HASH_RETURN_IF_ERROR(bind_record_fields(fields, ignore, a));
  ODF_HASH_RETURN_IF_ERROR(bind_record_fields(fields, ignore, b));
  return fields;
}

Result<DifferingRow> differing_row(const io_internal::ArrowModuleApi& api, Side& a, Side& b,
                                   size_t c, int64_t r, size_t max_chars) {
  DifferingRow row;
  row.row = a.base + uint64_t(a.pos + r);
  row.offset = a.offset_at(a.pos + r);
  if (!row.offset) row.offset = b.offset_at(b.pos + r);
  row.original_file = a.file_at(row.row);
  row.reproduced_file = b.file_at(b.base + uint64_t(b.pos + r));
  ODF_HASH_ASSIGN_OR_RETURN(row.original, a.render_value(api, c, a.pos + r, max_chars));
  ODF_HASH_ASSIGN_OR_RETURN(row.reproduced, b.render_value(api, c, b.pos + r, max_chars));
  return row;
}

Status note_difference(const io_internal::ArrowModuleApi& api, Side& a, Side& b,
                       ColumnRowDifferences& col, size_t c, int64_t r,
                       const RowDiffOptions& options) {
  ++col.differing_rows;
  if (col.first.size() >= options.max_rows) return Status::ok();
  ODF_HASH_ASSIGN_OR_RETURN(DifferingRow row,
                            differing_row(api, a, b, c, r, options.max_value_chars));
  col.first.push_back(std::move(row));
  return Status::ok();
}

}  // namespace odf_hash::compare::detail
