// The unreferenced section of a verification (unreferenced.h).
#include "unreferenced.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "dataset/entry.h"
#include "odf_hash/core/text.h"

namespace odf_hash::odf::detail {

namespace {

std::string hash_key(const Multihash& h) {
  auto b = h.to_bytes();
  return std::string(b.begin(), b.end());
}

// "this file", "this directory", "this symbolic link (to "…", which leaves the dataset
// folder)", for the unexpected-file sentence of strict mode.
std::string entry_noun(const UnreferencedEntry& e) {
  if (e.kind == ObjectKind::kFile) return "this file";
  if (e.broken_link) return "this symbolic link, which leads nowhere or loops";
  if (e.kind == ObjectKind::kSymlink) {
    return "this symbolic link (to \"" + escape_untrusted(e.link_target, 160) +
           "\", which leaves the dataset folder)";
  }
  return std::string("this ") + object_kind_name(e.kind);
}

// blocks/, data/ or checkpoints/ that is not a folder: the layout is broken, whatever
// strict says. A link leaving the dataset says where it goes (and how to follow it).
Problem folder_problem(const DatasetEntry& e) {
  Problem p;
  p.file = e.rel_path;
  const std::string what = "the " + e.rel_path + " folder";
  if (e.kind == ObjectKind::kSymlink && !e.broken_link) {
    ObjectInfo info;
    info.kind = e.kind;
    info.link_target = e.link_target;
    p.kind = ProblemKind::kLinkOutside;
    p.message = not_a_file_sentence(what, e.rel_path, info);
    return p;
  }
  p.kind = ProblemKind::kUnexpectedFile;
  p.message = e.broken_link ? what + " is a symbolic link that leads nowhere or loops"
                            : what + " is a " + object_kind_name(e.kind) +
                                  ", not a folder: the dataset's files cannot be in it";
  return p;
}

}  // namespace

Unreferenced find_unreferenced(const DatasetDir& dir, const std::vector<ChainBlock>& blocks,
                               const std::set<std::string>& linked, bool chain_complete,
                               bool strict) {
  Unreferenced out;
  auto add = [&](const std::string& rel, ObjectKind kind, const std::string& link_target,
                 bool broken, std::optional<uint64_t> listed_size, std::string canonical) {
    UnreferencedEntry e{rel, kind, 0, link_target, broken, std::move(canonical)};
    if (kind == ObjectKind::kFile && listed_size) {
      e.size = *listed_size;
    } else if (kind == ObjectKind::kFile) {
      auto info = dir.store().stat(rel);
      if (info.is_ok() && info->kind == ObjectKind::kFile) e.size = info->size;
    }
    out.entries.push_back(std::move(e));
  };
  for (const DatasetEntry& e : dir.foreign_entries()) {
    if (e.rel_path.find('/') == std::string::npos) {
      out.problems.push_back(folder_problem(e));
    } else {
      add(e.rel_path, e.kind, e.link_target, e.broken_link, e.size, "");
    }
  }
  if (chain_complete) {
    std::set<std::string> blocks_ref, data_ref, checkpoints_ref;
    for (const auto& cb : blocks) {
      blocks_ref.insert(hash_key(cb.hash));
      if (cb.block.new_data) data_ref.insert(hash_key(cb.block.new_data->physical_hash));
      if (cb.block.new_checkpoint) {
        checkpoints_ref.insert(hash_key(cb.block.new_checkpoint->physical_hash));
      }
    }
    // Referenced means: a block names the hash, and this is its canonical name (any other
    // spelling is a file kamu never opens, whatever it holds).
    auto scan = [&](const std::vector<DatasetFile>& files, const std::set<std::string>& refs) {
      for (const auto& f : files) {
        if (f.canonical && refs.count(hash_key(f.hash)) != 0) continue;
        if (f.canonical && linked.count(f.rel_path) != 0) continue;
        add(f.rel_path, f.kind, f.link_target, f.broken_link, f.size,
            f.canonical ? "" : f.hash.to_string());
      }
    };
    scan(dir.blocks(), blocks_ref);
    scan(dir.data_files(), data_ref);
    scan(dir.checkpoints(), checkpoints_ref);
  }
  std::sort(out.entries.begin(), out.entries.end(),
            [](const UnreferencedEntry& a, const UnreferencedEntry& b) { return a.file < b.file; });
  if (strict) {
    for (const auto& e : out.entries) {
      Problem p;
      p.kind = ProblemKind::kUnexpectedFile;
      p.file = e.file;
      p.message = "no block of the chain references " + entry_noun(e);
      if (!e.canonical_name.empty()) {
        p.message += " (its name is a non-canonical spelling of " + e.canonical_name + ")";
      }
      out.problems.push_back(std::move(p));
    }
  }
  std::stable_sort(out.problems.begin(), out.problems.end(),
                   [](const Problem& a, const Problem& b) { return a.file < b.file; });
  return out;
}

}  // namespace odf_hash::odf::detail
