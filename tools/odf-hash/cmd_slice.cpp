// odf-hash slice FILE [--offset START]: what a coordinator records for a new data file, the
// ODF DataSlice (logicalHash, physicalHash, offsetInterval from the record count, size), as
// YAML in the form ODF manifests use, or as JSON.
#include <cstdio>
#include <iostream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "odf_hash/physical.h"
#include "odf_hash/reader.h"

namespace odf_hash::cli {

namespace {

struct SliceArgs {
  std::string file;
  uint64_t offset = 0;
  bool json = false;
};

int run_slice(const SliceArgs& args) {
  // The two hashes read the file independently; run them side by side.
  Result<PhysicalDigest> physical = Status::internal("not run");
  std::thread t([&] { physical = physical_hash_file(args.file); });
  LogicalHashOptions options;
  options.threads = 0;  // one file: its columns on every core
  Result<LogicalDigest> logical = logical_hash_file(args.file, options);
  t.join();
  for (const Status& s : {physical.status(), logical.status()}) {
    if (!s.is_ok()) {
      std::fprintf(stderr, "odf-hash slice: %s\n", s.message().c_str());
      return kExitError;
    }
  }
  if (logical->num_rows == 0) {
    std::fprintf(stderr,
                 "odf-hash slice: %s holds no records; ODF records no DataSlice for an empty "
                 "file\n",
                 args.file.c_str());
    return kExitError;
  }
  const uint64_t end = args.offset + logical->num_rows - 1;
  if (end < args.offset) {
    std::fprintf(stderr, "odf-hash slice: --offset %llu + %llu records overflows 64 bits\n",
                 static_cast<unsigned long long>(args.offset),
                 static_cast<unsigned long long>(logical->num_rows));
    return kExitError;
  }
  const std::string lh = logical->multihash().to_string();
  const std::string ph = physical->hash.to_string();
  if (args.json) {
    nlohmann::json j{{"logicalHash", lh},
                     {"physicalHash", ph},
                     {"offsetInterval", {{"start", args.offset}, {"end", end}}},
                     {"size", physical->size}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::printf(
        "logicalHash: %s\nphysicalHash: %s\noffsetInterval:\n  start: %llu\n  end: %llu\n"
        "size: %llu\n",
        lh.c_str(), ph.c_str(), static_cast<unsigned long long>(args.offset),
        static_cast<unsigned long long>(end), static_cast<unsigned long long>(physical->size));
  }
  return kExitOk;
}

}  // namespace

Command add_slice_command(CLI::App& root) {
  auto args = std::make_shared<SliceArgs>();
  CLI::App* app = root.add_subcommand(
      "slice",
      "Print the ODF DataSlice of a data file: logicalHash, physicalHash, offsetInterval "
      "(from the record count) and size, as YAML (or --json).");
  app->add_option("FILE", args->file, "Data file (Parquet or Arrow IPC)")->required();
  app->add_option("--offset", args->offset, "Offset of the file's first record (default 0)");
  app->add_flag("--json", args->json, "JSON instead of YAML");
  return Command{app, [args] { return run_slice(*args); }};
}

}  // namespace odf_hash::cli
