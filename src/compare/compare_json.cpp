// file_comparison_json and unordered_comparison_json (compare_json.h).
#include "odf_hash/compare/compare_json.h"

#include "odf_hash/logical/record_digest.h"  // unordered_digest_string

#include <cmath>

#include <nlohmann/json.hpp>

namespace odf_hash::compare {

namespace {

nlohmann::json side_json(const ComparedFile& s) {
  nlohmann::json j{
      {"path", s.path},
      {"physical", s.physical ? nlohmann::json(s.physical->to_string()) : nlohmann::json(nullptr)}};
  if (s.logical) {
    j["logical"] = s.logical->multihash().to_string();
    j["rows"] = s.logical->num_rows;
  }
  return j;
}

// A differing row: its index, `offset` (or null) and both values as text.
nlohmann::json differing_row_json(const DifferingRow& r) {
  nlohmann::json jr{{"row", r.row}, {"original", r.original}, {"reproduced", r.reproduced}};
  jr["offset"] = r.offset ? nlohmann::json(*r.offset) : nlohmann::json(nullptr);
  return jr;
}

nlohmann::json rows_json(const RowDiff& d) {
  nlohmann::json cols = nlohmann::json::array();
  for (const auto& c : d.columns) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : c.first) rows.push_back(differing_row_json(r));
    nlohmann::json jc{{"column", c.column},
                      {"differing_rows", c.differing_rows},
                      {"rows", rows},
                      {"hidden_segments", c.hidden_segments},
                      {"null_on_one_side", c.null_on_one_side}};
    if (c.hidden_segments > 0) {
      jc["first_hidden_rows"] = {c.first_hidden_row, c.first_hidden_row + c.first_hidden_rows};
    }
    cols.push_back(std::move(jc));
  }
  return cols;
}

nlohmann::json schema_json(const std::vector<SchemaDifference>& differences) {
  nlohmann::json schema = nlohmann::json::array();
  for (const auto& d : differences) {
    nlohmann::json one{{"field", d.field},
                       {"kind", schema_difference_kind_name(d.kind)},
                       {"original", d.original},
                       {"reproduced", d.reproduced},
                       {"encoding_only", d.encoding_only}};
    if (d.changes_hash) one["changes_hash"] = *d.changes_hash;
    schema.push_back(std::move(one));
  }
  return schema;
}

nlohmann::json record_refs_json(const std::vector<UnorderedRecordRef>& records) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& e : records) {
    out.push_back({{"row", e.row},
                   {"offset", e.offset ? nlohmann::json(*e.offset) : nlohmann::json()},
                   {"values", e.values}});
  }
  return out;
}

nlohmann::json unordered_side_json(const UnorderedSide& s) {
  return {{"path", s.path},
          {"rows", s.digest.rows},
          {"unordered", unordered_digest_string(s.digest.digest)},
          {"only_here", s.only_here},
          {"examples", record_refs_json(s.examples)}};
}

// The run of rows one side alone has (FileComparison::row_block), or null.
nlohmann::json row_block_json(const std::optional<FileComparison::RowBlock>& b) {
  if (!b) return nullptr;
  return {{"side", b->in_original ? "original" : "reproduced"},
          {"row", b->row},
          {"rows", b->rows},
          {"at_end", b->at_end},
          {"first", record_refs_json(b->first)}};
}

nlohmann::json casts_json(const std::vector<FileComparison::CastCheck>& casts) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& k : casts) {
    nlohmann::json one{{"field", k.field},
                       {"cast", k.cast},
                       {"side_cast", k.reproduced_cast ? "reproduced" : "original"},
                       {"from", k.from},
                       {"to", k.to},
                       {"values_equal", k.values_equal},
                       {"changes_hash", k.changes_hash}};
    if (!k.error.empty()) one["error"] = k.error;
    if (k.rows) one["differences"] = rows_json(*k.rows);
    out.push_back(std::move(one));
  }
  return out;
}

// FileComparison::tolerance: a deviation that is not finite (a NaN or an infinity against
// another value, a null against a value) is null, JSON having no infinity.
nlohmann::json tolerance_json(const ToleranceCheck& t) {
  nlohmann::json deviations = nlohmann::json::array();
  for (const auto& d : t.deviations) {
    deviations.push_back(
        {{"column", d.column},
         {"differing_rows", d.differing_rows},
         {"outside_rows", d.outside_rows},
         {"max_deviation",
          std::isfinite(d.max_deviation) ? nlohmann::json(d.max_deviation) : nlohmann::json()},
         {"at", differing_row_json(d.at)}});
  }
  nlohmann::json j{{"rtol", t.tolerance.rtol},
                   {"atol", t.tolerance.atol},
                   {"within", t.within},
                   {"deviations", deviations}};
  if (!t.error.empty()) {
    j["error"] = t.error;
  } else {
    j["original_rows"] = t.rows.original_rows;
    j["reproduced_rows"] = t.rows.reproduced_rows;
    j["differing_records"] = t.rows.differing_records;
    j["differences"] = rows_json(t.rows);
  }
  return j;
}

void why_json(const FileComparison& c, nlohmann::json& j) {
  j["schema_differences"] = schema_json(c.schema_differences);
  j["casts"] = casts_json(c.casts);
  j["records"] = records_name(c.records);
  nlohmann::json causes = nlohmann::json::array();
  for (const auto& k : c.causes) {
    causes.push_back({{"kind", k.kind}, {"column", k.column}, {"text", k.text}});
  }
  j["causes"] = causes;
}

}  // namespace

std::string file_comparison_json(const FileComparison& c, int indent) {
  nlohmann::json j{{"original", side_json(c.original)},
                   {"reproduced", side_json(c.reproduced)},
                   {"verdict", compare_verdict_name(c.verdict)}};
  j["verified"] = reproduction_verified(c);
  if (c.verdict == CompareVerdict::kDifferent) j["differing_columns"] = c.differing_columns;
  if (c.rows) j["differences"] = rows_json(*c.rows);
  if (c.verdict == CompareVerdict::kDifferent) j["row_block"] = row_block_json(c.row_block);
  if (!c.ignored_columns.empty()) j["ignored_columns"] = c.ignored_columns;
  if (c.tolerance) j["tolerance"] = tolerance_json(*c.tolerance);
  why_json(c, j);
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string unordered_comparison_json(const UnorderedComparison& c, int indent) {
  nlohmann::json j{{"mode", "ignore-order"},
                   {"note", "order-independent record digests, not the ODF logical hash"},
                   {"original", unordered_side_json(c.original)},
                   {"reproduced", unordered_side_json(c.reproduced)},
                   {"same_records", c.same_records},
                   {"same_values", c.same_values},
                   {"schema_differences", schema_json(c.schema_differences)}};
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

namespace {

nlohmann::json keyed_side_json(const KeyedSide& s) {
  return {{"path", s.path},
          {"rows", s.rows},
          {"only_here", s.only_here},
          {"only_examples", record_refs_json(s.only_examples)},
          {"duplicate_keys", s.duplicate_keys},
          {"duplicate_rows", s.duplicate_rows},
          {"duplicate_examples", record_refs_json(s.duplicate_examples)}};
}

nlohmann::json optional_json(const std::optional<int64_t>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json();
}

}  // namespace

std::string keyed_comparison_json(const KeyedComparison& c, int indent) {
  nlohmann::json changes = nlohmann::json::array();
  for (const auto& k : c.changes) {
    nlohmann::json values = nlohmann::json::array();
    for (const auto& v : k.values) {
      values.push_back(
          {{"column", v.column}, {"original", v.original}, {"reproduced", v.reproduced}});
    }
    changes.push_back({{"key", k.key},
                       {"original_row", k.original_row},
                       {"reproduced_row", k.reproduced_row},
                       {"original_offset", optional_json(k.original_offset)},
                       {"reproduced_offset", optional_json(k.reproduced_offset)},
                       {"values", values}});
  }
  nlohmann::json j{{"mode", "key"},
                   {"note", "rows matched by key in any order, not the ODF logical hash"},
                   {"key", c.key},
                   {"compared_columns", c.compared_columns},
                   {"ignored_columns", c.ignored_columns},
                   {"original", keyed_side_json(c.original)},
                   {"reproduced", keyed_side_json(c.reproduced)},
                   {"matched_keys", c.matched_keys},
                   {"changed_keys", c.changed_keys},
                   {"changes", changes},
                   {"same_records", c.same_records},
                   {"same_values", c.same_values},
                   {"schema_differences", schema_json(c.schema_differences)}};
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string chain_differences_json(const std::vector<odf::ChainDifference>& d, int indent) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& c : d) {
    j.push_back({{"sequence_number", c.sequence_number},
                 {"reproduced_sequence_number", c.reproduced_sequence_number},
                 {"event", c.event},
                 {"field", c.field},
                 {"original", c.original},
                 {"reproduced", c.reproduced},
                 {"identity_only", c.identity_only}});
  }
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace odf_hash::compare
