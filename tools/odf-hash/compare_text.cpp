// How one file comparison is shown (compare_text.h).
#include "compare_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "odf_hash/compare/compare_json.h"
#include "odf_hash/core/text.h"
#include "odf_hash/logical/record_digest.h"
#include "output.h"

namespace odf_hash::cli {

std::string schema_difference_text(const SchemaDifference& d) {
  using K = SchemaDifference::Kind;
  switch (d.kind) {
    case K::kOnlyInOriginal: return "only in original (" + d.original + ")";
    case K::kOnlyInReproduced: return "only in reproduced (" + d.reproduced + ")";
    case K::kType:
      return "type " + d.original + " vs " + d.reproduced +
             (d.encoding_only ? " (two encodings of one type)" : "");
    case K::kNullability: return d.original + " vs " + d.reproduced;
    case K::kPosition: return "position " + d.original + " vs " + d.reproduced;
  }
  return "";
}

// A field's values once its type difference is neutralised (FileComparison::CastCheck).
std::string cast_text(const compare::FileComparison::CastCheck& k) {
  if (!k.cast) {
    return "the values cannot be compared: neither type casts to the other (" + k.error + ")";
  }
  const std::string how = std::string("after casting the ") +
                          (k.reproduced_cast ? "reproduction's " : "original's ") + k.from +
                          " to " + k.to;
  return (k.values_equal ? "the values are equal " : "the values differ ") + how;
}

namespace {

void print_rows(const compare::RowDiff& d, const RunFiles& run, const std::string& indent);

// The differences that change the hash first, then those that do not (the column digests
// say which: SchemaDifference::changes_hash).
void print_schema(const compare::FileComparison& c) {
  if (c.schema_differences.empty()) return;
  const size_t n = c.schema_differences.size();
  const auto alike = [](const SchemaDifference& d) { return d.changes_hash == false; };
  const size_t kept =
      size_t(std::count_if(c.schema_differences.begin(), c.schema_differences.end(), alike));
  std::printf("schema      %zu difference%s", n, n == 1 ? "" : "s");
  if (kept == n) {
    std::printf(", %s the hash", n == 1 ? "which does not change" : "none of which changes");
  } else if (kept > 0) {
    std::printf(", %zu of them change%s the hash", n - kept, n - kept == 1 ? "s" : "");
  }
  std::printf("\n");
  const bool apart = kept > 0 && kept < n;  // both kinds: the second listed under a heading
  for (const bool changes : {true, false}) {
    if (!changes && apart) std::printf("  does not change the hash:\n");
    for (const auto& d : c.schema_differences) {
      if (alike(d) == changes) continue;
      const std::string what = schema_difference_text(d);
      const char* indent = !changes && apart ? "  " : "";
      std::printf("%s  %s: %s\n", indent, escape_text(d.field).c_str(), escape_text(what).c_str());
      // The field's values once its type is neutralised, under its own type difference.
      for (const auto& k : c.casts) {
        if (k.field != d.field || d.kind != SchemaDifference::Kind::kType) continue;
        std::printf("%s    %s\n", indent, escape_text(cast_text(k)).c_str());
        if (k.rows) print_rows(*k.rows, RunFiles{}, std::string(indent) + "    ");
      }
    }
  }
}

void print_causes(const compare::FileComparison& c) {
  for (const auto& k : c.causes) {
    std::printf("  %s%s\n", k.column.empty() ? "" : (escape_text(k.column) + ": ").c_str(),
                escape_text(k.text).c_str());
  }
}

// The records line of a "different" arrow0 verdict, and why arrow0 differs when they do not.
void print_why(const compare::FileComparison& c) {
  print_schema(c);
  switch (c.records) {
    case compare::FileComparison::Records::kEqual:
      std::printf("records     the records are equal; only the arrow0 hash differs:\n");
      break;
    case compare::FileComparison::Records::kSameOtherOrder:
      std::printf("records     the records are the same, in another order:\n");
      break;
    case compare::FileComparison::Records::kDifferent:
      std::printf("records     different%s\n",
                  c.schema_differences.empty() ? "" : " (the schemas differ: above)");
      return;
    case compare::FileComparison::Records::kUnknown:
      std::printf("records     not compared (--rows 0)\n");
      return;
  }
  print_causes(c);
}

void print_rows(const compare::RowDiff& d, const RunFiles& run, const std::string& indent) {
  const uint64_t common = std::min(d.original_rows, d.reproduced_rows);
  for (const auto& c : d.columns) {
    std::string hidden;
    if (c.hidden_segments > 0) {
      hidden = "; " + std::to_string(c.hidden_segments) +
               " segments differ only in bytes no value shows (under null slots), the first "
               "rows " +
               std::to_string(c.first_hidden_row) + "-" +
               std::to_string(c.first_hidden_row + c.first_hidden_rows - 1);
    } else if (c.differing_rows == 0) {
      hidden = " (the digest differs through the rows only one side has)";
    }
    std::printf("%s  %s: %llu of %llu rows differ%s\n", indent.c_str(),
                escape_text(c.column).c_str(), static_cast<unsigned long long>(c.differing_rows),
                static_cast<unsigned long long>(common), hidden.c_str());
    for (const auto& r : c.first) {
      std::string where = "row " + std::to_string(r.row);
      if (r.offset) where += " (offset " + std::to_string(*r.offset) + ")";
      std::string in_a, in_b;
      // A side of several files: the file by its number in the side's list, printed once
      // above.
      if (run.original != nullptr && run.original->size() > 1) {
        in_a = " in [" + std::to_string(r.original_file + 1) + "]";
      }
      if (run.reproduced != nullptr && run.reproduced->size() > 1) {
        in_b = " in [" + std::to_string(r.reproduced_file + 1) + "]";
      }
      std::printf("%s    %-26s original %s%s, reproduced %s%s\n", indent.c_str(), where.c_str(),
                  r.original.c_str(), in_a.c_str(), r.reproduced.c_str(), in_b.c_str());
    }
    if (c.differing_rows > c.first.size()) {
      std::printf("%s    ... and %llu more\n", indent.c_str(),
                  static_cast<unsigned long long>(c.differing_rows - c.first.size()));
    }
  }
}

}  // namespace

void print_side(const char* label, const compare::ComparedFile& s) {
  std::printf("%-11s %s\n", label, escape_text(s.path).c_str());
  if (s.physical) std::printf("  physical  %s\n", s.physical->to_string().c_str());
  if (s.logical) {
    std::printf("  logical   %s (%llu rows)\n", s.logical->multihash().to_string().c_str(),
                static_cast<unsigned long long>(s.logical->num_rows));
  }
}

void print_unordered_side(const char* label, const compare::UnorderedSide& s) {
  std::printf("%-11s %s\n", label, escape_text(s.path).c_str());
  std::printf("  unordered %s (%llu rows)\n", unordered_digest_string(s.digest.digest).c_str(),
              static_cast<unsigned long long>(s.digest.rows));
}

void print_only(const char* label, const compare::UnorderedSide& s) {
  std::printf("%-19s %llu record%s\n", label, static_cast<unsigned long long>(s.only_here),
              s.only_here == 1 ? "" : "s");
  for (const auto& e : s.examples) {
    std::string where = "row " + std::to_string(e.row);
    if (e.offset) where += " (offset " + std::to_string(*e.offset) + ")";
    std::printf("    %-26s %s\n", where.c_str(), e.values.c_str());
  }
  if (s.only_here > s.examples.size()) {
    std::printf("    ... and %llu more\n",
                static_cast<unsigned long long>(s.only_here - s.examples.size()));
  }
}

namespace {

std::string plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

void print_refs(const std::vector<compare::UnorderedRecordRef>& refs, uint64_t total) {
  for (const auto& e : refs) {
    std::string where = "row " + std::to_string(e.row);
    if (e.offset) where += " (offset " + std::to_string(*e.offset) + ")";
    std::printf("    %-26s %s\n", where.c_str(), e.values.c_str());
  }
  if (total > refs.size()) {
    std::printf("    ... and %llu more\n", static_cast<unsigned long long>(total - refs.size()));
  }
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + escape_text(n);
  return out;
}

}  // namespace

void print_keyed(const compare::KeyedComparison& c) {
  std::printf("%-11s %s (%s)\n", "original", escape_text(c.original.path).c_str(),
              plural(c.original.rows, "row", "rows").c_str());
  std::printf("%-11s %s (%s)\n", "reproduced", escape_text(c.reproduced.path).c_str(),
              plural(c.reproduced.rows, "row", "rows").c_str());
  std::string what;
  if (c.same_records) {
    what = "same records";
  } else if (c.same_values) {
    what = "different schemas, the same values for every key";
  } else {
    std::vector<std::string> parts;
    if (c.changed_keys) parts.push_back(plural(c.changed_keys, "key changed", "keys changed"));
    if (c.original.only_here) {
      parts.push_back(plural(c.original.only_here, "row", "rows") + " only in the original");
    }
    if (c.reproduced.only_here) {
      parts.push_back(plural(c.reproduced.only_here, "row", "rows") + " only in the reproduction");
    }
    what = "different records";
    for (size_t i = 0; i < parts.size(); ++i) what += (i ? ", " : ": ") + parts[i];
  }
  std::printf("verdict     %s (rows matched by key, in any order; not the ODF hash)\n",
              what.c_str());
  std::printf("key         %s: %s on both sides\n", joined(c.key).c_str(),
              plural(c.matched_keys, "key", "keys").c_str());
  if (!c.ignored_columns.empty()) {
    std::printf("ignored     %s (not compared)\n", joined(c.ignored_columns).c_str());
  }
  for (const auto& d : c.schema_differences) {
    std::printf("schema      %s: %s\n", escape_text(d.field).c_str(),
                escape_text(schema_difference_text(d)).c_str());
  }
  if (c.original.only_here) {
    std::printf("only in original    %s\n", plural(c.original.only_here, "row", "rows").c_str());
    print_refs(c.original.only_examples, c.original.only_here);
  }
  if (c.reproduced.only_here) {
    std::printf("only in reproduced  %s\n", plural(c.reproduced.only_here, "row", "rows").c_str());
    print_refs(c.reproduced.only_examples, c.reproduced.only_here);
  }
  if (c.changed_keys) {
    std::printf("changed     %s\n", plural(c.changed_keys, "key", "keys").c_str());
    for (const auto& k : c.changes) {
      std::printf("    %s (original row %llu, reproduced row %llu)\n", k.key.c_str(),
                  static_cast<unsigned long long>(k.original_row),
                  static_cast<unsigned long long>(k.reproduced_row));
      for (const auto& v : k.values) {
        std::printf("      %-20s %s -> %s\n", escape_text(v.column).c_str(), v.original.c_str(),
                    v.reproduced.c_str());
      }
    }
    if (c.changed_keys > c.changes.size()) {
      std::printf("    ... and %llu more (keys held by several rows are counted, not shown)\n",
                  static_cast<unsigned long long>(c.changed_keys - c.changes.size()));
    }
  }
  for (const auto* s : {&c.original, &c.reproduced}) {
    if (s->duplicate_keys == 0) continue;
    std::printf("duplicates  %s %s held by %s\n", s == &c.original ? "original:" : "reproduced:",
                plural(s->duplicate_keys, "key", "keys").c_str(),
                plural(s->duplicate_rows, "row", "rows").c_str());
    print_refs(s->duplicate_examples, s->duplicate_rows);
  }
  if (!c.same_records && !c.same_values && c.changed_keys == 0 && c.original.only_here == 0 &&
      c.reproduced.only_here == 0 && c.schema_differences.empty()) {
    std::printf(
        "records     the digests' sums differ, but every key matched with its values (two "
        "keys or values share the first bits of their digests)\n");
  }
}

nlohmann::json comparison_json(const compare::FileComparison& c) {
  return nlohmann::json::parse(compare::file_comparison_json(c));
}

namespace {

// An equivalent pair's records: equal, or the blind spot of arrow0 that hides how they differ
// (where, and why arrow0 cannot see it).
void print_equivalent_records(const compare::FileComparison& c, const RunFiles& run) {
  switch (c.records) {
    case compare::FileComparison::Records::kEqual:
      std::printf("records     equal (compared value by value, in order)\n");
      return;
    case compare::FileComparison::Records::kSameOtherOrder:
      std::printf(
          "records     the same records in ANOTHER ORDER: arrow0 (what ODF and kamu check) "
          "accepts this reproduction, but its rows are in another order\n");
      break;
    default:
      std::printf(
          "records     DIFFERENT: arrow0 (what ODF and kamu check) accepts this reproduction, "
          "but the records differ (a blind spot of arrow0)\n");
      break;
  }
  const uint64_t na = c.original.logical->num_rows, nb = c.reproduced.logical->num_rows;
  std::printf("rows        original %llu, reproduced %llu\n", static_cast<unsigned long long>(na),
              static_cast<unsigned long long>(nb));
  if (c.rows) {
    std::string list;
    for (const auto& col : c.rows->columns) list += (list.empty() ? "" : ", ") + col.column;
    if (!list.empty()) std::printf("columns     %s\n", escape_text(list).c_str());
    print_rows(*c.rows, run, "");
  }
  print_schema(c);
  std::printf("why arrow0 is equal:\n");
  print_causes(c);
}

// Records that differ by one run of rows one side alone has: the run, and its first rows.
void print_row_block(const compare::FileComparison::RowBlock& b) {
  const char* side = b.in_original ? "original" : "reproduced";
  const std::string count = std::to_string(b.rows) + (b.rows == 1 ? " row" : " rows");
  const std::string rows =
      b.rows == 1 ? "row " + std::to_string(b.row)
                  : "rows " + std::to_string(b.row) + "-" + std::to_string(b.row + b.rows - 1);
  if (b.at_end && b.row == 0) {  // the other side has no row at all
    std::printf("records     %s only in the %s (%s); the %s has none\n", count.c_str(), side,
                rows.c_str(), b.in_original ? "reproduced" : "original");
  } else if (b.at_end) {
    std::printf(
        "records     %s appended at the end of the %s (%s); the rows both have are "
        "the same records, in order\n",
        count.c_str(), side, rows.c_str());
  } else {
    std::printf(
        "records     %s only in the %s (%s); the other rows are the same records, in "
        "order\n",
        count.c_str(), side, rows.c_str());
  }
  for (const auto& e : b.first) {
    std::string where = "row " + std::to_string(e.row);
    if (e.offset) where += " (offset " + std::to_string(*e.offset) + ")";
    std::printf("    %-26s %s\n", where.c_str(), e.values.c_str());
  }
  if (!b.first.empty() && b.rows > b.first.size()) {
    std::printf("    ... and %llu more\n",
                static_cast<unsigned long long>(b.rows - b.first.size()));
  }
}

// A number as the shortest text that reads back as it ("1e-09", "0.1").
std::string number_text(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// The records compared again with a tolerance on floating-point values (tolerance.h).
void print_tolerance(const compare::ToleranceCheck& t, const RunFiles& run) {
  const std::string asked =
      "rtol " + number_text(t.tolerance.rtol) + ", atol " + number_text(t.tolerance.atol);
  if (!t.error.empty()) {
    std::printf("tolerance   %s: not applied: %s\n", asked.c_str(), escape_text(t.error).c_str());
    return;
  }
  if (t.within) {
    std::printf(
        "tolerance   %s: EQUAL WITHIN TOLERANCE: every row holds the same record, in order, "
        "but for floating-point values within the tolerance (arrow0 still differs)\n",
        asked.c_str());
  } else if (t.rows.original_rows != t.rows.reproduced_rows) {
    std::printf(
        "tolerance   %s: not within it: the row counts differ (original %llu, "
        "reproduced %llu)\n",
        asked.c_str(), static_cast<unsigned long long>(t.rows.original_rows),
        static_cast<unsigned long long>(t.rows.reproduced_rows));
  } else {
    std::printf("tolerance   %s: not within it: %llu record%s differ%s beyond it\n", asked.c_str(),
                static_cast<unsigned long long>(t.rows.differing_records),
                t.rows.differing_records == 1 ? "" : "s", t.rows.differing_records == 1 ? "s" : "");
  }
  for (const auto& d : t.deviations) {
    std::string where = "row " + std::to_string(d.at.row);
    if (d.at.offset) where += " (offset " + std::to_string(*d.at.offset) + ")";
    std::printf(
        "  %s: %llu value%s differ%s, %s; the largest deviation %s at %s: original %s, "
        "reproduced %s\n",
        escape_text(d.column).c_str(), static_cast<unsigned long long>(d.differing_rows),
        d.differing_rows == 1 ? "" : "s", d.differing_rows == 1 ? "s" : "",
        d.outside_rows == 0 ? "all within the tolerance"
                            : (std::to_string(d.outside_rows) + " beyond it").c_str(),
        number_text(d.max_deviation).c_str(), where.c_str(), d.at.original.c_str(),
        d.at.reproduced.c_str());
  }
  if (!t.within && !t.rows.columns.empty()) {
    std::printf("  beyond the tolerance (floating-point columns) or different (the others):\n");
    print_rows(t.rows, run, "  ");
  }
}

}  // namespace

// The verdict line, the records line and, when either differs, where and why.
void print_verdict(const compare::FileComparison& c, const RunFiles& run) {
  if (!c.ignored_columns.empty()) {
    std::string list;
    for (const auto& col : c.ignored_columns) list += (list.empty() ? "" : ", ") + col;
    std::printf("ignored     %s (left out of the records, as asked)\n", escape_text(list).c_str());
  }
  switch (c.verdict) {
    case compare::CompareVerdict::kIdentical:
      std::printf("verdict     identical (same bytes)\n");
      std::printf("records     equal (the same bytes)\n");
      break;
    case compare::CompareVerdict::kEquivalent:
      std::printf(c.original.physical
                      ? "verdict     equivalent (different bytes, the same arrow0 hash)\n"
                      : "verdict     equivalent (the same arrow0 hash)\n");
      print_equivalent_records(c, run);
      break;
    case compare::CompareVerdict::kDifferent: {
      std::printf(
          "verdict     different%s\n",
          c.ignored_columns.empty() ? "" : " (arrow0, which covers the ignored columns too)");
      std::printf("rows        original %llu, reproduced %llu\n",
                  static_cast<unsigned long long>(c.original.logical->num_rows),
                  static_cast<unsigned long long>(c.reproduced.logical->num_rows));
      // With a tolerance asked for, its answer first: the exact differences follow.
      if (c.tolerance) print_tolerance(*c.tolerance, run);
      if (c.row_block) {  // the answer, and no wall of rows shifted by the run
        print_schema(c);
        print_row_block(*c.row_block);
        break;
      }
      print_why(c);  // what the records are first (another order?), then where they differ
      std::string list;
      for (const auto& col : c.differing_columns) list += (list.empty() ? "" : ", ") + col;
      std::printf("columns     %s\n",
                  list.empty() ? "(schema differs)" : escape_text(list).c_str());
      if (c.rows) print_rows(*c.rows, run, "");
      break;
    }
  }
  if (c.tolerance && c.verdict != compare::CompareVerdict::kDifferent) {
    print_tolerance(*c.tolerance, run);
  }
}

// A chain difference's value for the text report: escaped, and cut (a query can be long; the
// JSON keeps it whole).

}  // namespace odf_hash::cli
