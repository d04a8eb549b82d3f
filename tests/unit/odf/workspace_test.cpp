// kamu workspaces and folders that are not datasets (workspace.h), on folders laid out as
// kamu lays them out (.kamu/datasets/<dataset id>/ with info/alias) from the example
// datasets. tests/cli/test_verify_kamu.py checks the same on workspaces kamu itself wrote.
#include <sys/stat.h>

#include <string>
#include <vector>

#include "broken_dataset.h"
#include "odf_hash/odf/workspace.h"

namespace {

class Workspaces : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) /
            ("odf_workspace_" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    datasets_ = root_ / ".kamu" / "datasets";
    fs::create_directories(datasets_);
    fs::copy(kSource / "examples/datasets/root", datasets_ / "fed01aaa",
             fs::copy_options::recursive);
    fs::create_directories(datasets_ / "fed01aaa" / "info");
    std::ofstream(datasets_ / "fed01aaa" / "info" / "alias") << "acme/root\n";
    fs::copy(kSource / "examples/datasets/derivative", datasets_ / "fed01bbb",
             fs::copy_options::recursive);  // no info/alias: named by its folder
    fs::create_directories(datasets_ / "junk" / "nested");
    std::ofstream(root_ / "notes.csv") << "a,b\n";
  }
  void TearDown() override { fs::remove_all(root_); }

  // "alias @ id", and " (not a dataset: <why>)" for an entry that is none.
  static std::vector<std::string> aliases(const Workspace& ws) {
    std::vector<std::string> out;
    for (const auto& d : ws.datasets) {
      out.push_back(d.alias + " @ " + d.id +
                    (d.not_a_dataset.empty() ? "" : " (not a dataset: " + d.not_a_dataset + ")"));
    }
    return out;
  }
  static std::string not_a_dataset(const fs::path& p) {
    auto r = verify_dataset(p.string());
    EXPECT_FALSE(r.is_ok()) << p;
    if (r.is_ok()) return "";
    EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
    return r.status().message();
  }

  fs::path root_, datasets_;
};

TEST_F(Workspaces, TheFolderHoldingDotKamu) {
  auto ws = open_workspace(root_.string());
  ASSERT_TRUE(ws.is_ok()) << ws.status().to_string();
  ASSERT_TRUE(ws->has_value());
  EXPECT_EQ(aliases(**ws),
            (std::vector<std::string>{"acme/root @ fed01aaa", "fed01bbb @ fed01bbb",
                                      "junk @ junk (not a dataset: a folder with neither refs/ nor "
                                      "blocks/ (\"nested\"): a dataset whose chain was deleted, or "
                                      "something else)"}));
  EXPECT_EQ((*ws)->datasets[0].location, root_.string() + "/.kamu/datasets/fed01aaa");
  auto r = verify_dataset((*ws)->datasets[0].location);
  ASSERT_TRUE(r.is_ok());
  EXPECT_TRUE(r->valid());
}

TEST_F(Workspaces, DotKamuAndItsDatasetsFolder) {
  for (const fs::path& p : {root_ / ".kamu", datasets_}) {
    auto ws = open_workspace(p.string() + "/");
    ASSERT_TRUE(ws.is_ok()) << ws.status().to_string();
    ASSERT_TRUE(ws->has_value()) << p;
    ASSERT_EQ((*ws)->datasets.size(), 3u);
    EXPECT_EQ(aliases(**ws)[0], "acme/root @ fed01aaa");
  }
}

// Issue 33: every entry of .kamu/datasets is accounted for. An entry whose refs/ and blocks/
// were deleted (its alias still read), a file, a FIFO, a link leaving the workspace and one
// leading nowhere each make a not-a-dataset report; a link staying inside is a dataset.
TEST_F(Workspaces, EveryEntryIsADatasetOrAProblem) {
  fs::remove_all(datasets_ / "fed01aaa" / "refs");
  fs::remove_all(datasets_ / "fed01aaa" / "blocks");
  fs::remove_all(datasets_ / "junk");
  std::ofstream(datasets_ / "a-file") << "x";
  ASSERT_EQ(::mkfifo((datasets_ / "a-fifo").c_str(), 0600), 0);
  fs::copy(kSource / "examples/datasets/root", root_ / "outside", fs::copy_options::recursive);
  fs::create_directory_symlink(root_ / "outside", datasets_ / "leaves");
  fs::create_directory_symlink("fed01bbb", datasets_ / "stays");
  fs::create_symlink("nowhere", datasets_ / "dangling");
  auto ws = open_workspace(root_.string());
  ASSERT_TRUE(ws.is_ok()) << ws.status().to_string();
  ASSERT_TRUE(ws->has_value());
  EXPECT_EQ(aliases(**ws),
            (std::vector<std::string>{
                "a-fifo @ a-fifo (not a dataset: a FIFO (named pipe), not a dataset folder)",
                "a-file @ a-file (not a dataset: a regular file, not a dataset folder)",
                "acme/root @ fed01aaa (not a dataset: a folder with neither refs/ nor blocks/ "
                "(\"checkpoints\", \"data\", \"info\"): a dataset whose chain was deleted, or "
                "something else)",
                "dangling @ dangling (not a dataset: a symbolic link leading nowhere)",
                "fed01bbb @ fed01bbb",
                "leaves @ leaves (not a dataset: a symbolic link leaving the workspace (to \"" +
                    (root_ / "outside").string() +
                    "\"), not followed (odf-hash verify --follow-symlinks follows it))",
                "stays @ stays"}));
  for (const auto& d : (*ws)->datasets) {
    if (d.not_a_dataset.empty()) continue;
    DatasetReport r = not_a_dataset_report(d);
    EXPECT_FALSE(r.valid());
    ASSERT_EQ(r.problems.size(), 1u);
    EXPECT_EQ(r.problems[0].kind, ProblemKind::kNotADataset);
    EXPECT_EQ(r.verdict(), "INVALID (1 problem)");
  }
  // --follow-symlinks: the link leaving the workspace is followed, a dataset.
  StoreOptions follow;
  follow.follow_symlinks = true;
  ws = open_workspace(root_.string(), follow);
  ASSERT_TRUE(ws.is_ok());
  EXPECT_EQ(aliases(**ws).at(5), "leaves @ leaves");
}

TEST_F(Workspaces, SelectionByAliasOrIdAndAmbiguousAliases) {
  fs::copy(kSource / "examples/datasets/root", datasets_ / "fed01ccc", fs::copy_options::recursive);
  fs::create_directories(datasets_ / "fed01ccc" / "info");
  std::ofstream(datasets_ / "fed01ccc" / "info" / "alias") << "acme/root";
  auto ws = open_workspace(root_.string());
  ASSERT_TRUE(ws.is_ok() && ws->has_value());
  const Workspace& w = **ws;
  auto ids = [](const WorkspaceSelection& s) {
    std::vector<std::string> out;
    for (const auto* d : s.chosen) out.push_back(d->id);
    return out;
  };
  EXPECT_EQ(ids(select_datasets(w, {}, "ws")),
            (std::vector<std::string>{"fed01aaa", "fed01ccc", "fed01bbb", "junk"}));
  WorkspaceSelection s = select_datasets(w, {"fed01bbb", "junk", "fed01ccc"}, "ws");
  EXPECT_TRUE(s.errors.empty());
  EXPECT_EQ(ids(s), (std::vector<std::string>{"fed01ccc", "fed01bbb", "junk"}));
  s = select_datasets(w, {"acme/root", "nope"}, "ws");
  EXPECT_TRUE(s.chosen.empty());
  ASSERT_EQ(s.errors.size(), 2u);
  EXPECT_EQ(s.errors[0].code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.errors[0].message(),
            "ws: the alias \"acme/root\" names 2 datasets (ids fed01aaa, fed01ccc): give the "
            "dataset id with --dataset (Python: datasets=)");
  EXPECT_EQ(s.errors[1].code(), StatusCode::kNotFound);
  EXPECT_EQ(s.errors[1].message(),
            "ws: the workspace has no dataset aliased \"nope\" (aliases: acme/root, acme/root, "
            "fed01bbb, junk)");
}

TEST_F(Workspaces, ADatasetIsNoWorkspace) {
  auto ws = open_workspace((datasets_ / "fed01aaa").string());
  ASSERT_TRUE(ws.is_ok());
  EXPECT_FALSE(ws->has_value());
}

// A dataset stays a dataset when refs/head or the whole refs/ folder is gone: its problem is
// head-missing, never "not a dataset".
TEST_F(Workspaces, DatasetWithoutHeadIsStillADataset) {
  const fs::path ds = datasets_ / "fed01aaa";
  fs::remove(ds / "refs" / "head");
  auto r = verify_dataset(ds.string());
  ASSERT_TRUE(r.is_ok()) << r.status().to_string();
  ASSERT_EQ(r->problems.size(), 1u);
  EXPECT_EQ(r->problems[0].kind, ProblemKind::kHeadMissing);
  fs::remove_all(ds / "refs");
  r = verify_dataset(ds.string());
  ASSERT_TRUE(r.is_ok()) << r.status().to_string();
  EXPECT_EQ(r->problems[0].kind, ProblemKind::kHeadMissing);
  auto ws = open_workspace(ds.string());
  ASSERT_TRUE(ws.is_ok());
  EXPECT_FALSE(ws->has_value());
}

TEST_F(Workspaces, NotADatasetSaysWhatItLooksLike) {
  const std::string head = ": not an ODF dataset (no refs/ nor blocks/): ";
  EXPECT_EQ(not_a_dataset(root_),
            root_.string() + head +
                "it is a kamu workspace: `odf-hash verify` verifies each of its datasets when "
                "given this folder (Python: odf_hash.verify_workspace); one dataset is "
                ".kamu/datasets/<dataset id>");
  EXPECT_EQ(not_a_dataset(datasets_ / "fed01aaa" / "blocks"),
            (datasets_ / "fed01aaa" / "blocks").string() + head +
                "its names are hashes: it looks like the blocks/ folder of a dataset: verify "
                "the dataset folder, its parent");
  EXPECT_EQ(not_a_dataset(datasets_ / "junk" / "nested"),
            (datasets_ / "junk" / "nested").string() + head + "the folder is empty");
  const fs::path other = root_ / "other";
  fs::create_directories(other);
  std::ofstream(other / "a.csv") << "x\n";
  EXPECT_EQ(not_a_dataset(other), other.string() + head +
                                      "it does not look like a dataset nor a kamu workspace "
                                      "(1 entry: \"a.csv\")");
  EXPECT_NE(not_a_dataset(datasets_).find("it is a folder of 2 dataset(s): `odf-hash verify`"),
            std::string::npos);
}

}  // namespace
