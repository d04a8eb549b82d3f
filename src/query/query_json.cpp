// The JSON of a query answer check (include/odf_hash/query/query_json.h).
#include "odf_hash/query/query_json.h"

#include <string>

#include <nlohmann/json.hpp>

#include "odf_hash/odf/verify_json.h"

namespace odf_hash::query {

namespace {

using nlohmann::json;

json or_null(const std::string& s) {
  return s.empty() ? json(nullptr) : json(s);
}

json hash_json(const HashCheck& h) {
  return {{"status", check_status_name(h.status)},
          {"committed", h.committed.to_string()},
          {"computed", h.computed ? json(h.computed->to_string()) : json(nullptr)}};
}

json signature_json(const SignatureCheck& s) {
  return {{"status", check_status_name(s.status)},
          {"type", s.type},
          {"key", s.key},
          {"trusted", s.trusted},
          {"trusted_name", s.trusted ? json(s.trusted_name) : json(nullptr)},
          {"trusted_source", s.trusted ? json(s.trusted_source) : json(nullptr)},
          {"message", or_null(s.message)}};
}

json tie_json(const DatasetTie& t) {
  return {{"id", t.id},
          {"alias", t.alias},
          {"block_hash", t.block_hash ? json(t.block_hash->to_string()) : json(nullptr)},
          {"tie", tie_status_name(t.status)},
          {"location", or_null(t.location)},
          {"message", or_null(t.message)},
          {"copy", t.report ? json::parse(odf::verify_report_json(*t.report)) : json(nullptr)}};
}

}  // namespace

std::string query_report_json(const QueryReport& report, int indent) {
  json queries = json::array();
  for (const QueryCheck& q : report.queries) {
    json datasets = json::array();
    for (const DatasetTie& t : q.datasets) datasets.push_back(tie_json(t));
    queries.push_back({{"path", q.path},
                       {"query", q.query},
                       {"input", hash_json(q.input)},
                       {"output", hash_json(q.output)},
                       {"sub_queries", hash_json(q.sub_queries)},
                       {"sub_query_count", q.sub_query_count},
                       {"signature", signature_json(q.signature)},
                       {"datasets", std::move(datasets)}});
  }
  json doc = {{"verdict", query_verdict_name(report.verdict())},
              {"summary", report.summary()},
              {"findings", report.findings()},
              {"queries", std::move(queries)}};
  return doc.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace odf_hash::query
