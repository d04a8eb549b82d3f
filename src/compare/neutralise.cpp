// Schema differences neutralised (neutralise.h).
#include "neutralise.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "odf_hash/compare/row_diff.h"
#include "odf_hash/internal/io/arrow_module.h"
#include "odf_hash/internal/io/concat_stream.h"
#include "odf_hash/internal/io/deferred_object.h"
#include "odf_hash/internal/io/owned_c_data.h"
#include "odf_hash/io/record_stream.h"
#include "odf_hash/logical/schema_diff.h"

namespace odf_hash::compare::detail {

namespace {

using Group = std::vector<std::shared_ptr<ObjectReader>>;
using Leaves = std::map<std::string, Digest256>;

std::string top_of(const std::string& field) {
  return field.substr(0, field.find('.'));
}

// The leaf digests at or under `field` ("a", or "a.b" inside struct a).
Leaves leaves_under(const LogicalDigest& d, const std::string& field) {
  Leaves out;
  for (const auto& c : d.columns) {
    const bool under = c.path == field ||
                       (c.path.size() > field.size() &&
                        c.path.compare(0, field.size(), field) == 0 && c.path[field.size()] == '.');
    if (under) out[c.path] = c.digest;
  }
  return out;
}

// The readable types of the top-level fields of a table (its first object's schema).
Result<std::map<std::string, std::string>> top_types(const Group& group) {
  ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectReader> first, open_if_deferred(group[0]));
  io_internal::Owned<ArrowArrayStream> stream;
  io_internal::Owned<ArrowSchema> schema;
  ODF_HASH_RETURN_IF_ERROR(open_record_stream(first, &stream.value));
  if (stream.value.get_schema(&stream.value, &schema.value) != 0) {
    return Status::io_error(first->name() + ": reading the stream's schema failed");
  }
  std::map<std::string, std::string> out;
  for (int64_t i = 0; i < schema.value.n_children; ++i) {
    const ArrowSchema& child = *schema.value.children[i];
    out[child.name != nullptr ? child.name : ""] = describe_arrow_type(child);
  }
  return out;
}

// The logical hash of `fields` of `group` (its window of rows) cast to `like`'s types.
// `types` false: only their nullability made `like`'s.
Result<LogicalDigest> hash_cast(const Group& group, RowWindow window, const Group& like,
                                const std::vector<std::string>& fields,
                                const LogicalHashOptions& logical, bool types = true) {
  ODF_HASH_ASSIGN_OR_RETURN(const io_internal::ArrowModuleApi* api, io_internal::arrow_module());
  ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectReader> model, open_if_deferred(like[0]));
  io_internal::Owned<ArrowArrayStream> stream;
  ODF_HASH_RETURN_IF_ERROR(io_internal::concatenate_streams(
      group,
      [&](std::shared_ptr<ObjectReader> object, ArrowArrayStream* out) {
        return api->open_cast_stream(std::move(object), model, fields, types, out);
      },
      &stream.value, {}, window));
  return logical_hash_stream(&stream.value, logical);
}

bool fatal(const Status& st) {
  return st.code() == StatusCode::kCancelled;
}

}  // namespace

bool column_digests_differ(const std::string& field, const LogicalDigest& a,
                           const LogicalDigest& b) {
  return leaves_under(a, field) != leaves_under(b, field);
}

Status neutralise_schema_differences(FileComparison& c, const Group& original,
                                     const Group& reproduced, RowWindow wa, RowWindow wb,
                                     const LogicalHashOptions& logical,
                                     const CompareOptions& options) {
  using K = SchemaDifference::Kind;
  std::vector<std::string> tops, nullability, typed;
  for (const auto& d : c.schema_differences) {
    if (d.kind != K::kType && d.kind != K::kNullability) continue;
    for (auto* list : {&tops, d.kind == K::kType ? &typed : &nullability}) {
      if (std::find(list->begin(), list->end(), top_of(d.field)) == list->end()) {
        list->push_back(top_of(d.field));
      }
    }
  }
  if (tops.empty() || !c.original.logical || !c.reproduced.logical) return Status::ok();
  // A field with both kinds: its nullability neutralised alone first (one more read of
  // those fields), so that each difference is judged by itself.
  std::vector<std::string> both;
  for (const auto& t : typed) {
    if (std::find(nullability.begin(), nullability.end(), t) != nullability.end()) {
      both.push_back(t);
    }
  }
  std::optional<LogicalDigest> flags_only;
  if (!both.empty()) {
    Result<LogicalDigest> r = hash_cast(reproduced, wb, original, both, logical, false);
    if (fatal(r.status())) return r.status();
    if (r.is_ok()) flags_only = std::move(r).value();
  }
  ODF_HASH_ASSIGN_OR_RETURN(auto types_a, top_types(original));
  ODF_HASH_ASSIGN_OR_RETURN(auto types_b, top_types(reproduced));

  // Every field at once (one more read), then field by field if a cast is refused.
  std::optional<LogicalDigest> all;
  {
    Result<LogicalDigest> r = hash_cast(reproduced, wb, original, tops, logical);
    if (fatal(r.status())) return r.status();
    if (r.is_ok()) all = std::move(r).value();
  }
  for (const std::string& top : tops) {
    FileComparison::CastCheck check;
    check.field = top;
    const Leaves a = leaves_under(*c.original.logical, top);
    const Leaves b = leaves_under(*c.reproduced.logical, top);
    // The reproduction with its nullability made the original's, when judged apart.
    const bool apart = flags_only && std::find(both.begin(), both.end(), top) != both.end();
    const Leaves b_flags = apart ? leaves_under(*flags_only, top) : b;
    std::optional<LogicalDigest> cast = all;
    if (!cast) {
      Result<LogicalDigest> r = hash_cast(reproduced, wb, original, {top}, logical);
      if (fatal(r.status())) return r.status();
      if (r.is_ok()) {
        cast = std::move(r).value();
      } else {
        check.error = r.status().message();
        Result<LogicalDigest> back = hash_cast(original, wa, reproduced, {top}, logical);
        if (fatal(back.status())) return back.status();
        if (back.is_ok()) {
          cast = std::move(back).value();
          check.reproduced_cast = false;
          check.error.clear();
        }
      }
    }
    if (cast) {
      const Leaves neutral = leaves_under(*cast, top);
      check.cast = true;
      check.changes_hash = neutral != (check.reproduced_cast ? b_flags : a);
      check.values_equal = neutral == (check.reproduced_cast ? a : b);
      // Row by row only when both have the same rows: else the rows one side alone has shift
      // the others (the comparison's row_block says where).
      if (!check.values_equal && options.locate_rows &&
          c.original.logical->num_rows == c.reproduced.logical->num_rows) {
        std::vector<std::string> columns;
        for (const auto& [path, digest] : check.reproduced_cast ? a : b) columns.push_back(path);
        Result<RowDiff> where = locate_cast_differences(
            original, reproduced, columns,
            check.reproduced_cast ? CastSide::kReproduced : CastSide::kOriginal, options.rows, wa,
            wb);
        if (fatal(where.status())) return where.status();
        if (where.is_ok()) check.rows = std::move(where).value();
      }
    } else {
      check.changes_hash = a != b;
    }
    check.from = check.reproduced_cast ? types_b[top] : types_a[top];
    check.to = check.reproduced_cast ? types_a[top] : types_b[top];
    for (auto& d : c.schema_differences) {
      if ((d.kind != K::kType && d.kind != K::kNullability) || top_of(d.field) != top) continue;
      d.changes_hash = apart && d.kind == K::kNullability ? b_flags != b : check.changes_hash;
    }
    c.casts.push_back(std::move(check));
  }
  return Status::ok();
}

}  // namespace odf_hash::compare::detail
