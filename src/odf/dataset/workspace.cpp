// kamu workspaces and folders that are not datasets (workspace.h).
#include "odf_hash/odf/workspace.h"

#include <algorithm>
#include <filesystem>
#include <string_view>
#include <utility>

#include "odf_hash/core/multihash.h"
#include "odf_hash/core/text.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/odf/dataset.h"
#include "odf_hash/odf/verify.h"
#include "odf_hash/remote/open_store.h"

namespace odf_hash::odf {

namespace {

// info/alias is a short name ("account/dataset"); anything longer is not read.
constexpr uint64_t kMaxAliasBytes = 1024;
// How many names a hint quotes.
constexpr size_t kQuotedNames = 3;

bool has_layout(const std::vector<ObjectEntry>& entries) {
  return std::any_of(entries.begin(), entries.end(),
                     [](const ObjectEntry& e) { return e.name == "refs" || e.name == "blocks"; });
}

// What `key` is, links resolved as the store's policy says (kSymlink: not followed).
ObjectKind kind_of(const ObjectStore& store, const std::string& key, ObjectKind listed) {
  if (listed != ObjectKind::kSymlink) return listed;
  auto info = store.stat(key);
  return info.is_ok() ? info->kind : ObjectKind::kSymlink;
}

// The error for a workspace folder (".kamu", ".kamu/datasets") that is a symbolic link the
// store does not follow (one leaving the folder given); nullopt when `key` is no such link.
std::optional<Status> unfollowed_link(const ObjectStore& store, const std::string& key,
                                      const std::string& shown) {
  auto info = store.stat(key);
  if (!info.is_ok() || info->kind != ObjectKind::kSymlink) return std::nullopt;
  return Status::invalid_argument(
      shown + ": its " + key + " is a symbolic link leaving the folder (to \"" +
      escape_untrusted(info->link_target, 160) +
      "\"), which odf-hash does not follow: give the workspace it leads to (odf-hash verify "
      "--follow-symlinks follows it)");
}

bool is_dataset_at(const ObjectStore& store, const std::string& key) {
  auto entries = store.list(key);
  return entries.is_ok() && has_layout(*entries);
}

// The last component of a path or URL ("/a/b/" -> "b"; "." -> the folder's own name).
std::string last_component(const std::string& url_or_path) {
  std::string s = url_or_path;
  if (!is_store_url(s)) {
    std::error_code ec;
    std::filesystem::path p = std::filesystem::absolute(s, ec);
    if (!ec) s = p.lexically_normal().string();
  }
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  const size_t slash = s.rfind('/');
  return slash == std::string::npos ? s : s.substr(slash + 1);
}

std::string join_location(const std::string& base, const std::string& key) {
  if (key.empty()) return base;
  std::string s = base;
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s == "/" ? s + key : s + "/" + key;
}

std::string read_alias(const ObjectStore& store, const std::string& key) {
  OpenOptions small;
  small.max_size = kMaxAliasBytes;
  auto opened = store.open(key, small);
  if (!opened.is_ok() || !opened->reader) return "";
  auto bytes = read_all(*opened->reader);
  if (!bytes.is_ok()) return "";
  std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  auto space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  return std::string(text);
}

std::string quoted_names(const std::vector<ObjectEntry>& entries);

// Why the entry `key` of the folder of datasets is not a dataset; "" when it is one.
std::string why_not_a_dataset(const ObjectStore& store, const std::string& key, ObjectKind listed) {
  ObjectKind kind = listed;
  if (kind == ObjectKind::kSymlink) {
    auto info = store.stat(key);
    if (!info.is_ok()) {
      return info.status().code() == StatusCode::kNotFound
                 ? "a symbolic link leading nowhere"
                 : "a symbolic link that cannot be followed: " + info.status().message();
    }
    if (info->kind == ObjectKind::kSymlink) {
      return "a symbolic link leaving the workspace (to \"" +
             escape_untrusted(info->link_target, 160) +
             "\"), not followed (odf-hash verify --follow-symlinks follows it)";
    }
    kind = info->kind;
  }
  if (kind != ObjectKind::kDirectory) {
    return std::string("a ") + object_kind_name(kind) + ", not a dataset folder";
  }
  auto entries = store.list(key);
  if (!entries.is_ok()) return "a folder that cannot be listed: " + entries.status().message();
  if (has_layout(*entries)) return "";
  return "a folder with neither refs/ nor blocks/ (" +
         (entries->empty() ? std::string("empty") : quoted_names(*entries)) +
         "): a dataset whose chain was deleted, or something else";
}

// Every entry below `prefix`: its datasets (subfolders holding refs/ or blocks/), and what
// is not one.
Workspace list_datasets(const ObjectStore& store, const std::string& prefix,
                        const std::vector<ObjectEntry>& entries, const std::string& base) {
  Workspace ws;
  ws.location = join_location(base, prefix);
  for (const auto& e : entries) {
    const std::string key = join_object_key(prefix, e.name);
    std::string why = why_not_a_dataset(store, key, e.kind);
    std::string alias = read_alias(store, key + "/info/alias");
    if (alias.empty()) alias = e.name;
    ws.datasets.push_back(
        WorkspaceDataset{std::move(alias), e.name, join_location(base, key), std::move(why)});
  }
  std::sort(ws.datasets.begin(), ws.datasets.end(),
            [](const WorkspaceDataset& a, const WorkspaceDataset& b) {
              return a.alias != b.alias ? a.alias < b.alias : a.id < b.id;
            });
  return ws;
}

std::string quoted_names(const std::vector<ObjectEntry>& entries) {
  std::string s;
  for (size_t i = 0; i < entries.size() && i < kQuotedNames; ++i) {
    s += (i == 0 ? "\"" : ", \"") + escape_untrusted(entries[i].name) + "\"";
  }
  if (entries.size() > kQuotedNames) s += ", ...";
  return s;
}

}  // namespace

Result<bool> is_dataset_root(const ObjectStore& store) {
  if (!store.can_list()) return true;
  ODF_HASH_ASSIGN_OR_RETURN(std::vector<ObjectEntry> entries, store.list(""));
  return has_layout(entries);
}

Result<std::optional<Workspace>> open_workspace(const std::string& url_or_path,
                                                const StoreOptions& options) {
  // Not opened twice: a node's dataset is no workspace, and opening it pulls its chain.
  if (is_smtp_url(url_or_path)) return std::optional<Workspace>();
  ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectStore> store,
                            open_dataset_store(url_or_path, options));
  if (!store->can_list()) return std::optional<Workspace>();
  ODF_HASH_ASSIGN_OR_RETURN(std::vector<ObjectEntry> root, store->list(""));
  if (has_layout(root)) return std::optional<Workspace>();
  auto named = [&](std::string_view name) {
    return std::any_of(root.begin(), root.end(), [&](const ObjectEntry& e) {
      return e.name == name && kind_of(*store, e.name, e.kind) == ObjectKind::kDirectory;
    });
  };
  const std::string shown = redact_url(url_or_path);
  for (const char* key : {".kamu", ".kamu/datasets"}) {
    if (std::optional<Status> link = unfollowed_link(*store, key, shown)) return *link;
  }
  if (last_component(url_or_path) == ".kamu") {
    if (std::optional<Status> link = unfollowed_link(*store, "datasets", shown)) return *link;
  }
  std::string prefix;
  bool kamu = false;
  if (named(".kamu")) {
    prefix = ".kamu/datasets";
    kamu = true;
  } else if (named("datasets") && last_component(url_or_path) == ".kamu") {
    prefix = "datasets";
    kamu = true;
  }
  if (kamu) {
    auto entries = store->list(prefix);
    if (!entries.is_ok()) {
      if (entries.status().code() != StatusCode::kNotFound) return entries.status();
      entries = std::vector<ObjectEntry>{};  // a workspace without datasets yet
    }
    return std::optional<Workspace>(list_datasets(*store, prefix, *entries, url_or_path));
  }
  // A folder of datasets (.kamu/datasets itself, or datasets pushed to a folder): only
  // folders, at least one a dataset.
  const bool only_folders =
      !root.empty() && std::all_of(root.begin(), root.end(), [&](const ObjectEntry& e) {
        return kind_of(*store, e.name, e.kind) == ObjectKind::kDirectory;
      });
  if (!only_folders) return std::optional<Workspace>();
  Workspace ws = list_datasets(*store, "", root, url_or_path);
  if (std::none_of(ws.datasets.begin(), ws.datasets.end(),
                   [](const WorkspaceDataset& d) { return d.not_a_dataset.empty(); })) {
    return std::optional<Workspace>();
  }
  return std::optional<Workspace>(std::move(ws));
}

DatasetReport not_a_dataset_report(const WorkspaceDataset& entry) {
  DatasetReport r;
  r.path = redact_url(entry.location);
  Problem p;
  p.kind = ProblemKind::kNotADataset;
  p.message = "the workspace's entry \"" + escape_untrusted(entry.id, 200) + "\" is " +
              entry.not_a_dataset + "; it is not verified, and the workspace is not valid";
  r.problems.push_back(std::move(p));
  r.unexpected_checked = false;
  return r;
}

WorkspaceSelection select_datasets(const Workspace& ws, const std::vector<std::string>& names,
                                   const std::string& shown) {
  WorkspaceSelection sel;
  std::vector<bool> chosen(ws.datasets.size(), names.empty());
  for (const std::string& name : names) {
    std::vector<size_t> by_id, by_alias;
    for (size_t i = 0; i < ws.datasets.size(); ++i) {
      if (ws.datasets[i].id == name) by_id.push_back(i);
      if (ws.datasets[i].alias == name) by_alias.push_back(i);
    }
    const std::vector<size_t>& found = by_id.empty() ? by_alias : by_id;
    if (found.size() == 1) {
      chosen[found[0]] = true;
      continue;
    }
    const std::string quoted = "\"" + escape_untrusted(name, 200) + "\"";
    std::string list;
    if (found.empty()) {
      for (const auto& d : ws.datasets) {
        list += (list.empty() ? "" : ", ") + escape_untrusted(d.alias, 200);
      }
      sel.errors.push_back(Status::not_found(
          shown + ": the workspace has no dataset aliased " + quoted + " (" +
          (list.empty() ? std::string("it has no dataset") : "aliases: " + list) + ")"));
      continue;
    }
    for (size_t i : found)
      list += (list.empty() ? "" : ", ") + escape_untrusted(ws.datasets[i].id, 200);
    sel.errors.push_back(Status::invalid_argument(
        shown + ": the alias " + quoted + " names " + std::to_string(found.size()) +
        " datasets (ids " + list + "): give the dataset id with --dataset (Python: datasets=)"));
  }
  for (size_t i = 0; i < ws.datasets.size(); ++i) {
    if (chosen[i]) sel.chosen.push_back(&ws.datasets[i]);
  }
  return sel;
}

Status not_a_dataset_status(const ObjectStore& store, const std::string& shown) {
  std::string head = shown + ": not an ODF dataset (no refs/ nor blocks/): ";
  auto listed = store.list("");
  if (!listed.is_ok()) return Status::not_found(head + "it cannot be listed");
  const std::vector<ObjectEntry>& entries = *listed;
  if (entries.empty()) return Status::not_found(head + "the folder is empty");
  const std::string name = last_component(shown);
  auto has = [&](std::string_view n) {
    return std::any_of(entries.begin(), entries.end(),
                       [&](const ObjectEntry& e) { return e.name == n; });
  };
  const std::string workspace_hint =
      "`odf-hash verify` verifies each of its datasets when given this folder (Python: "
      "odf_hash.verify_workspace)";
  // A workspace whose .kamu (or .kamu/datasets) is a link leaving it is not one odf-hash
  // reads as a workspace: say that, not "give this folder".
  for (const char* key : {".kamu", ".kamu/datasets"}) {
    if (std::optional<Status> link = unfollowed_link(store, key, shown)) return *link;
  }
  if (has(".kamu")) {
    return Status::not_found(head + "it is a kamu workspace: " + workspace_hint +
                             "; one dataset is .kamu/datasets/<dataset id>");
  }
  if (name == ".kamu" && has("datasets")) {
    return Status::not_found(head +
                             "it is the .kamu folder of a kamu workspace: give the workspace "
                             "(its parent) or this folder to `odf-hash verify`");
  }
  const bool hash_names = std::all_of(entries.begin(), entries.end(), [](const ObjectEntry& e) {
    return Multihash::parse(e.name).is_ok();
  });
  if (hash_names || name == "blocks" || name == "data" || name == "checkpoints" ||
      (name == "refs" && has("head"))) {
    const std::string which =
        name == "blocks" || name == "data" || name == "checkpoints" || name == "refs"
            ? "the " + name + "/ folder"
            : "the blocks/, data/ or checkpoints/ folder";
    return Status::not_found(head + (hash_names ? "its names are hashes: " : "") +
                             "it looks like " + which +
                             " of a dataset: verify the dataset folder, its parent");
  }
  size_t datasets = 0, folders = 0;
  for (const auto& e : entries) {
    if (kind_of(store, e.name, e.kind) != ObjectKind::kDirectory) continue;
    ++folders;
    datasets += is_dataset_at(store, e.name) ? 1 : 0;
  }
  if (datasets != 0 && folders == entries.size()) {
    return Status::not_found(head + "it is a folder of " + std::to_string(datasets) +
                             " dataset(s): " + workspace_hint);
  }
  if (datasets != 0) {
    return Status::not_found(head + "it holds " + std::to_string(datasets) +
                             " dataset folder(s) beside other entries: verify them one by one");
  }
  return Status::not_found(head + "it does not look like a dataset nor a kamu workspace (" +
                           std::to_string(entries.size()) +
                           (entries.size() == 1 ? " entry: " : " entries: ") +
                           quoted_names(entries) + ")");
}

}  // namespace odf_hash::odf
