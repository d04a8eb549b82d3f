// The request layer of verify (api/verify.h): the rules the CLI, Python and the C ABI share,
// on folders laid out as kamu lays out a workspace, made from the example datasets. The
// fronts' own tests (tests/cli, python/tests, tests/capi) check what each renders.
#include <string>
#include <vector>

#include "broken_dataset.h"
#include "odf_hash/api/verify.h"
#include "odf_hash/core/parallel.h"

namespace {

using api::DatasetOutcome;
using api::Target;
using api::VerifyRequest;
using api::WorkspaceOutcome;

// Everything told, in order.
struct Recorder final : api::VerifyObserver {
  void dataset(const DatasetOutcome& o) override { datasets.push_back(o); }
  void workspace(const WorkspaceOutcome& w) override { workspaces.push_back(w); }
  std::vector<DatasetOutcome> datasets;
  std::vector<WorkspaceOutcome> workspaces;
};

class ApiVerify : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ =
        fs::path(::testing::TempDir()) /
        ("odf_api_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    datasets_ = root_ / ".kamu" / "datasets";
    fs::create_directories(datasets_);
    add("fed01aaa", "root", "acme/root");
    add("fed01bbb", "derivative", "acme/derived");
  }
  void TearDown() override { fs::remove_all(root_); }

  void add(const std::string& id, const std::string& example, const std::string& alias) {
    fs::copy(kSource / "examples/datasets" / example, datasets_ / id, fs::copy_options::recursive);
    fs::create_directories(datasets_ / id / "info");
    std::ofstream(datasets_ / id / "info" / "alias") << alias << "\n";
  }

  VerifyRequest request(const fs::path& location) const {
    VerifyRequest r;
    r.locations = {location.string()};
    r.jobs = 2;
    return r;
  }

  fs::path root_, datasets_;
};

TEST(ApiVerifyJobs, SixteenForAUrlEveryCoreForAFolderWhatWasAskedOtherwise) {
  EXPECT_EQ(api::verify_jobs("s3://bucket/ds", 0), api::kRemoteJobs);
  EXPECT_EQ(api::verify_jobs("https://example.org/ds", 0), api::kRemoteJobs);
  EXPECT_EQ(api::verify_jobs("/data/ds", 0), resolve_threads(0));
  EXPECT_EQ(api::verify_jobs("s3://bucket/ds", 3), 3u);
  EXPECT_EQ(api::verify_jobs("/data/ds", 5), 5u);
}

TEST_F(ApiVerify, AWorkspaceStandsForEachOfItsEntries) {
  std::ofstream(datasets_ / "stray") << "x";
  Recorder seen;
  auto r = api::verify(request(root_), seen);
  ASSERT_TRUE(r.is_ok()) << r.status().to_string();
  ASSERT_EQ(seen.datasets.size(), 3u);
  EXPECT_EQ(seen.datasets[0].name, "acme/derived");
  EXPECT_EQ(seen.datasets[1].name, "acme/root");
  EXPECT_EQ(seen.datasets[2].name, "stray");
  EXPECT_TRUE(seen.datasets[2].not_a_dataset);
  for (const auto& d : seen.datasets) {
    EXPECT_TRUE(d.in_workspace());
    ASSERT_TRUE(d.result.is_ok()) << d.result.status().to_string();
  }
  EXPECT_TRUE(seen.datasets[0].result->report.valid());
  EXPECT_FALSE(seen.datasets[2].result->report.valid());
  ASSERT_EQ(seen.workspaces.size(), 1u);
  EXPECT_EQ(seen.workspaces[0].entries, 3u);
  ASSERT_EQ(seen.workspaces[0].lines.size(), 3u);
  EXPECT_EQ(seen.workspaces[0].lines[1].verdict, "VALID");
  EXPECT_EQ(seen.workspaces[0].lines[2].verdict, "INVALID (1 problem)");
  EXPECT_TRUE(seen.workspaces[0].lines[2].not_a_dataset);
  EXPECT_FALSE(seen.workspaces[0].lines[1].not_a_dataset);
  EXPECT_EQ(r->tally.total, 3u);
  EXPECT_EQ(r->tally.valid, 2u);
  EXPECT_EQ(r->tally.invalid, 1u);
  EXPECT_EQ(r->exit_code(), 1);  // an entry that is not a dataset makes the workspace INVALID
}

TEST_F(ApiVerify, AnAliasSharedByReportedDatasetsCarriesTheId) {
  add("fed01ccc", "root", "acme/root");
  Recorder all;
  ASSERT_TRUE(api::verify(request(root_), all).is_ok());
  std::vector<std::string> names;
  for (const auto& d : all.datasets) names.push_back(d.name);
  EXPECT_EQ(names, (std::vector<std::string>{"acme/derived", "acme/root (fed01aaa)",
                                             "acme/root (fed01ccc)"}));
  // One of them picked by its id: the alias alone names it among what is reported.
  VerifyRequest one = request(root_);
  one.datasets = {"fed01ccc"};
  one.datasets_given = true;
  Recorder picked;
  auto r = api::verify(one, picked);
  ASSERT_TRUE(r.is_ok());
  ASSERT_EQ(picked.datasets.size(), 1u);
  EXPECT_EQ(picked.datasets[0].name, "acme/root");
  EXPECT_EQ(picked.workspaces.at(0).entries, 3u);
  // The alias itself names two: an error asking for the id, the others still verified.
  VerifyRequest twice = request(root_);
  twice.datasets = {"acme/root", "acme/derived"};
  twice.datasets_given = true;
  Recorder asked;
  r = api::verify(twice, asked);
  ASSERT_TRUE(r.is_ok());
  ASSERT_EQ(asked.datasets.size(), 2u);
  ASSERT_FALSE(asked.datasets[0].result.is_ok());
  EXPECT_EQ(asked.datasets[0].result.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(asked.datasets[0].result.status().message().find("names 2 datasets"),
            std::string::npos);
  EXPECT_EQ(asked.datasets[1].name, "acme/derived");
  EXPECT_EQ(r->exit_code(), 2);
  // stop_at_error (Python): the first error is the result.
  twice.stop_at_error = true;
  Recorder stopped;
  r = api::verify(twice, stopped);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(stopped.datasets.empty());
}

TEST_F(ApiVerify, AnEmptyWorkspaceIsAnErrorNotAValidResult) {
  fs::remove_all(datasets_);
  fs::create_directories(datasets_);
  Recorder seen;
  auto r = api::verify(request(root_), seen);
  ASSERT_TRUE(r.is_ok());
  ASSERT_EQ(seen.datasets.size(), 1u);
  EXPECT_FALSE(seen.datasets[0].result.is_ok());
  EXPECT_EQ(r->tally.errors, 1u);
  EXPECT_EQ(r->exit_code(), 2);
  // Nothing asked for (Python datasets=[]): nothing verified, nothing wrong.
  VerifyRequest none = request(root_);
  none.datasets_given = true;
  Recorder nothing;
  r = api::verify(none, nothing);
  ASSERT_TRUE(r.is_ok());
  EXPECT_TRUE(nothing.datasets.empty());
  EXPECT_EQ(r->exit_code(), 0);
}

TEST_F(ApiVerify, TargetsRefuseTheOtherKind) {
  VerifyRequest dataset = request(root_);
  dataset.target = Target::kDataset;
  dataset.stop_at_error = true;
  Recorder a;
  auto r = api::verify(dataset, a);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("kamu workspace"), std::string::npos) << r.status().message();

  VerifyRequest workspace = request(datasets_ / "fed01aaa");
  workspace.target = Target::kWorkspace;
  workspace.stop_at_error = true;
  workspace.spelling = odf::ArgSpelling::kKeywords;
  Recorder b;
  r = api::verify(workspace, b);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(
      r.status().message().find("not a kamu workspace (for one dataset, use odf_hash.verify)"),
      std::string::npos)
      << r.status().message();
}

TEST_F(ApiVerify, BlocksOfOneDatasetAreRefusedForSeveral) {
  auto head = verify_dataset((datasets_ / "fed01aaa").string());
  ASSERT_TRUE(head.is_ok());
  VerifyRequest two = request(datasets_ / "fed01aaa");
  two.locations.push_back((datasets_ / "fed01bbb").string());
  two.modes.expect_head = head->head->to_string();
  Recorder a;
  auto r = api::verify(two, a);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(a.datasets.empty());  // refused before anything is read

  VerifyRequest ws = request(root_);
  ws.modes.expect_head = head->head->to_string();
  Recorder b;
  r = api::verify(ws, b);
  ASSERT_TRUE(r.is_ok());
  ASSERT_EQ(b.datasets.size(), 1u);
  ASSERT_FALSE(b.datasets[0].result.is_ok());
  EXPECT_NE(b.datasets[0].result.status().message().find("--expect-head and --since"),
            std::string::npos);
  // Picked with --dataset: anchored, and valid.
  ws.datasets = {"acme/root"};
  ws.datasets_given = true;
  Recorder c;
  r = api::verify(ws, c);
  ASSERT_TRUE(r.is_ok());
  ASSERT_EQ(c.datasets.size(), 1u);
  ASSERT_TRUE(c.datasets[0].result.is_ok());
  EXPECT_TRUE(c.datasets[0].result->report.valid());
  EXPECT_TRUE(c.datasets[0].result->report.scope.expected_head_found);
  EXPECT_EQ(r->exit_code(), 0);
}

TEST_F(ApiVerify, PinsAreWrittenOnceAfterEveryDataset) {
  const fs::path pins = root_ / "pins.txt";
  VerifyRequest r = request(root_);
  r.modes.write_pins = pins.string();
  Recorder seen;
  auto result = api::verify(r, seen);
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_TRUE(result->pins_written.is_ok());
  ASSERT_EQ(result->pins.size(), 2u);
  std::ifstream in(pins);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& d : seen.datasets) {
    EXPECT_NE(text.find(d.result->report.head->to_string()), std::string::npos) << text;
  }
  // Verified against them: each dataset finds its own pin.
  VerifyRequest again = request(root_);
  again.modes.pins = pins.string();
  Recorder checked;
  auto second = api::verify(again, checked);
  ASSERT_TRUE(second.is_ok());
  for (const auto& d : checked.datasets) {
    ASSERT_TRUE(d.result.is_ok());
    EXPECT_TRUE(d.result->report.scope.expected_head_found) << d.name;
  }
  EXPECT_EQ(second->exit_code(), 0);
}

}  // namespace
