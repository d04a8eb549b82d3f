// The JSON form of verification plans, file tasks and their results (verify_plan.h), for
// sending them between processes (Python workers, a batch system). Each object carries
// "version": kVerifyPlanJsonVersion; a reader refuses any other version.
//
//   task:   {"version", "id", "dataset", "follow_symlinks", "endpoint_url", "region",
//            "no_sign_request", "connect_timeout", "read_timeout", "max_attempts",
//            "ipfs_gateway", "trust_gateway", "role" ("data" / "checkpoint" /
//            "linked-object"), "file",
//            "known_missing", "misnamed", "block", "sequence_number", "size", "physical",
//            "logical" (or null), "derivative", "integrity_only", "link" (null, or
//            {"data_file", "column", "row"} for a linked object), "deep",
//            "offset_column", "offset_start", "offset_end" (verify --deep; may be absent:
//            not deep)}
//            (the store options, endpoint_url to trust_gateway, may be absent: defaults;
//            "dataset", "endpoint_url" and "ipfs_gateway" are written without user
//            information; "misnamed", a file of the same folder holding the hash under
//            another name, may be absent)
//   result: {"version", "task", "task_digest" (task_fingerprint), "role", "file", "block",
//            "sequence_number", "outcome", "actual_physical" (or null), "logical" (or
//            null), "size" (a linked object's, or null), "problem" (or null)}
//   plan:   {"version", "path", "head" (or null), "kind" (or null), "dataset_id" (or null;
//            may be absent), "blocks",
//            "chain_complete", "unexpected_checked", "problems": [...], "tasks": [...],
//            "unexpected": [...], "linked_summaries": [{"block", "sequence_number",
//            "data_file", "num_objects_naive", "size_naive", "values", "objects":
//            [[task, count], ...]}], "unreferenced": {...} (as in verify_json.h; may be
//            absent: none, not strict)}
//   problem (in results and plans): as in verify_json.h, {"kind", "message", "block",
//            "sequence_number", "file", "expected", "actual", "link"?} (absent values are null;
//            "link" only on linked-object and link problems).
//
// The input of the parsers is untrusted (it may come over a network): anything malformed,
// of the wrong type or out of range (an unknown kind, a hash that does not parse, a task id
// that is not its position in a plan) is a kParseError naming the field, never a crash.
#pragma once

#include <string>
#include <string_view>

#include "odf_hash/core/status.h"
#include "odf_hash/odf/verify_plan.h"

namespace odf_hash::odf {

// 2: linked objects (role "linked-object", a task's "link", a result's "size", a problem's
// "link", a plan's "linked_summaries"), and results bound to their task ("task_digest").
inline constexpr int kVerifyPlanJsonVersion = 2;

// One line of JSON each.
std::string file_task_json(const FileTask& task);
std::string check_result_json(const FileCheckResult& result);
std::string verify_plan_json(const VerifyPlan& plan);

Result<FileTask> parse_file_task_json(std::string_view text);
Result<FileCheckResult> parse_check_result_json(std::string_view text);
Result<VerifyPlan> parse_verify_plan_json(std::string_view text);

}  // namespace odf_hash::odf
