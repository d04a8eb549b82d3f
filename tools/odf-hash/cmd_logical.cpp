// odf-hash logical FILE...: the logical hash (arrow0-sha3-256) of Parquet / Arrow IPC files.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "odf_hash/logical.h"
#include "odf_hash/reader.h"
#include "output.h"
#include "parallel.h"

namespace odf_hash::cli {

namespace {

struct LogicalOptions {
  std::vector<std::string> files;
  bool columns = false;
  bool json = false;
  unsigned jobs = 0;
};

struct FileOutcome {
  std::optional<FileFormat> format;
  std::optional<LogicalDigest> digest;
  Status error;
};

std::string hex_of(const Digest256& d) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  out.reserve(d.size() * 2);
  for (uint8_t b : d) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

FileOutcome hash_one(const std::string& path) {
  FileOutcome out;
  Result<FileFormat> format = detect_file_format(path);
  if (!format.is_ok()) {
    out.error = format.status();
    return out;
  }
  out.format = *format;
  Result<LogicalDigest> digest = logical_hash_file(path);
  if (!digest.is_ok()) {
    out.error = digest.status();
    return out;
  }
  out.digest = std::move(digest).value();
  return out;
}

void print_text(const std::string& path, const FileOutcome& r, bool columns) {
  if (!r.digest) {
    print_error(r.error.message());
    return;
  }
  std::printf("%s  %s\n", r.digest->multihash().to_string().c_str(), escape_name(path).c_str());
  if (columns) {
    for (const auto& c : r.digest->columns) {
      std::printf("  %s  %s  %s\n", hex_of(c.digest).c_str(), c.type.c_str(),
                  escape_name(c.path).c_str());
    }
  }
  std::fflush(stdout);
}

nlohmann::json to_json(const std::string& path, const FileOutcome& r, bool columns) {
  nlohmann::json j;
  j["path"] = path;
  if (!r.digest) {
    j["error"] = reason_of(r.error, path);
    return j;
  }
  j["logical"] = r.digest->multihash().to_string();
  j["rows"] = r.digest->num_rows;
  j["format"] = file_format_name(*r.format);
  if (columns) {
    nlohmann::json cols = nlohmann::json::array();
    for (const auto& c : r.digest->columns) {
      cols.push_back({{"path", c.path}, {"type", c.type}, {"digest", hex_of(c.digest)}});
    }
    j["columns"] = std::move(cols);
  }
  return j;
}

int run_logical(const LogicalOptions& opt) {
  const unsigned jobs = opt.jobs == 0 ? default_jobs() : opt.jobs;
  bool failed = false;
  nlohmann::json files = nlohmann::json::array();
  run_ordered<FileOutcome>(
      opt.files.size(), jobs, [&](size_t i) { return hash_one(opt.files[i]); },
      [&](size_t i, FileOutcome& r) {
        if (!r.digest) failed = true;
        if (opt.json) {
          if (!r.digest) print_error(r.error.message());
          files.push_back(to_json(opt.files[i], r, opt.columns));
        } else {
          print_text(opt.files[i], r, opt.columns);
        }
      });
  if (opt.json) {
    nlohmann::json doc;
    doc["files"] = std::move(files);
    print_json(doc);
  }
  return failed ? kExitError : kExitOk;
}

}  // namespace

Command add_logical_command(CLI::App& root) {
  auto opt = std::make_shared<LogicalOptions>();
  CLI::App* app = root.add_subcommand(
      "logical",
      "Print the logical hash (arrow0-sha3-256) of Parquet and Arrow IPC files, computed "
      "over their records as the reference implementation reads them");
  app->add_option("FILE", opt->files, "Parquet, Arrow IPC file or Arrow IPC stream files")
      ->required();
  app->add_flag("--columns", opt->columns,
                "Also print the digest of every leaf column (hex, Arrow format string, path)");
  app->add_flag("--json", opt->json, "Print one JSON document instead of text");
  app->add_option("-j,--jobs", opt->jobs, "Files hashed in parallel (default: one per core)")
      ->check(CLI::PositiveNumber);
  app->footer(
      "Output: '<multihash>  FILE' per file, in argument order. A file that cannot be read or "
      "hashed is reported on stderr; the others are still hashed and the exit status is 2.");
  return Command{app, [opt] { return run_logical(*opt); }};
}

}  // namespace odf_hash::cli
