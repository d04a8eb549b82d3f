#include "odf_hash/compare/compare.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

#include "neutralise.h"
#include "odf_hash/core/parallel.h"
#include "odf_hash/internal/io/deferred_object.h"
#include "odf_hash/io/cancel.h"
#include "odf_hash/io/logical_file.h"
#include "odf_hash/io/physical.h"
#include "odf_hash/io/record_stream.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/logical/logical.h"
#include "odf_hash/logical/schema_diff.h"
#include "record_text.h"

namespace odf_hash::compare {

namespace {

// Leaf columns whose digests differ, or that exist on one side only (a column whose type
// alone differs, hashed alike, as utf8 and large_utf8 are, is not one).
std::vector<std::string> differing_columns(const LogicalDigest& a, const LogicalDigest& b) {
  std::map<std::string, const ColumnDigest*> left, right;
  for (const auto& c : a.columns) left[c.path] = &c;
  for (const auto& c : b.columns) right[c.path] = &c;
  std::vector<std::string> out;
  for (const auto& [path, c] : left) {
    auto it = right.find(path);
    if (it == right.end()) {
      out.push_back(path + " (only in original)");
    } else if (c->digest != it->second->digest) {
      out.push_back(c->type == it->second->type
                        ? path
                        : path + " (type " + describe_arrow_format(c->type) + " vs " +
                              describe_arrow_format(it->second->type) + ")");
    }
  }
  for (const auto& [path, c] : right) {
    if (left.count(path) == 0) out.push_back(path + " (only in reproduced)");
  }
  return out;
}

// Leaf columns present on both sides with one type (or two encodings of one type, which
// arrow0 hashes alike: `encodings`, from the schema differences) whose digests differ: the
// ones whose rows can be compared.
std::vector<std::string> comparable_differing_columns(const LogicalDigest& a,
                                                      const LogicalDigest& b,
                                                      const std::vector<SchemaDifference>& diffs) {
  std::map<std::string, const ColumnDigest*> right;
  for (const auto& c : b.columns) right[c.path] = &c;
  auto encodings_of_one_type = [&](const std::string& path) {
    for (const auto& d : diffs) {
      if (d.field == path && d.kind == SchemaDifference::Kind::kType && d.encoding_only) {
        return true;
      }
    }
    return false;
  };
  std::vector<std::string> out;
  for (const auto& c : a.columns) {
    auto it = right.find(c.path);
    if (it != right.end() && c.digest != it->second->digest &&
        (c.type == it->second->type || encodings_of_one_type(c.path))) {
      out.push_back(c.path);
    }
  }
  return out;
}

Result<FileComparison> decide(FileComparison out, Result<LogicalDigest> la,
                              Result<LogicalDigest> lb) {
  ODF_HASH_RETURN_IF_ERROR(la.status());
  ODF_HASH_RETURN_IF_ERROR(lb.status());
  out.original.logical = std::move(la).value();
  out.reproduced.logical = std::move(lb).value();
  if (out.original.logical->digest == out.reproduced.logical->digest) {
    out.verdict = CompareVerdict::kEquivalent;
  } else {
    out.verdict = CompareVerdict::kDifferent;
    out.differing_columns = differing_columns(*out.original.logical, *out.reproduced.logical);
  }
  return out;
}

template <typename T>
struct Owned {
  T value{};
  ~Owned() {
    if (value.release != nullptr) value.release(&value);
  }
};

// Which schema differences change the arrow0 hash (SchemaDifference::changes_hash), from the
// column digests both logical hashes computed.
void mark_hash_effects(std::vector<SchemaDifference>& differences, const LogicalDigest& a,
                       const LogicalDigest& b) {
  using K = SchemaDifference::Kind;
  for (auto& d : differences) {
    d.changes_hash = d.kind == K::kOnlyInOriginal || d.kind == K::kOnlyInReproduced ||
                     d.kind == K::kPosition || detail::column_digests_differ(d.field, a, b);
  }
}

// The schemas of the first objects of two groups (the logical hashes, read before, checked
// that every object of a group has its first's): out.schema_differences, each marked with
// whether it changes the hash.
Status schema_differences(std::shared_ptr<ObjectReader> a, std::shared_ptr<ObjectReader> b,
                          FileComparison& comparison, std::vector<std::string>& top_a,
                          std::vector<std::string>& structs_a) {
  std::vector<SchemaDifference>& out = comparison.schema_differences;
  Owned<ArrowSchema> sa, sb;
  for (auto [object, schema] : {std::pair{a, &sa}, std::pair{b, &sb}}) {
    Owned<ArrowArrayStream> stream;
    ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectReader> fresh, open_if_deferred(object));
    ODF_HASH_RETURN_IF_ERROR(open_record_stream(fresh, &stream.value));
    if (stream.value.get_schema(&stream.value, &schema->value) != 0) {
      return Status::io_error(object->name() + ": reading the stream's schema failed");
    }
  }
  out = diff_schemas(sa.value, sb.value);
  if (comparison.original.logical && comparison.reproduced.logical) {
    mark_hash_effects(out, *comparison.original.logical, *comparison.reproduced.logical);
  }
  // The original's top-level fields, and the paths of its struct fields (for causes).
  std::function<void(const ArrowSchema&, const std::string&)> walk =
      [&](const ArrowSchema& s, const std::string& prefix) {
        for (int64_t i = 0; i < s.n_children; ++i) {
          const ArrowSchema& c = *s.children[i];
          const std::string path = prefix + (c.name != nullptr ? c.name : "");
          if (prefix.empty()) top_a.push_back(path);
          if (c.dictionary == nullptr && std::string_view(c.format) == "+s") {
            structs_a.push_back(path);
            walk(c, path + ".");
          }
        }
      };
  walk(sa.value, "");
  return Status::ok();
}

// Why arrow0 differs when the records do not: the schema's order and nullability, and bytes
// under null struct slots (the reference hashes them; null_slots.cpp says when arrow-rs
// leaves which bytes there).
// `same_whole_multiset` says whether both files hold the same multiset of whole records
// (asked only when the located columns' records are the same multiset but do not cover
// every field: it needs one more read of both files).
void explain(FileComparison& c, const std::vector<std::string>& top_fields,
             const std::vector<std::string>& structs,
             const std::function<Result<bool>()>& same_whole_multiset, Status& error) {
  using K = SchemaDifference::Kind;
  for (const auto& d : c.schema_differences) {
    if (d.kind != K::kPosition && d.kind != K::kNullability && !d.encoding_only) {
      c.records = FileComparison::Records::kDifferent;  // the schemas differ
      return;
    }
  }
  const uint64_t na = c.original.logical->num_rows, nb = c.reproduced.logical->num_rows;
  std::vector<FileComparison::Cause> causes;
  bool order = false;
  for (const auto& d : c.schema_differences) {
    if (d.kind == K::kPosition) order = true;
    // A cause only when it is one: the column digests differ (SchemaDifference::changes_hash).
    if (d.changes_hash == false) continue;
    if (d.kind == K::kType && d.encoding_only) {
      causes.push_back({"encoding", d.field,
                        "column \"" + d.field + "\" is " + d.original + " in the original, " +
                            d.reproduced + " in the reproduction: two encodings of one type"});
    }
    if (d.kind == K::kNullability) {
      causes.push_back({"nullability", d.field,
                        "column \"" + d.field + "\" is " + d.original + " in the original, " +
                            d.reproduced + " in the reproduction"});
    }
  }
  if (order) {
    causes.insert(causes.begin(), {"column-order", "",
                                   "the columns are in another order (arrow0 combines the "
                                   "column digests in schema order)"});
  }
  if (c.rows) {
    const RowDiff& r = *c.rows;
    if (na == nb && r.differing_records == 0) {
      for (const auto& col : r.columns) {
        std::string parent;
        for (const auto& st : structs) {
          if (col.column.size() > st.size() && col.column.compare(0, st.size(), st) == 0 &&
              col.column[st.size()] == '.' && st.size() > parent.size()) {
            parent = st;
          }
        }
        causes.push_back(
            {"null-slots", col.column,
             parent.empty()
                 ? "the column's digest differs but no value does"
                 : "the bytes under the null slots of struct \"" + parent +
                       "\" differ (arrow0, as its reference, hashes them; no value differs)"});
      }
      c.records = FileComparison::Records::kEqual;
    } else if (na == nb && r.same_record_multiset && [&] {
                 if (r.record_fields.size() == top_fields.size()) return true;
                 Result<bool> whole = same_whole_multiset();
                 if (!whole.is_ok()) error = whole.status();
                 return whole.is_ok() && *whole;
               }()) {
      causes.push_back({"row-order", "",
                        "the same records in another order (" +
                            std::to_string(r.differing_records) + " rows hold another record)"});
      c.records = FileComparison::Records::kSameOtherOrder;
    } else {
      c.records = FileComparison::Records::kDifferent;
      return;
    }
  } else if (c.differing_columns.empty()) {
    c.records = FileComparison::Records::kEqual;  // the same columns: only the schema differs
  } else {
    return;  // rows not compared: unknown
  }
  c.causes = std::move(causes);
}

}  // namespace

const char* records_name(FileComparison::Records records) {
  switch (records) {
    case FileComparison::Records::kUnknown: return "unknown";
    case FileComparison::Records::kEqual: return "equal";
    case FileComparison::Records::kSameOtherOrder: return "same-other-order";
    case FileComparison::Records::kDifferent: return "different";
  }
  return "unknown";
}

bool reproduction_verified(const FileComparison& c) {
  const bool equal = c.records == FileComparison::Records::kEqual;
  return c.verdict == CompareVerdict::kIdentical ||
         (c.verdict == CompareVerdict::kEquivalent && equal) ||
         (!c.ignored_columns.empty() && equal) || (c.tolerance && c.tolerance->within);
}

const char* compare_verdict_name(CompareVerdict verdict) {
  switch (verdict) {
    case CompareVerdict::kIdentical: return "identical";
    case CompareVerdict::kEquivalent: return "equivalent";
    case CompareVerdict::kDifferent: return "different";
  }
  return "unknown";
}

namespace {

using Group = std::vector<std::shared_ptr<ObjectReader>>;

// Why arrow0 is equal although the records are not: its blind spots (docs/divergences.md).
std::vector<FileComparison::Cause> blind_spots(const FileComparison& c,
                                               const std::vector<std::string>& structs) {
  std::vector<FileComparison::Cause> causes;
  const uint64_t na = c.original.logical->num_rows, nb = c.reproduced.logical->num_rows;
  if (na != nb) {
    causes.push_back({"row-count", "",
                      "the tables hold " + std::to_string(na) + " and " + std::to_string(nb) +
                          " rows: arrow0 does not hash the number of rows (a column's values "
                          "are hashed one after the other, a null as one 0 byte, so that 8 "
                          "nulls of an int64 column hash as one 0 does)"});
  }
  if (c.records == FileComparison::Records::kSameOtherOrder) {
    causes.push_back({"row-order", "",
                      "the same records in another order, which arrow0 hashes alike here (a "
                      "null is hashed as one 0 byte, with nothing between values: null then 0 "
                      "hashes as 0 then null)"});
  }
  static const std::vector<ColumnRowDifferences> kNone;
  for (const auto& col : c.rows ? c.rows->columns : kNone) {
    const bool is_struct = std::find(structs.begin(), structs.end(), col.column) != structs.end();
    const std::string n = col.null_on_one_side == 1
                              ? "1 row holds"
                              : std::to_string(col.null_on_one_side) + " rows hold";
    if (is_struct && col.null_on_one_side > 0) {
      causes.push_back({"struct-null", col.column,
                        n + " a null struct on one side and a struct on the other: "
                            "arrow0 hashes a struct's nulls only through its members' (combined "
                            "nullability, docs/divergences.md section 1), so a null struct and "
                            "a struct of null members hash alike"});
    } else if (!is_struct && col.null_on_one_side > 0 && na == nb) {
      causes.push_back({"null-or-value", col.column,
                        n + " a null on one side and a value on the other: arrow0 "
                            "hashes a null as one 0 byte and the values with nothing between "
                            "them, so nulls and zero bytes can move between rows"});
    } else if (na == nb || is_struct) {
      causes.push_back({"values", col.column,
                        is_struct ? "values inside the struct differ while arrow0 hashes them "
                                    "alike (a member's null can be hashed as the bytes under "
                                    "it: docs/divergences.md section 1)"
                                  : "the values differ while arrow0 hashes them alike (a "
                                    "null inside a value, e.g. a list's item, is hashed as one "
                                    "0 byte with nothing between items: docs/divergences.md)"});
    }
  }
  if (causes.empty()) {
    causes.push_back(
        {"values", "", "the records differ while arrow0 hashes them alike (docs/divergences.md)"});
  }
  return causes;
}

// kEquivalent: the records compared too, since arrow0 is blind to some differences. Both
// tables' ordered record digests side by side; where they differ, the records located
// (options.locate_rows) and the blind spot named.
Status check_records(FileComparison& out, const Group& original, const Group& reproduced,
                     const CompareOptions& options, RowWindow wa, RowWindow wb) {
  Result<RecordsDigest> ra = Status::internal("not run"), rb = Status::internal("not run");
  side_by_side([&] { ra = records_digest_objects(original, wa); },
               [&] { rb = records_digest_objects(reproduced, wb); });
  ODF_HASH_RETURN_IF_ERROR(ra.status());
  ODF_HASH_RETURN_IF_ERROR(rb.status());
  if (ra->ordered == rb->ordered) {
    out.records = FileComparison::Records::kEqual;
    return Status::ok();
  }
  out.records = ra->unordered.digest == rb->unordered.digest
                    ? FileComparison::Records::kSameOtherOrder
                    : FileComparison::Records::kDifferent;
  std::vector<std::string> top, structs;
  ODF_HASH_RETURN_IF_ERROR(schema_differences(original[0], reproduced[0], out, top, structs));
  if (options.locate_rows) {
    ODF_HASH_ASSIGN_OR_RETURN(
        out.rows, locate_record_differences(original, reproduced, options.rows, wa, wb));
  }
  out.causes = blind_spots(out, structs);
  return Status::ok();
}

// kDifferent with row counts that differ: whether the records differ by one run of rows one
// side alone has, every other row the same record at the same place. The rows before the
// first differing record are equal (a first read of the rows both have, as records); the
// longer side's rows after the run, shifted by its length, must then all equal the shorter
// side's (a second read). Whole tables only (not the windows of a dataset's runs).
Status find_row_block(FileComparison& out, const Group& original, const Group& reproduced,
                      const CompareOptions& options) {
  const uint64_t na = out.original.logical->num_rows, nb = out.reproduced.logical->num_rows;
  if (na == nb || !options.locate_rows) return Status::ok();
  for (const auto& d : out.schema_differences) {
    const bool one_side = d.kind == SchemaDifference::Kind::kOnlyInOriginal ||
                          d.kind == SchemaDifference::Kind::kOnlyInReproduced;
    if (one_side) return Status::ok();  // no record is the same on both sides
  }
  const bool in_original = na > nb;
  const uint64_t common = std::min(na, nb), extra = in_original ? na - nb : nb - na;
  RowDiffOptions first_only = options.rows;
  first_only.max_rows = 1;
  const RowWindow both{0, common};
  ODF_HASH_ASSIGN_OR_RETURN(RowDiff head,
                            locate_record_differences(original, reproduced, first_only, both, both,
                                                      options.ignore_columns));
  uint64_t at = common;
  for (const auto& c : head.columns) {
    if (!c.first.empty()) at = std::min(at, c.first.front().row);
  }
  if (head.differing_records > 0 && at == common) return Status::ok();  // nothing to point at
  if (at < common) {
    const RowWindow longer{at + extra, std::nullopt}, shorter{at, std::nullopt};
    ODF_HASH_ASSIGN_OR_RETURN(
        RowDiff tail,
        locate_record_differences(original, reproduced, first_only, in_original ? longer : shorter,
                                  in_original ? shorter : longer, options.ignore_columns));
    if (tail.differing_records > 0) return Status::ok();  // more than one run differs
  }
  FileComparison::RowBlock block{in_original, at, extra, at == common, {}};
  const Group& holder = in_original ? original : reproduced;
  if (holder.size() == 1) {
    for (uint64_t r = at; r < at + std::min<uint64_t>(extra, 3); ++r) block.first.push_back({r});
    ODF_HASH_RETURN_IF_ERROR(
        detail::render_records(Table::of(holder[0]), block.first, options.rows.max_value_chars));
  }
  out.row_block = std::move(block);
  return Status::ok();
}

// The records without the columns CompareOptions::ignore_columns names, whatever arrow0 said:
// what they are (equal, another order, different), where they differ, and which columns were
// left out. The schemas' differences of ignored fields do not count.
Status compare_without(FileComparison& out, const Group& original, const Group& reproduced,
                       const CompareOptions& options, RowWindow wa, RowWindow wb,
                       const LogicalHashOptions& logical) {
  const std::vector<std::string>& ignore = options.ignore_columns;
  std::vector<std::string> top, structs;
  ODF_HASH_RETURN_IF_ERROR(schema_differences(original[0], reproduced[0], out, top, structs));
  const auto ignored = [&](const std::string& field) {
    const std::string first = field.substr(0, field.find('.'));
    return std::find(ignore.begin(), ignore.end(), first) != ignore.end();
  };
  for (const auto& f : ignore) {
    const bool in_a = std::find(top.begin(), top.end(), f) != top.end();
    const bool in_b = std::any_of(
        out.schema_differences.begin(), out.schema_differences.end(), [&](const auto& d) {
          return d.kind == SchemaDifference::Kind::kOnlyInReproduced && d.field == f;
        });
    if ((in_a || in_b) && std::find(out.ignored_columns.begin(), out.ignored_columns.end(), f) ==
                              out.ignored_columns.end()) {
      out.ignored_columns.push_back(f);
    }
  }
  std::erase_if(out.schema_differences, [&](const auto& d) { return ignored(d.field); });
  if (out.verdict == CompareVerdict::kDifferent) {
    ODF_HASH_RETURN_IF_ERROR(
        detail::neutralise_schema_differences(out, original, reproduced, wa, wb, logical, options));
  }
  using K = SchemaDifference::Kind;
  for (const auto& d : out.schema_differences) {
    if (d.kind != K::kPosition && d.kind != K::kNullability && !d.encoding_only) {
      out.records = FileComparison::Records::kDifferent;  // the kept fields' schemas differ
      return Status::ok();
    }
  }
  Result<RecordsDigest> ra = Status::internal("not run"), rb = Status::internal("not run");
  side_by_side([&] { ra = records_digest_objects(original, wa, ignore); },
               [&] { rb = records_digest_objects(reproduced, wb, ignore); });
  ODF_HASH_RETURN_IF_ERROR(ra.status());
  ODF_HASH_RETURN_IF_ERROR(rb.status());
  if (ra->ordered == rb->ordered) {
    out.records = FileComparison::Records::kEqual;
  } else {
    out.records = ra->unordered.digest == rb->unordered.digest
                      ? FileComparison::Records::kSameOtherOrder
                      : FileComparison::Records::kDifferent;
    if (options.locate_rows) {
      ODF_HASH_ASSIGN_OR_RETURN(
          out.rows, locate_record_differences(original, reproduced, options.rows, wa, wb, ignore));
    }
    if (wa.whole() && wb.whole() && out.records == FileComparison::Records::kDifferent) {
      ODF_HASH_RETURN_IF_ERROR(find_row_block(out, original, reproduced, options));
    }
  }
  if (!out.ignored_columns.empty() && out.verdict != CompareVerdict::kIdentical) {
    std::string list;
    for (const auto& c : out.ignored_columns) list += (list.empty() ? "" : ", ") + c;
    out.causes.push_back(
        {"ignored-columns", "",
         "the records are compared without " + list + " (as asked); arrow0 covers every column"});
  }
  return Status::ok();
}

// The records of two tables' objects (one whole file each, or not: compare()), compared once
// their bytes were found to differ: the logical hashes, then the records (equal arrow0
// hashes) or where and why (different ones).
Result<FileComparison> compare_records_exactly(FileComparison out, const Group& original,
                                               const Group& reproduced,
                                               const LogicalHashOptions& logical,
                                               const CompareOptions& options, RowWindow wa,
                                               RowWindow wb) {
  Result<LogicalDigest> la = Status::internal("not run"), lb = Status::internal("not run");
  side_by_side([&] { la = logical_hash_objects(original, logical, wa); },
               [&] { lb = logical_hash_objects(reproduced, logical, wb); });
  ODF_HASH_ASSIGN_OR_RETURN(out, decide(std::move(out), std::move(la), std::move(lb)));
  if (!options.ignore_columns.empty() || options.ignore_time_columns) {
    CompareOptions without = options;
    if (options.ignore_time_columns) {  // two files: the ODF defaults (compare.h)
      for (const char* t : {"system_time", "event_time"}) {
        if (std::find(without.ignore_columns.begin(), without.ignore_columns.end(), t) ==
            without.ignore_columns.end()) {
          without.ignore_columns.push_back(t);
        }
      }
    }
    ODF_HASH_RETURN_IF_ERROR(compare_without(out, original, reproduced, without, wa, wb, logical));
    return out;
  }
  if (out.verdict == CompareVerdict::kEquivalent) {
    ODF_HASH_RETURN_IF_ERROR(check_records(out, original, reproduced, options, wa, wb));
    return out;
  }
  std::vector<std::string> top, structs;
  ODF_HASH_RETURN_IF_ERROR(schema_differences(original[0], reproduced[0], out, top, structs));
  ODF_HASH_RETURN_IF_ERROR(
      detail::neutralise_schema_differences(out, original, reproduced, wa, wb, logical, options));
  if (options.locate_rows) {
    ODF_HASH_ASSIGN_OR_RETURN(
        out.rows, locate_row_differences(
                      original, reproduced,
                      comparable_differing_columns(*out.original.logical, *out.reproduced.logical,
                                                   out.schema_differences),
                      options.rows, wa, wb));
    // The row counts are the logical hash's (the locating read counts the same rows).
    out.rows->original_rows = out.original.logical->num_rows;
    out.rows->reproduced_rows = out.reproduced.logical->num_rows;
  }
  {
    Status error = Status::ok();
    explain(
        out, top, structs,
        [&]() -> Result<bool> {
          ODF_HASH_ASSIGN_OR_RETURN(UnorderedFileDigest ua, unordered_digest(Table{original, wa}));
          ODF_HASH_ASSIGN_OR_RETURN(UnorderedFileDigest ub,
                                    unordered_digest(Table{reproduced, wb}));
          return ua.digest == ub.digest;
        },
        error);
    ODF_HASH_RETURN_IF_ERROR(error);
  }
  if (wa.whole() && wb.whole()) {
    ODF_HASH_RETURN_IF_ERROR(find_row_block(out, original, reproduced, options));
  }
  return out;
}

// The same, then, with a tolerance asked for and the records not equal, the records again
// with floating-point values compared within it (on the fields the exact comparison kept).
Result<FileComparison> compare_records(FileComparison out, const Group& original,
                                       const Group& reproduced, const LogicalHashOptions& logical,
                                       const CompareOptions& options, RowWindow wa = {},
                                       RowWindow wb = {}) {
  ODF_HASH_ASSIGN_OR_RETURN(
      out, compare_records_exactly(std::move(out), original, reproduced, logical, options, wa, wb));
  if (!options.tolerance || out.records == FileComparison::Records::kEqual) return out;
  ODF_HASH_ASSIGN_OR_RETURN(out.tolerance,
                            compare_within_tolerance(original, reproduced, *options.tolerance,
                                                     options.rows, wa, wb, out.ignored_columns));
  return out;
}

}  // namespace

Result<FileComparison> compare(const Table& original, const Table& reproduced,
                               const LogicalHashOptions& logical, const CompareOptions& options) {
  ODF_HASH_RETURN_IF_ERROR(check_table(original, "compare"));
  ODF_HASH_RETURN_IF_ERROR(check_table(reproduced, "compare"));
  LogicalHashOptions checked = logical;
  if (checked.cancel == nullptr) {
    checked.cancel = original.cancel != nullptr ? original.cancel : reproduced.cancel;
  }
  if (!original.one_file() || !reproduced.one_file()) {
    // No bytes to compare as one file's: never identical (compare.h).
    return compare_records(
        FileComparison{
            ComparedFile{original.name(), std::nullopt, original.size(), std::nullopt},
            ComparedFile{reproduced.name(), std::nullopt, reproduced.size(), std::nullopt}},
        original.objects, reproduced.objects, checked, options, original.window, reproduced.window);
  }
  // One file each: its bytes read once with read(), its records (when needed) with read_at().
  // Both physical hashes at once, a thread each (one after the other, the first half of a
  // comparison kept one core of two busy); each stops between chunks once cancelled.
  const ProgressFn until_cancelled = [cancel = checked.cancel](uint64_t, uint64_t) {
    return !cancel_requested(cancel);
  };
  Result<PhysicalDigest> ra = Status::internal("not run"), rb = Status::internal("not run");
  side_by_side([&] { ra = physical_hash_object(*original.objects[0], until_cancelled); },
               [&] { rb = physical_hash_object(*reproduced.objects[0], until_cancelled); });
  ODF_HASH_ASSIGN_OR_RETURN(PhysicalDigest pa, std::move(ra));
  ODF_HASH_ASSIGN_OR_RETURN(PhysicalDigest pb, std::move(rb));
  FileComparison out{ComparedFile{original.name(), pa.hash, pa.size, std::nullopt},
                     ComparedFile{reproduced.name(), pb.hash, pb.size, std::nullopt}};
  if (out.original.physical == out.reproduced.physical) {
    out.records = FileComparison::Records::kEqual;  // the same bytes
    return out;
  }
  return compare_records(std::move(out), original.objects, reproduced.objects, checked, options);
}

}  // namespace odf_hash::compare
