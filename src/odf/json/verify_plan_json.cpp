// Plans, tasks and results as JSON (verify_plan_json.h).
#include "odf_hash/odf/verify_plan_json.h"

#include <nlohmann/json.hpp>
#include <utility>

#include "odf_hash/core/sha3.h"
#include "odf_hash/core/text.h"
#include "odf_hash/internal/odf/problem_json.h"
#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"
#include "scope_json.h"

namespace odf_hash::odf {

namespace {

using detail::json_bool;
using detail::json_hash;
using detail::json_optional_hash;
using detail::json_string;
using detail::json_u64;
using nlohmann::json;

json hash_or_null(const std::optional<Multihash>& h) {
  return h ? json(h->to_string()) : json();
}

std::string dump(const json& j) {
  // Paths and messages can hold bytes that are not UTF-8: replaced rather than failing.
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

Result<json> parse_object(std::string_view text, const char* what) {
  json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::parse_error(std::string(what) + ": not valid JSON");
  if (!j.is_object()) return Status::parse_error(std::string(what) + ": expected a JSON object");
  return j;
}

Status check_version(const json& j, const std::string& where) {
  ODF_HASH_ASSIGN_OR_RETURN(uint64_t version, json_u64(j, where, "version"));
  if (version != static_cast<uint64_t>(kVerifyPlanJsonVersion)) {
    return Status::parse_error(where + ": version " + std::to_string(version) +
                               " is not supported (this odf-hash reads version " +
                               std::to_string(kVerifyPlanJsonVersion) + ")");
  }
  return Status::ok();
}

Result<FileRole> role_from(const json& j, const std::string& where) {
  ODF_HASH_ASSIGN_OR_RETURN(std::string role, json_string(j, where, "role"));
  if (role == "data") return FileRole::kData;
  if (role == "checkpoint") return FileRole::kCheckpoint;
  if (role == "linked-object") return FileRole::kLinkedObject;
  return Status::parse_error(where +
                             ".role: expected \"data\", \"checkpoint\" or \"linked-object\", "
                             "not \"" +
                             escape_untrusted(role) + "\"");
}

// A key of a data or checkpoint file: "data/<name>" or "checkpoints/<name>", one component
// below its folder. A task is untrusted: it must not name refs/head, a block or a path
// leaving the dataset.
Status check_file_key(const std::string& file, FileRole role, const std::string& where) {
  const std::string folder = role == FileRole::kCheckpoint ? "checkpoints/" : "data/";
  if (!is_valid_object_key(file) || file.rfind(folder, 0) != 0 ||
      file.find('/', folder.size()) != std::string::npos || file.size() == folder.size()) {
    return Status::parse_error(where + ".file: \"" + escape_untrusted(file, 160) +
                               "\" is not a file of the " + folder + " folder");
  }
  return Status::ok();
}

// The store options of a task: optional fields (a task without them opens its dataset with
// the defaults), checked as the CLI checks its flags.
Status store_from_json(const json& j, const std::string& where, StoreOptions& o) {
  auto has = [&](const char* key) { return j.contains(key); };
  if (has("endpoint_url")) {
    ODF_HASH_ASSIGN_OR_RETURN(o.endpoint_url, json_string(j, where, "endpoint_url"));
  }
  if (has("region")) {
    ODF_HASH_ASSIGN_OR_RETURN(o.region, json_string(j, where, "region"));
  }
  if (has("no_sign_request")) {
    ODF_HASH_ASSIGN_OR_RETURN(o.no_sign_request, json_bool(j, where, "no_sign_request"));
  }
  if (has("ipfs_gateway")) {
    ODF_HASH_ASSIGN_OR_RETURN(o.ipfs_gateway, json_string(j, where, "ipfs_gateway"));
  }
  if (has("trust_gateway")) {
    ODF_HASH_ASSIGN_OR_RETURN(o.trust_gateway, json_bool(j, where, "trust_gateway"));
  }
  for (auto [key, value] : {std::pair{"connect_timeout", &o.connect_timeout_s},
                            std::pair{"read_timeout", &o.read_timeout_s}}) {
    if (!has(key)) continue;
    const json& v = j.at(key);
    if (!v.is_number() || !(v.get<double>() >= 0.1 && v.get<double>() <= 3600)) {
      return Status::parse_error(where + "." + key + ": expected seconds from 0.1 to 3600");
    }
    *value = v.get<double>();
  }
  if (has("max_attempts")) {
    ODF_HASH_ASSIGN_OR_RETURN(uint64_t n, json_u64(j, where, "max_attempts"));
    if (n < 1 || n > 20) return Status::parse_error(where + ".max_attempts: expected 1 to 20");
    o.max_attempts = static_cast<unsigned>(n);
  }
  return Status::ok();
}

json link_to_json(const std::optional<LinkRef>& link) {
  if (!link) return json();
  return json{{"data_file", link->data_file}, {"column", link->column}, {"row", link->row}};
}

json task_to_json(const FileTask& t) {
  return json{{"version", kVerifyPlanJsonVersion},
              {"id", t.id},
              {"dataset", redact_url(t.dataset)},
              {"follow_symlinks", t.store.follow_symlinks},
              {"endpoint_url", redact_url(t.store.endpoint_url)},
              {"region", t.store.region},
              {"no_sign_request", t.store.no_sign_request},
              {"connect_timeout", t.store.connect_timeout_s},
              {"read_timeout", t.store.read_timeout_s},
              {"max_attempts", t.store.max_attempts},
              {"ipfs_gateway", redact_url(t.store.ipfs_gateway)},
              {"trust_gateway", t.store.trust_gateway},
              {"role", file_role_name(t.role)},
              {"file", t.file},
              {"known_missing", t.known_missing},
              {"misnamed", t.misnamed},
              {"block", t.block.to_string()},
              {"sequence_number", t.sequence_number},
              {"size", t.size},
              {"physical", t.physical.to_string()},
              {"logical", hash_or_null(t.logical)},
              {"derivative", t.derivative},
              {"integrity_only", t.integrity_only},
              {"link", link_to_json(t.link)},
              {"deep", t.deep},
              {"offset_column", t.offset_column},
              {"offset_start", t.offsets.start},
              {"offset_end", t.offsets.end}};
}

Result<FileTask> task_from_json(const json& j, const std::string& where) {
  if (!j.is_object()) return Status::parse_error(where + ": expected an object");
  ODF_HASH_RETURN_IF_ERROR(check_version(j, where));
  FileTask t;
  ODF_HASH_ASSIGN_OR_RETURN(t.id, json_u64(j, where, "id"));
  ODF_HASH_ASSIGN_OR_RETURN(t.dataset, json_string(j, where, "dataset"));
  if (Status nul = refuse_nul(t.dataset); !nul.is_ok()) {
    return Status::parse_error(where + ".dataset: " + nul.message());
  }
  ODF_HASH_ASSIGN_OR_RETURN(t.store.follow_symlinks, json_bool(j, where, "follow_symlinks"));
  ODF_HASH_RETURN_IF_ERROR(store_from_json(j, where, t.store));
  ODF_HASH_ASSIGN_OR_RETURN(t.role, role_from(j, where));
  ODF_HASH_ASSIGN_OR_RETURN(t.file, json_string(j, where, "file"));
  ODF_HASH_RETURN_IF_ERROR(check_file_key(t.file, t.role, where));
  ODF_HASH_ASSIGN_OR_RETURN(t.known_missing, json_bool(j, where, "known_missing"));
  if (j.contains("misnamed")) {  // optional: tasks of version 1 written before it existed
    ODF_HASH_ASSIGN_OR_RETURN(t.misnamed, json_string(j, where, "misnamed"));
    if (!t.misnamed.empty()) {
      ODF_HASH_RETURN_IF_ERROR(check_file_key(t.misnamed, t.role, where + ".misnamed"));
      if (!t.known_missing) {
        return Status::parse_error(where + ".misnamed: given only for a known missing file");
      }
    }
  }
  ODF_HASH_ASSIGN_OR_RETURN(t.block, json_hash(j, where, "block"));
  ODF_HASH_ASSIGN_OR_RETURN(t.sequence_number, json_u64(j, where, "sequence_number"));
  ODF_HASH_ASSIGN_OR_RETURN(t.size, json_u64(j, where, "size"));
  ODF_HASH_ASSIGN_OR_RETURN(t.physical, json_hash(j, where, "physical"));
  ODF_HASH_ASSIGN_OR_RETURN(t.logical, json_optional_hash(j, where, "logical"));
  ODF_HASH_ASSIGN_OR_RETURN(t.derivative, json_bool(j, where, "derivative"));
  ODF_HASH_ASSIGN_OR_RETURN(t.integrity_only, json_bool(j, where, "integrity_only"));
  if (t.dataset.empty()) return Status::parse_error(where + ".dataset: empty");
  // Absent in no task this version writes; tolerated as null.
  ODF_HASH_ASSIGN_OR_RETURN(t.link, detail::link_from_json(j, where));
  if (j.contains("deep")) {  // optional: tasks written before --deep existed are not deep
    ODF_HASH_ASSIGN_OR_RETURN(t.deep, json_bool(j, where, "deep"));
    ODF_HASH_ASSIGN_OR_RETURN(t.offset_column, json_string(j, where, "offset_column"));
    ODF_HASH_ASSIGN_OR_RETURN(t.offsets.start, json_u64(j, where, "offset_start"));
    ODF_HASH_ASSIGN_OR_RETURN(t.offsets.end, json_u64(j, where, "offset_end"));
    if (t.deep && (t.role != FileRole::kData || t.offset_column.empty())) {
      return Status::parse_error(where + ".deep: only for a data file, with an offset_column");
    }
  }
  if ((t.role == FileRole::kLinkedObject) != t.link.has_value()) {
    return Status::parse_error(where + ".link: given exactly for a linked object");
  }
  if (t.role == FileRole::kLinkedObject && (t.logical || t.known_missing)) {
    return Status::parse_error(where +
                               ": a linked object has no logical hash and is never known "
                               "missing");
  }
  if (t.role != FileRole::kLinkedObject && (t.role == FileRole::kData) != t.logical.has_value()) {
    return Status::parse_error(where +
                               ".logical: a data file has a recorded logical hash, "
                               "a checkpoint none");
  }
  return t;
}

json result_to_json(const FileCheckResult& r) {
  const FileCheck& c = r.check;
  return json{{"version", kVerifyPlanJsonVersion},
              {"task", r.task},
              {"task_digest", r.task_digest},
              {"role", file_role_name(c.role)},
              {"file", c.file},
              {"block", c.block.to_string()},
              {"sequence_number", c.sequence_number},
              {"outcome", file_outcome_name(c.outcome)},
              {"actual_physical", hash_or_null(c.actual_physical)},
              {"logical", hash_or_null(c.logical)},
              {"size", c.size ? json(*c.size) : json()},
              {"problem", r.problem ? detail::problem_to_json(*r.problem) : json()}};
}

Result<FileCheckResult> result_from_json(const json& j, const std::string& where) {
  if (!j.is_object()) return Status::parse_error(where + ": expected an object");
  ODF_HASH_RETURN_IF_ERROR(check_version(j, where));
  ODF_HASH_ASSIGN_OR_RETURN(uint64_t task, json_u64(j, where, "task"));
  ODF_HASH_ASSIGN_OR_RETURN(FileRole role, role_from(j, where));
  ODF_HASH_ASSIGN_OR_RETURN(std::string file, json_string(j, where, "file"));
  ODF_HASH_ASSIGN_OR_RETURN(Multihash block, json_hash(j, where, "block"));
  ODF_HASH_ASSIGN_OR_RETURN(uint64_t seq, json_u64(j, where, "sequence_number"));
  ODF_HASH_ASSIGN_OR_RETURN(std::string outcome_name, json_string(j, where, "outcome"));
  FileOutcome outcome;
  if (outcome_name == file_outcome_name(FileOutcome::kPhysicalMatch)) {
    outcome = FileOutcome::kPhysicalMatch;
  } else if (outcome_name == file_outcome_name(FileOutcome::kLogicalMatch)) {
    outcome = FileOutcome::kLogicalMatch;
  } else if (outcome_name == file_outcome_name(FileOutcome::kFailed)) {
    outcome = FileOutcome::kFailed;
  } else {
    return Status::parse_error(where + ".outcome: unknown outcome \"" +
                               escape_untrusted(outcome_name) + "\"");
  }
  FileCheckResult r{
      task, FileCheck{role, block, seq, file, outcome, std::nullopt, std::nullopt, std::nullopt},
      std::nullopt};
  ODF_HASH_ASSIGN_OR_RETURN(r.task_digest, json_string(j, where, "task_digest"));
  if (r.task_digest.size() != 64 ||
      r.task_digest.find_first_not_of("0123456789abcdef") != std::string::npos) {
    return Status::parse_error(where + ".task_digest: expected 64 lower-case hex digits");
  }
  ODF_HASH_ASSIGN_OR_RETURN(r.check.size, detail::json_optional_u64(j, where, "size"));
  if (r.check.size && (role != FileRole::kLinkedObject || outcome == FileOutcome::kFailed)) {
    return Status::parse_error(where + ".size: given only for a linked object that matched");
  }
  ODF_HASH_ASSIGN_OR_RETURN(r.check.actual_physical,
                            json_optional_hash(j, where, "actual_physical"));
  ODF_HASH_ASSIGN_OR_RETURN(r.check.logical, json_optional_hash(j, where, "logical"));
  if ((outcome == FileOutcome::kLogicalMatch) !=
      (r.check.actual_physical.has_value() && r.check.logical.has_value())) {
    return Status::parse_error(where +
                               ": actual_physical and logical are given exactly for "
                               "a logical-match");
  }
  ODF_HASH_ASSIGN_OR_RETURN(const json* problem, detail::json_field(j, where, "problem"));
  if (!problem->is_null()) {
    ODF_HASH_ASSIGN_OR_RETURN(r.problem, detail::problem_from_json(*problem, where + ".problem"));
  }
  if ((outcome == FileOutcome::kFailed) != r.problem.has_value()) {
    return Status::parse_error(where + ".problem: given exactly when the outcome is failed");
  }
  return r;
}

Result<std::vector<Problem>> problems_from(const json& j, const char* key) {
  ODF_HASH_ASSIGN_OR_RETURN(const json* list, detail::json_field(j, "plan", key));
  if (!list->is_array())
    return Status::parse_error(std::string("plan.") + key + ": expected a list");
  std::vector<Problem> out;
  for (size_t i = 0; i < list->size(); ++i) {
    ODF_HASH_ASSIGN_OR_RETURN(
        Problem p, detail::problem_from_json(
                       (*list)[i], "plan." + std::string(key) + "[" + std::to_string(i) + "]"));
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

std::string task_fingerprint(const FileTask& task) {
  // dump() (replace): a file name that is not UTF-8 must not throw here.
  const std::string text = dump(task_to_json(task));
  Sha3_256 h;
  h.update(std::string_view(text));
  return to_hex(h.finalize());
}

std::string file_task_json(const FileTask& task) {
  return dump(task_to_json(task));
}

std::string check_result_json(const FileCheckResult& result) {
  return dump(result_to_json(result));
}

std::string verify_plan_json(const VerifyPlan& plan) {
  const DatasetReport& r = plan.report;
  json j{{"version", kVerifyPlanJsonVersion},
         {"path", redact_url(r.path)},
         {"head", hash_or_null(r.head)},
         {"kind", r.kind ? json(dataset_kind_name(*r.kind)) : json()},
         {"dataset_id", r.dataset_id ? json(*r.dataset_id) : json()},
         {"blocks", r.blocks},
         {"chain_complete", r.chain_complete},
         {"unexpected_checked", r.unexpected_checked}};
  j["problems"] = json::array();
  for (const auto& p : r.problems) j["problems"].push_back(detail::problem_to_json(p));
  j["tasks"] = json::array();
  for (const auto& t : plan.tasks) j["tasks"].push_back(task_to_json(t));
  j["unexpected"] = json::array();
  for (const auto& p : plan.unexpected) j["unexpected"].push_back(detail::problem_to_json(p));
  j["linked_summaries"] = json::array();
  for (const auto& s : plan.linked_summaries) {
    json objects = json::array();
    for (auto [task, count] : s.objects) objects.push_back(json::array({task, count}));
    j["linked_summaries"].push_back(json{{"block", s.block.to_string()},
                                         {"sequence_number", s.sequence_number},
                                         {"data_file", s.data_file},
                                         {"num_objects_naive", s.recorded.num_objects_naive},
                                         {"size_naive", s.recorded.size_naive},
                                         {"values", s.values},
                                         {"objects", std::move(objects)}});
  }
  j["unreferenced"] = detail::unreferenced_to_json(r);
  j["scope"] = detail::scope_to_json(r.scope);
  return dump(j);
}

Result<FileTask> parse_file_task_json(std::string_view text) {
  ODF_HASH_ASSIGN_OR_RETURN(json j, parse_object(text, "task"));
  return task_from_json(j, "task");
}

Result<FileCheckResult> parse_check_result_json(std::string_view text) {
  ODF_HASH_ASSIGN_OR_RETURN(json j, parse_object(text, "result"));
  return result_from_json(j, "result");
}

Result<VerifyPlan> parse_verify_plan_json(std::string_view text) {
  ODF_HASH_ASSIGN_OR_RETURN(json j, parse_object(text, "plan"));
  ODF_HASH_RETURN_IF_ERROR(check_version(j, "plan"));
  VerifyPlan plan;
  DatasetReport& r = plan.report;
  ODF_HASH_ASSIGN_OR_RETURN(r.path, json_string(j, "plan", "path"));
  ODF_HASH_ASSIGN_OR_RETURN(r.head, json_optional_hash(j, "plan", "head"));
  ODF_HASH_ASSIGN_OR_RETURN(auto kind, detail::json_optional_string(j, "plan", "kind"));
  if (kind) {
    if (*kind == dataset_kind_name(DatasetKind::kRoot)) {
      r.kind = DatasetKind::kRoot;
    } else if (*kind == dataset_kind_name(DatasetKind::kDerivative)) {
      r.kind = DatasetKind::kDerivative;
    } else {
      return Status::parse_error("plan.kind: expected \"root\", \"derivative\" or null");
    }
  }
  // Optional (null or absent): plans written before the report carried it.
  ODF_HASH_ASSIGN_OR_RETURN(r.dataset_id, detail::json_optional_string(j, "plan", "dataset_id"));
  ODF_HASH_ASSIGN_OR_RETURN(r.blocks, json_u64(j, "plan", "blocks"));
  ODF_HASH_ASSIGN_OR_RETURN(r.chain_complete, json_bool(j, "plan", "chain_complete"));
  ODF_HASH_ASSIGN_OR_RETURN(r.unexpected_checked, json_bool(j, "plan", "unexpected_checked"));
  ODF_HASH_ASSIGN_OR_RETURN(r.problems, problems_from(j, "problems"));
  ODF_HASH_ASSIGN_OR_RETURN(plan.unexpected, problems_from(j, "unexpected"));
  if (j.contains("unreferenced")) {  // optional: plans of version 1 written before it existed
    ODF_HASH_RETURN_IF_ERROR(
        detail::unreferenced_from_json(j.at("unreferenced"), "plan.unreferenced", r));
  }
  if (j.contains("scope")) {  // optional: plans written before verify modes existed
    ODF_HASH_ASSIGN_OR_RETURN(r.scope, detail::scope_from_json(j.at("scope"), "plan.scope"));
  }
  ODF_HASH_ASSIGN_OR_RETURN(const json* tasks, detail::json_field(j, "plan", "tasks"));
  if (!tasks->is_array()) return Status::parse_error("plan.tasks: expected a list");
  for (size_t i = 0; i < tasks->size(); ++i) {
    const std::string where = "plan.tasks[" + std::to_string(i) + "]";
    ODF_HASH_ASSIGN_OR_RETURN(FileTask t, task_from_json((*tasks)[i], where));
    if (t.id != i) {
      return Status::parse_error(where + ".id: " + std::to_string(t.id) +
                                 ", not its position in the plan");
    }
    plan.tasks.push_back(std::move(t));
  }
  ODF_HASH_ASSIGN_OR_RETURN(const json* sums, detail::json_field(j, "plan", "linked_summaries"));
  if (!sums->is_array()) return Status::parse_error("plan.linked_summaries: expected a list");
  for (size_t i = 0; i < sums->size(); ++i) {
    const std::string where = "plan.linked_summaries[" + std::to_string(i) + "]";
    const json& o = (*sums)[i];
    if (!o.is_object()) return Status::parse_error(where + ": expected an object");
    LinkedSummaryCheck s;
    ODF_HASH_ASSIGN_OR_RETURN(s.block, json_hash(o, where, "block"));
    ODF_HASH_ASSIGN_OR_RETURN(s.sequence_number, json_u64(o, where, "sequence_number"));
    ODF_HASH_ASSIGN_OR_RETURN(s.data_file, json_string(o, where, "data_file"));
    ODF_HASH_RETURN_IF_ERROR(check_file_key(s.data_file, FileRole::kData, where));
    ODF_HASH_ASSIGN_OR_RETURN(s.recorded.num_objects_naive,
                              json_u64(o, where, "num_objects_naive"));
    ODF_HASH_ASSIGN_OR_RETURN(s.recorded.size_naive, json_u64(o, where, "size_naive"));
    ODF_HASH_ASSIGN_OR_RETURN(s.values, json_u64(o, where, "values"));
    ODF_HASH_ASSIGN_OR_RETURN(const json* objects, detail::json_field(o, where, "objects"));
    if (!objects->is_array()) return Status::parse_error(where + ".objects: expected a list");
    for (const json& pair : *objects) {
      if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_unsigned() ||
          !pair[1].is_number_unsigned()) {
        return Status::parse_error(where + ".objects: expected [task, count] pairs");
      }
      const uint64_t task = pair[0].get<uint64_t>();
      if (task >= plan.tasks.size() || plan.tasks[task].role != FileRole::kLinkedObject) {
        return Status::parse_error(where + ".objects: task " + std::to_string(task) +
                                   " is not a linked object of the plan");
      }
      s.objects.emplace_back(task, pair[1].get<uint64_t>());
    }
    plan.linked_summaries.push_back(std::move(s));
  }
  return plan;
}

}  // namespace odf_hash::odf
