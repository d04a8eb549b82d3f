// odf-hash compare ORIGINAL REPRODUCED: verification of a reproduced data file as the ODF
// specification describes it: physical hashes first; if they differ, logical hashes.
// Verdicts: identical (exit 0), equivalent - same records, different encoding (exit 0),
// different (exit 1, naming the leaf columns whose digests differ and both row counts).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "odf_hash/logical.h"
#include "odf_hash/physical.h"
#include "odf_hash/reader.h"

namespace odf_hash::cli {

namespace {

struct CompareArgs {
  std::string original;
  std::string reproduced;
  bool json = false;
};

struct Side {
  std::string path;
  std::optional<Multihash> physical;
  std::optional<LogicalDigest> logical;
};

// Leaf columns whose digests differ, or that exist on one side only.
std::vector<std::string> differing_columns(const LogicalDigest& a, const LogicalDigest& b) {
  std::map<std::string, const ColumnDigest*> left, right;
  for (const auto& c : a.columns) left[c.path] = &c;
  for (const auto& c : b.columns) right[c.path] = &c;
  std::vector<std::string> out;
  for (const auto& [path, c] : left) {
    auto it = right.find(path);
    if (it == right.end()) {
      out.push_back(path + " (only in original)");
    } else if (c->digest != it->second->digest || c->type != it->second->type) {
      out.push_back(c->type == it->second->type
                        ? path
                        : path + " (type " + c->type + " vs " + it->second->type + ")");
    }
  }
  for (const auto& [path, c] : right) {
    if (left.count(path) == 0) out.push_back(path + " (only in reproduced)");
  }
  return out;
}

nlohmann::json side_json(const Side& s) {
  nlohmann::json j{{"path", s.path}, {"physical", s.physical->to_string()}};
  if (s.logical) {
    j["logical"] = s.logical->multihash().to_string();
    j["rows"] = s.logical->num_rows;
  }
  return j;
}

void print_side(const char* label, const Side& s) {
  std::printf("%-11s %s\n", label, s.path.c_str());
  std::printf("  physical  %s\n", s.physical->to_string().c_str());
  if (s.logical) {
    std::printf("  logical   %s (%llu rows)\n", s.logical->multihash().to_string().c_str(),
                static_cast<unsigned long long>(s.logical->num_rows));
  }
}

int run_compare(const CompareArgs& args) {
  Side a{args.original, std::nullopt, std::nullopt};
  Side b{args.reproduced, std::nullopt, std::nullopt};
  for (Side* s : {&a, &b}) {
    auto p = physical_hash_file(s->path);
    if (!p.is_ok()) {
      std::fprintf(stderr, "odf-hash compare: %s\n", p.status().message().c_str());
      return kExitError;
    }
    s->physical = p->hash;
  }
  std::string verdict = "identical";
  std::vector<std::string> columns;
  if (!(*a.physical == *b.physical)) {
    Result<LogicalDigest> la = Status::internal("not run"), lb = Status::internal("not run");
    // Two files side by side, each with half of the cores for its columns.
    LogicalHashOptions options;
    options.threads = std::max(1u, std::thread::hardware_concurrency() / 2);
    std::thread other([&] { lb = logical_hash_file(b.path, options); });
    la = logical_hash_file(a.path, options);
    other.join();
    for (auto* r : {&la, &lb}) {
      if (!r->is_ok()) {
        std::fprintf(stderr, "odf-hash compare: %s\n", r->status().message().c_str());
        return kExitError;
      }
    }
    a.logical = std::move(la).value();
    b.logical = std::move(lb).value();
    if (a.logical->digest == b.logical->digest) {
      verdict = "equivalent";
    } else {
      verdict = "different";
      columns = differing_columns(*a.logical, *b.logical);
    }
  }
  if (args.json) {
    nlohmann::json j{
        {"original", side_json(a)}, {"reproduced", side_json(b)}, {"verdict", verdict}};
    if (verdict == "different") j["differing_columns"] = columns;
    std::cout << j.dump(2) << "\n";
  } else {
    print_side("original", a);
    print_side("reproduced", b);
    if (verdict == "identical") {
      std::printf("verdict     identical (same bytes)\n");
    } else if (verdict == "equivalent") {
      std::printf("verdict     equivalent (same records, different encoding)\n");
    } else {
      std::printf("verdict     different\n");
      std::printf("rows        original %llu, reproduced %llu\n",
                  static_cast<unsigned long long>(a.logical->num_rows),
                  static_cast<unsigned long long>(b.logical->num_rows));
      std::string list;
      for (const auto& c : columns) list += (list.empty() ? "" : ", ") + c;
      std::printf("columns     %s\n", list.empty() ? "(schema differs)" : list.c_str());
    }
  }
  return verdict == "different" ? kExitMismatch : kExitOk;
}

}  // namespace

Command add_compare_command(CLI::App& root) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* app = root.add_subcommand(
      "compare",
      "Compare a reproduced data file with the original: physical hashes, then logical. "
      "Verdict identical / equivalent (exit 0) or different (exit 1).");
  app->add_option("ORIGINAL", args->original, "The original data file")->required();
  app->add_option("REPRODUCED", args->reproduced, "The reproduced data file")->required();
  app->add_flag("--json", args->json, "Machine-readable output");
  return Command{app, [args] { return run_compare(*args); }};
}

}  // namespace odf_hash::cli
