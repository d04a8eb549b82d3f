// Plan / check / merge (verify_plan.h) against verify_dataset: each broken copy of an example
// dataset is verified both ways, the split one through its JSON form (as a worker process
// would receive tasks and send results) with results merged in shuffled order, and the two
// reports must be identical. verify_test.cpp proves verify_dataset's reports against
// independent expected values; verify_dataset itself runs plan + check + merge, so this test
// pins the JSON round trip and the order independence. Then the malformed inputs.
#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <random>

#include "broken_dataset.h"
#include "odf_hash/io/local_store.h"
#include "odf_hash/odf/verify_json.h"
#include "odf_hash/odf/verify_plan.h"
#include "odf_hash/odf/verify_plan_json.h"

namespace {

class PlanCheckMerge : public BrokenDataset {
 protected:
  // The report through plan -> JSON -> tasks -> JSON -> check_file(task) -> JSON -> shuffled
  // merge, as text.
  std::string split_report(bool integrity_only = false, unsigned seed = 1, bool strict = false) {
    VerifyOptions o;
    o.integrity_only = integrity_only;
    o.strict = strict;
    auto plan = plan_verify(dir_.string(), o);
    EXPECT_TRUE(plan.is_ok()) << plan.status().to_string();
    if (!plan.is_ok()) return "";
    auto sent = parse_verify_plan_json(verify_plan_json(*plan));
    EXPECT_TRUE(sent.is_ok()) << sent.status().to_string();
    if (!sent.is_ok()) return "";
    EXPECT_EQ(verify_plan_json(*sent), verify_plan_json(*plan));
    std::vector<FileCheckResult> results;
    for (const auto& t : sent->tasks) {
      auto task = parse_file_task_json(file_task_json(t));
      EXPECT_TRUE(task.is_ok()) << task.status().to_string();
      auto r = check_file(*task);
      EXPECT_TRUE(r.is_ok()) << r.status().to_string();
      auto back = parse_check_result_json(check_result_json(*r));
      EXPECT_TRUE(back.is_ok()) << back.status().to_string();
      EXPECT_EQ(check_result_json(*back), check_result_json(*r));
      results.push_back(std::move(*back));
    }
    std::mt19937 rng(seed);
    std::shuffle(results.begin(), results.end(), rng);
    auto merged = merge_checks(*sent, std::move(results));
    EXPECT_TRUE(merged.is_ok()) << merged.status().to_string();
    return merged.is_ok() ? verify_report_json(*merged) : "";
  }
  void expect_same(bool integrity_only = false) {
    const std::string local = verify_report_json(verify(integrity_only));
    for (unsigned seed : {1u, 2u, 3u}) EXPECT_EQ(split_report(integrity_only, seed), local);
  }
  void expect_same_strict() {
    const std::string local = verify_report_json(verify_strict());
    for (unsigned seed : {1u, 2u}) EXPECT_EQ(split_report(false, seed, true), local);
  }
};

TEST_F(PlanCheckMerge, PristineRoot) {
  copy_example("root");
  expect_same();
  auto plan = plan_verify(dir_.string());
  ASSERT_TRUE(plan.is_ok());
  // Every data and checkpoint file of the example: 3 data + 2 checkpoints (verify_test).
  EXPECT_EQ(plan->tasks.size(), 5u);
  for (size_t i = 0; i < plan->tasks.size(); ++i) EXPECT_EQ(plan->tasks[i].id, i);
}

// The Seed's dataset id is in the report (the generator derives it: did:odf:fed01 +
// SHA3-256("odf-hash example root"), computed here with OpenSSL); a pin's id that is not it
// is a dataset-id-mismatch problem. Both survive the plan's JSON.
TEST_F(PlanCheckMerge, DatasetIdAndThePinsIdSurviveTheSplit) {
  copy_example("root");
  const std::string seed = "odf-hash example root";
  const std::string id =
      "did:odf:fed01" + hex_string(sha3_multihash({seed.begin(), seed.end()})).substr(5);
  const std::string other = "did:odf:fed01" + std::string(64, 'c');
  VerifyOptions o;
  o.expect_dataset_id = other;
  auto plan = plan_verify(dir_.string(), o);
  ASSERT_TRUE(plan.is_ok()) << plan.status().to_string();
  auto sent = parse_verify_plan_json(verify_plan_json(*plan));
  ASSERT_TRUE(sent.is_ok()) << sent.status().to_string();
  EXPECT_EQ(sent->report.dataset_id, id);
  EXPECT_EQ(sent->report.scope.expected_dataset_id, other);
  ASSERT_EQ(sent->report.problems.size(), 1u);
  EXPECT_EQ(sent->report.problems[0].kind, ProblemKind::kDatasetIdMismatch);
  EXPECT_EQ(sent->report.problems[0].expected, other);
  EXPECT_EQ(sent->report.problems[0].actual, id);
  auto report = nlohmann::json::parse(verify_report_json(verify_dataset(dir_.string(), o).value()));
  EXPECT_EQ(report["dataset_id"], id);
  EXPECT_EQ(report["scope"]["expected_dataset_id"], other);
  EXPECT_EQ(report["problems"][0]["kind"], "dataset-id-mismatch");
  // The right id: nothing to say. Without the Seed (--since), the scope says it was not checked.
  o.expect_dataset_id = id;
  EXPECT_TRUE(verify_dataset(dir_.string(), o)->valid());
  o.since = Multihash::parse(blocks_.back().hash).value();
  auto since = verify_dataset(dir_.string(), o);
  ASSERT_TRUE(since.is_ok());
  EXPECT_TRUE(since->valid());
  EXPECT_FALSE(since->dataset_id.has_value());
  EXPECT_TRUE(std::any_of(since->scope.skipped.begin(), since->scope.skipped.end(),
                          [](const std::string& s) { return s.starts_with("dataset id: not"); }));
}

TEST_F(PlanCheckMerge, PristineDerivative) {
  copy_example("derivative");
  expect_same();
}

TEST_F(PlanCheckMerge, BrokenFilesAndExtras) {
  copy_example("root");
  flip_middle_byte(dir_ / "data" / blocks_[3].data);
  truncate_to(dir_ / "checkpoints" / blocks_[4].checkpoint, 20);
  fs::remove(dir_ / "data" / blocks_[2].data);
  write_bytes(dir_ / "data" / "notes.txt", {'x'});
  const std::string local = verify_report_json(verify());
  EXPECT_NE(local.find("physical-hash-mismatch"), std::string::npos);
  EXPECT_NE(local.find("size-mismatch"), std::string::npos);
  EXPECT_NE(local.find("file-missing"), std::string::npos);
  EXPECT_EQ(local.find("unexpected-file"), std::string::npos);
  // The unreferenced section travels in the plan and comes out of the merge.
  const auto section = nlohmann::json::parse(local)["unreferenced"];
  EXPECT_EQ(section["count"], 1);
  EXPECT_EQ(section["bytes"], 1);
  EXPECT_EQ(section["strict"], false);
  EXPECT_EQ(section["entries"][0]["file"], "data/notes.txt");
  expect_same();
  EXPECT_NE(verify_report_json(verify_strict()).find("unexpected-file"), std::string::npos);
  expect_same_strict();
}

// A data file present only under a non-canonical name: the task knows it is missing and
// names the other file (through the task's JSON), which is unreferenced.
TEST_F(PlanCheckMerge, MisnamedDataFile) {
  copy_example("root");
  const std::string upper = "F" + [&] {
    std::string h = blocks_[3].data.substr(1);
    for (auto& c : h) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return h;
  }();
  fs::rename(dir_ / "data" / blocks_[3].data, dir_ / "data" / upper);
  auto plan = plan_verify(dir_.string());
  ASSERT_TRUE(plan.is_ok());
  const FileTask* task = nullptr;
  for (const auto& t : plan->tasks) {
    if (t.file == "data/" + blocks_[3].data) task = &t;
  }
  ASSERT_NE(task, nullptr);
  EXPECT_TRUE(task->known_missing);
  EXPECT_EQ(task->misnamed, "data/" + upper);
  auto back = parse_file_task_json(file_task_json(*task));
  ASSERT_TRUE(back.is_ok()) << back.status().to_string();
  EXPECT_EQ(back->misnamed, "data/" + upper);
  expect_same();
}

TEST_F(PlanCheckMerge, BrokenChain) {
  copy_example("root");
  fs::remove(dir_ / "blocks" / blocks_[1].hash);
  expect_same();
}

TEST_F(PlanCheckMerge, DerivativeFallbackAndIntegrityOnly) {
  auto fixtures = nlohmann::json::parse(read_bytes(kFixtures / "fixtures.json"));
  if (fixtures.value("placeholder_logical_hashes", true)) {
    GTEST_SKIP() << "example datasets carry placeholder logical hashes";
  }
  copy_example("derivative");
  fs::copy_file(kFixtures / "derivative-slice0-reencoded.parquet", dir_ / "data" / blocks_[2].data,
                fs::copy_options::overwrite_existing);
  const std::string local = verify_report_json(verify());
  EXPECT_NE(local.find("logical-match"), std::string::npos);
  expect_same();
  expect_same(/*integrity_only=*/true);
}

// --- merge refuses results that do not fit the plan ----------------------------------------

class MergeErrors : public BrokenDataset {
 protected:
  void SetUp() override {
    copy_example("root");
    auto plan = plan_verify(dir_.string());
    ASSERT_TRUE(plan.is_ok());
    plan_ = std::move(*plan);
    auto store = open_local_folder(dir_.string());
    ASSERT_TRUE(store.is_ok());
    for (const auto& t : plan_.tasks) results_.push_back(check_file(**store, t));
  }
  std::string merge_error(std::vector<FileCheckResult> results) {
    auto r = merge_checks(plan_, std::move(results));
    EXPECT_FALSE(r.is_ok());
    if (r.is_ok()) return "";
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    return r.status().message();
  }
  VerifyPlan plan_;
  std::vector<FileCheckResult> results_;
};

TEST_F(MergeErrors, AllResultsMerge) {
  EXPECT_TRUE(merge_checks(plan_, results_).is_ok());
}

// A linked object task (RFC-017) and the AddData linkedObjects summaries merge_checks
// compares with the objects' sizes: numObjectsNaive against the link values found, sizeNaive
// against the sizes, one per value. The object is named by OpenSSL's SHA3-256 of its bytes.
TEST_F(MergeErrors, LinkedObjectSummaries) {
  const std::string bytes = "linked!";
  unsigned char digest[32];
  unsigned int len = 0;
  ASSERT_EQ(EVP_Digest(bytes.data(), bytes.size(), digest, &len, EVP_sha3_256(), nullptr), 1);
  std::string name = "f1620";
  for (unsigned char c : digest) {
    static const char* hex = "0123456789abcdef";
    name += hex[c >> 4];
    name += hex[c & 15];
  }
  {
    std::ofstream out(dir_ / "data" / name, std::ios::binary);
    out << bytes;
  }
  auto hash = Multihash::parse(name);
  ASSERT_TRUE(hash.is_ok());
  VerifyPlan plan = plan_;
  FileTask t = plan.tasks[0];
  t.id = plan.tasks.size();
  t.role = FileRole::kLinkedObject;
  t.file = "data/" + name;
  t.size = 0;
  t.physical = *hash;
  t.logical.reset();
  t.link = LinkRef{plan.tasks[0].file, "content_hash", 1};
  plan.tasks.push_back(t);
  auto summary = [&](uint64_t num, uint64_t size, uint64_t values) {
    LinkedSummaryCheck s;
    s.block = t.block;
    s.sequence_number = t.sequence_number;
    s.data_file = plan.tasks[0].file;
    s.recorded = LinkedObjectsSummary{num, size};
    s.values = values;
    s.objects = {{t.id, values}};
    return s;
  };
  plan.linked_summaries = {summary(2, 14, 2), summary(3, 21, 2), summary(2, 15, 2)};
  auto sent = parse_verify_plan_json(verify_plan_json(plan));
  ASSERT_TRUE(sent.is_ok()) << sent.status().to_string();
  auto store = open_local_folder(dir_.string());
  ASSERT_TRUE(store.is_ok());
  auto results = results_;
  results.push_back(check_file(**store, t));
  EXPECT_EQ(results.back().check.outcome, FileOutcome::kPhysicalMatch);
  EXPECT_EQ(results.back().check.size, std::optional<uint64_t>(bytes.size()));
  auto report = merge_checks(*sent, results);
  ASSERT_TRUE(report.is_ok()) << report.status().to_string();
  EXPECT_EQ(report->linked_objects(), 1u);
  EXPECT_EQ(report->linked_objects_matched(), 1u);
  ASSERT_EQ(report->problems.size(), 2u);
  EXPECT_EQ(report->problems[0].kind, ProblemKind::kLinkedObjectsSummaryMismatch);
  // Counts and sizes are numbers with a unit, through the results' JSON too.
  EXPECT_EQ(report->problems[0].expected.as_number(), std::optional<uint64_t>(3));
  EXPECT_EQ(report->problems[0].actual.as_number(), std::optional<uint64_t>(2));
  EXPECT_EQ(report->problems[0].unit, ProblemUnit::kLinkValues);
  EXPECT_EQ(report->problems[0].expected.to_string(report->problems[0].unit), "3 link values");
  EXPECT_EQ(report->problems[1].expected.as_number(), std::optional<uint64_t>(15));
  EXPECT_EQ(report->problems[1].actual.as_number(), std::optional<uint64_t>(14));
  EXPECT_EQ(report->problems[1].unit, ProblemUnit::kBytes);
  EXPECT_EQ(report->problems[1].file, plan.tasks[0].file);

  // The object changed: a hash mismatch naming its link, and no size to compare.
  {
    std::ofstream out(dir_ / "data" / name, std::ios::binary);
    out << "LINKED!";
  }
  results.back() = check_file(**store, t);
  ASSERT_TRUE(results.back().problem.has_value());
  EXPECT_EQ(results.back().problem->kind, ProblemKind::kLinkedObjectHashMismatch);
  ASSERT_TRUE(results.back().problem->link.has_value());
  EXPECT_EQ(results.back().problem->link->row, 1u);
  report = merge_checks(*sent, results);
  ASSERT_TRUE(report.is_ok());
  ASSERT_EQ(report->problems.size(), 2u);  // the hash mismatch, the count mismatch
  EXPECT_EQ(report->problems[0].kind, ProblemKind::kLinkedObjectHashMismatch);
  EXPECT_EQ(report->problems[1].expected.as_number(), std::optional<uint64_t>(3));
}

TEST_F(MergeErrors, MissingResult) {
  auto results = results_;
  results.erase(results.begin() + 2);
  EXPECT_EQ(merge_error(results), "merge: no result for task 2 (" + plan_.tasks[2].file + ")");
}

TEST_F(MergeErrors, DuplicatedResult) {
  auto results = results_;
  results.push_back(results_[1]);
  EXPECT_EQ(merge_error(results), "merge: two results for task 1 (" + plan_.tasks[1].file + ")");
}

TEST_F(MergeErrors, UnknownTask) {
  auto results = results_;
  results.back().task = 99;
  EXPECT_EQ(merge_error(results), "merge: a result names task 99, but the plan has 5 tasks");
}

TEST_F(MergeErrors, ResultOfAnotherTask) {
  auto results = results_;
  std::swap(results[0].task, results[1].task);
  EXPECT_NE(merge_error(results).find("a result of another plan"), std::string::npos);
}

// Issue 23: merge(plan(bad_copy), [check(t) for t in plan(good_copy)]) was VALID. Each result
// is bound to its task by task_digest: the results of another dataset's plan, or results whose
// task recorded another size or hash, are refused naming the task.
TEST_F(MergeErrors, ResultsOfAnotherDatasetAreRefused) {
  const fs::path bad = dir_.string() + "_bad_copy";
  fs::remove_all(bad);
  fs::copy(dir_, bad, fs::copy_options::recursive);
  for (const auto& f : fs::directory_iterator(bad / "data")) {
    std::ofstream(f.path(), std::ios::binary) << "changed";
    break;
  }
  auto bad_plan = plan_verify(bad.string());
  ASSERT_TRUE(bad_plan.is_ok());
  ASSERT_EQ(bad_plan->tasks.size(), plan_.tasks.size());
  auto r = merge_checks(*bad_plan, results_);
  fs::remove_all(bad);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("was computed against another task"), std::string::npos)
      << r.status().message();
  // Same dataset, but the task recorded another size or hash than the result was checked
  // against.
  for (int field = 0; field < 3; ++field) {
    VerifyPlan changed = plan_;
    if (field == 0) changed.tasks[1].size += 1;
    if (field == 1) changed.tasks[1].physical = changed.tasks[0].physical;
    if (field == 2) changed.tasks[1].dataset += "/";
    auto m = merge_checks(changed, results_);
    ASSERT_FALSE(m.is_ok()) << field;
    EXPECT_NE(m.status().message().find("task 1 (" + plan_.tasks[1].file + ")"), std::string::npos)
        << m.status().message();
  }
  // A result that lost its binding (an older worker) is refused too.
  auto results = results_;
  results[2].task_digest.clear();
  EXPECT_NE(merge_error(results).find("was computed against another task"), std::string::npos);
}

TEST_F(MergeErrors, FailedWithoutProblem) {
  auto results = results_;
  results[0].check.outcome = FileOutcome::kFailed;
  EXPECT_NE(merge_error(results).find("must hold a problem exactly when it failed"),
            std::string::npos);
}

// --- untrusted JSON: a clear error naming the field, never a crash -------------------------

TEST_F(MergeErrors, MalformedTasks) {
  const nlohmann::json good = nlohmann::json::parse(file_task_json(plan_.tasks[0]));
  ASSERT_TRUE(parse_file_task_json(good.dump()).is_ok());
  auto error_of = [](const std::string& text) {
    auto t = parse_file_task_json(text);
    EXPECT_FALSE(t.is_ok()) << text;
    if (!t.is_ok()) {
      EXPECT_EQ(t.status().code(), StatusCode::kParseError);
    }
    return t.is_ok() ? std::string() : t.status().message();
  };
  auto with = [&](const char* key, nlohmann::json value) {
    nlohmann::json j = good;
    j[key] = std::move(value);
    return error_of(j.dump());
  };
  EXPECT_EQ(error_of("{"), "task: not valid JSON");
  EXPECT_EQ(error_of("[1, 2]"), "task: expected a JSON object");
  EXPECT_EQ(error_of(""), "task: not valid JSON");
  EXPECT_EQ(with("version", 3), "task: version 3 is not supported (this odf-hash reads version 2)");
  EXPECT_EQ(with("version", 1), "task: version 1 is not supported (this odf-hash reads version 2)");
  EXPECT_EQ(with("version", "1"), "task.version: expected an unsigned integer");
  nlohmann::json no_size = good;
  no_size.erase("size");
  EXPECT_EQ(error_of(no_size.dump()), "task.size: missing");
  EXPECT_EQ(with("size", -1), "task.size: expected an unsigned integer");
  EXPECT_EQ(with("size", 1.5), "task.size: expected an unsigned integer");
  EXPECT_EQ(with("role", "block"),
            "task.role: expected \"data\", \"checkpoint\" or \"linked-object\", not \"block\"");
  // A linked object's task names its first reference, and only a linked object's does.
  EXPECT_EQ(with("link", nlohmann::json{{"data_file", "data/x"}, {"column", "c"}, {"row", 0}}),
            "task.link: given exactly for a linked object");
  EXPECT_EQ(with("role", "linked-object"), "task.link: given exactly for a linked object");
  EXPECT_EQ(with("link", 3), "task.link: expected an object or null");
  EXPECT_NE(with("physical", "f1620zz").find("task.physical: "), std::string::npos);
  EXPECT_EQ(with("known_missing", 0), "task.known_missing: expected true or false");
  EXPECT_EQ(with("dataset", ""), "task.dataset: empty");
  for (const char* bad : {"refs/head", "data/../refs/head", "data/", "data/a/b", "/data/x",
                          "checkpoints/x", "blocks/x"}) {
    EXPECT_NE(with("file", bad).find("is not a file of the data/ folder"), std::string::npos)
        << bad;
  }
  EXPECT_NE(with("logical", nullptr).find("task.logical: "), std::string::npos);
  // "misnamed" names a file of the task's folder, and only for a known missing file.
  EXPECT_NE(with("misnamed", "blocks/x").find("is not a file of the data/ folder"),
            std::string::npos);
  EXPECT_EQ(with("misnamed", "data/x"), "task.misnamed: given only for a known missing file");
  nlohmann::json old = good;
  old.erase("misnamed");  // tasks written before it existed
  EXPECT_TRUE(parse_file_task_json(old.dump()).is_ok());
}

TEST_F(MergeErrors, MalformedResultsAndPlans) {
  const nlohmann::json good = nlohmann::json::parse(check_result_json(results_[0]));
  ASSERT_TRUE(parse_check_result_json(good.dump()).is_ok());
  auto result_error = [&](const char* key, nlohmann::json value) {
    nlohmann::json j = good;
    j[key] = std::move(value);
    auto r = parse_check_result_json(j.dump());
    EXPECT_FALSE(r.is_ok()) << j.dump();
    return r.is_ok() ? std::string() : r.status().message();
  };
  EXPECT_EQ(result_error("outcome", "fine"), "result.outcome: unknown outcome \"fine\"");
  EXPECT_EQ(result_error("outcome", "failed"),
            "result.problem: given exactly when the outcome is failed");
  EXPECT_EQ(result_error("problem", nlohmann::json{{"kind", "bad-kind"}}),
            "result.problem.kind: unknown problem kind \"bad-kind\"");
  EXPECT_EQ(result_error("task", nullptr), "result.task: expected an unsigned integer");
  // A problem's values: a number, a text or null; a unit among the known ones.
  nlohmann::json failed = good;
  failed["outcome"] = "failed";
  failed["problem"] = {
      {"kind", "size-mismatch"}, {"message", "m"}, {"block", nullptr}, {"sequence_number", nullptr},
      {"file", nullptr},         {"expected", 15}, {"actual", "x"},    {"unit", "bytes"}};
  auto parsed = parse_check_result_json(failed.dump());
  ASSERT_TRUE(parsed.is_ok()) << parsed.status().to_string();
  EXPECT_EQ(parsed->problem->expected.as_number(), std::optional<uint64_t>(15));
  EXPECT_EQ(parsed->problem->actual.text(), "x");
  EXPECT_EQ(parsed->problem->unit, ProblemUnit::kBytes);
  auto problem_error = [&](const char* key, nlohmann::json value) {
    nlohmann::json j = failed;
    j["problem"][key] = std::move(value);
    auto r = parse_check_result_json(j.dump());
    EXPECT_FALSE(r.is_ok()) << j.dump();
    return r.is_ok() ? std::string() : r.status().message();
  };
  EXPECT_EQ(problem_error("expected", -1),
            "result.problem.expected: expected a string, a non-negative integer or null");
  EXPECT_EQ(problem_error("actual", 1.5),
            "result.problem.actual: expected a string, a non-negative integer or null");
  EXPECT_EQ(problem_error("unit", "miles"), "result.problem.unit: unknown unit \"miles\"");

  nlohmann::json plan = nlohmann::json::parse(verify_plan_json(plan_));
  ASSERT_TRUE(parse_verify_plan_json(plan.dump()).is_ok());
  nlohmann::json reordered = plan;
  std::swap(reordered["tasks"][0], reordered["tasks"][1]);
  auto p = parse_verify_plan_json(reordered.dump());
  ASSERT_FALSE(p.is_ok());
  EXPECT_EQ(p.status().message(), "plan.tasks[0].id: 1, not its position in the plan");
  nlohmann::json bad_problem = plan;
  bad_problem["unexpected"] = nlohmann::json::array({nlohmann::json{{"kind", 3}}});
  p = parse_verify_plan_json(bad_problem.dump());
  ASSERT_FALSE(p.is_ok());
  EXPECT_EQ(p.status().message(), "plan.unexpected[0].kind: expected a string");
  // The unreferenced section is checked field by field, and its count and bytes must add up.
  nlohmann::json with_entry = plan;
  with_entry["unreferenced"] = {{"count", 1},
                                {"bytes", 5},
                                {"strict", false},
                                {"entries",
                                 {{{"file", "data/x"},
                                   {"kind", "file"},
                                   {"size", 5},
                                   {"link_target", nullptr},
                                   {"broken_link", false},
                                   {"canonical_name", nullptr}}}}};
  p = parse_verify_plan_json(with_entry.dump());
  ASSERT_TRUE(p.is_ok()) << p.status().to_string();
  ASSERT_EQ(p->report.unreferenced.size(), 1u);
  EXPECT_EQ(p->report.unreferenced[0].size, 5u);
  auto section_error = [&](const char* key, nlohmann::json value) {
    nlohmann::json j = with_entry;
    j["unreferenced"]["entries"][0][key] = std::move(value);
    auto q = parse_verify_plan_json(j.dump());
    EXPECT_FALSE(q.is_ok()) << j.dump();
    return q.is_ok() ? std::string() : q.status().message();
  };
  EXPECT_EQ(section_error("kind", "pipe"),
            "plan.unreferenced.entries[0].kind: unknown kind \"pipe\"");
  EXPECT_EQ(section_error("size", 6),
            "plan.unreferenced: count and bytes do not add up to its entries");
  EXPECT_EQ(section_error("file", "../x"),
            "plan.unreferenced.entries[0].file: \"../x\" is not a key");
  // Written before the section existed (version 1): none, not strict.
  nlohmann::json old = plan;
  old.erase("unreferenced");
  p = parse_verify_plan_json(old.dump());
  ASSERT_TRUE(p.is_ok()) << p.status().to_string();
  EXPECT_TRUE(p->report.unreferenced.empty());
  EXPECT_FALSE(p->report.strict);
  // The scope's "ipfs": absent or null (a plan of another store, or written before it) is
  // none; an object round-trips; anything else is refused.
  EXPECT_EQ(plan["scope"]["ipfs"], nullptr);
  nlohmann::json ipfs = plan;
  ipfs["scope"]["ipfs"] = {{"gateway", "http://127.0.0.1:8080"}, {"verified", false}};
  p = parse_verify_plan_json(ipfs.dump());
  ASSERT_TRUE(p.is_ok()) << p.status().to_string();
  EXPECT_EQ(p->report.scope.ipfs_gateway, "http://127.0.0.1:8080");
  EXPECT_FALSE(p->report.scope.ipfs_verified);
  EXPECT_EQ(nlohmann::json::parse(verify_plan_json(*p))["scope"]["ipfs"], ipfs["scope"]["ipfs"]);
  ipfs["scope"]["ipfs"]["verified"] = "yes";
  EXPECT_FALSE(parse_verify_plan_json(ipfs.dump()).is_ok());
  ipfs["scope"].erase("ipfs");
  EXPECT_TRUE(parse_verify_plan_json(ipfs.dump()).is_ok());
  // Deep nesting is refused as any other malformed input, without exhausting the stack.
  p = parse_verify_plan_json(std::string(100000, '[') + std::string(100000, ']'));
  ASSERT_FALSE(p.is_ok());
}

// A task carries the store options it was planned with (a worker opens the dataset as the
// planner did) and never the user information of a URL; absent options mean the defaults.
TEST_F(MergeErrors, TaskStoreOptionsAndNoCredentials) {
  FileTask t = plan_.tasks[0];
  t.dataset = "https://reader:s3cr3t@127.0.0.1:1/ds";
  t.store.endpoint_url = "http://127.0.0.1:9000";
  t.store.region = "eu-west-1";
  t.store.no_sign_request = true;
  t.store.connect_timeout_s = 2.5;
  t.store.read_timeout_s = 7;
  t.store.max_attempts = 2;
  t.store.follow_symlinks = true;
  t.store.ipfs_gateway = "http://gw:pa55@127.0.0.1:8080";
  t.store.trust_gateway = true;
  const std::string text = file_task_json(t);
  EXPECT_EQ(text.find("s3cr3t"), std::string::npos) << text;
  EXPECT_EQ(text.find("reader"), std::string::npos) << text;
  EXPECT_EQ(text.find("pa55"), std::string::npos) << text;
  auto back = parse_file_task_json(text);
  ASSERT_TRUE(back.is_ok()) << back.status().to_string();
  EXPECT_EQ(back->dataset, "https://***@127.0.0.1:1/ds");
  EXPECT_EQ(back->store.endpoint_url, "http://127.0.0.1:9000");
  EXPECT_EQ(back->store.region, "eu-west-1");
  EXPECT_TRUE(back->store.no_sign_request);
  EXPECT_EQ(back->store.connect_timeout_s, 2.5);
  EXPECT_EQ(back->store.read_timeout_s, 7);
  EXPECT_EQ(back->store.max_attempts, 2u);
  EXPECT_TRUE(back->store.follow_symlinks);
  EXPECT_EQ(back->store.ipfs_gateway, "http://***@127.0.0.1:8080");
  EXPECT_TRUE(back->store.trust_gateway);

  nlohmann::json j = nlohmann::json::parse(file_task_json(plan_.tasks[0]));
  for (const char* key : {"endpoint_url", "region", "no_sign_request", "connect_timeout",
                          "read_timeout", "max_attempts", "ipfs_gateway", "trust_gateway"}) {
    j.erase(key);
  }
  auto defaults = parse_file_task_json(j.dump());
  ASSERT_TRUE(defaults.is_ok()) << defaults.status().to_string();
  const StoreOptions d;
  EXPECT_EQ(defaults->store.max_attempts, d.max_attempts);
  EXPECT_EQ(defaults->store.read_timeout_s, d.read_timeout_s);
  EXPECT_TRUE(defaults->store.endpoint_url.empty());
  EXPECT_TRUE(defaults->store.ipfs_gateway.empty());
  EXPECT_FALSE(defaults->store.trust_gateway);

  auto error_of = [&](const char* key, nlohmann::json value) {
    nlohmann::json bad = nlohmann::json::parse(text);
    bad[key] = std::move(value);
    auto r = parse_file_task_json(bad.dump());
    EXPECT_FALSE(r.is_ok()) << bad.dump();
    return r.is_ok() ? std::string() : r.status().message();
  };
  EXPECT_EQ(error_of("max_attempts", 0), "task.max_attempts: expected 1 to 20");
  EXPECT_EQ(error_of("max_attempts", "4"), "task.max_attempts: expected an unsigned integer");
  EXPECT_EQ(error_of("read_timeout", 0), "task.read_timeout: expected seconds from 0.1 to 3600");
  EXPECT_EQ(error_of("connect_timeout", "1"),
            "task.connect_timeout: expected seconds from 0.1 to 3600");
  EXPECT_EQ(error_of("region", 1), "task.region: expected a string");
  EXPECT_EQ(error_of("no_sign_request", "yes"), "task.no_sign_request: expected true or false");
  EXPECT_EQ(error_of("trust_gateway", 1), "task.trust_gateway: expected true or false");
}

TEST_F(MergeErrors, TaskOfAVanishedDataset) {
  FileTask t = plan_.tasks[0];
  fs::remove_all(dir_);
  auto r = check_file(t);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find(dir_.string()), std::string::npos);
}

}  // namespace

// Issue 23: a forged task must not steer a worker. Under a policy, a task naming another
// dataset, an endpoint or gateway not allowed, or asking to follow links is refused before
// anything is opened; the allowed task runs as without a policy.
TEST_F(MergeErrors, TaskPolicyRefusesWhatTheWorkerDoesNotAllow) {
  TaskPolicy policy;
  policy.datasets = {dir_.string() + "/"};
  const FileTask& good = plan_.tasks[0];
  auto ran = check_file(good, policy);
  ASSERT_TRUE(ran.is_ok()) << ran.status().to_string();
  EXPECT_EQ(ran->task_digest, results_[0].task_digest);
  EXPECT_EQ(ran->check.outcome, results_[0].check.outcome);

  auto refused = [&](const FileTask& t, const std::string& what) {
    auto r = check_file(t, policy);
    ASSERT_FALSE(r.is_ok()) << what;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find(what), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find("task 0 (" + good.file + ")"), std::string::npos);
  };
  FileTask t = good;
  t.dataset = "/etc";
  refused(t, "names the dataset \"/etc\", which this worker is not allowed to read");
  t = good;
  t.store.endpoint_url = "http://127.0.0.1:1";
  refused(t, "names the S3 endpoint \"http://127.0.0.1:1\", which this worker is not allowed");
  t = good;
  t.store.ipfs_gateway = "http://127.0.0.1:2";
  refused(t, "names the IPFS gateway \"http://127.0.0.1:2\"");
  t = good;
  t.store.follow_symlinks = true;
  refused(t, "asks to follow symbolic links leaving its dataset");

  // What the policy names is allowed; an empty list of datasets allows any.
  policy.endpoints = {"http://127.0.0.1:1/"};
  policy.follow_symlinks = true;
  t = good;
  t.store.endpoint_url = "http://127.0.0.1:1";
  t.store.follow_symlinks = true;
  EXPECT_TRUE(check_task_allowed(t, policy).is_ok());
  policy.datasets.clear();
  t.dataset = "/anywhere";
  EXPECT_TRUE(check_task_allowed(t, policy).is_ok());
}
