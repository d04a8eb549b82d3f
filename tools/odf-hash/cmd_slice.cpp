// odf-hash slice FILE [--offset START]: what a coordinator records for a new data file, the
// ODF DataSlice (logicalHash, physicalHash, offsetInterval from the record count, size), as
// YAML in the form ODF manifests use, or as JSON.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "odf_hash/core/text.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/io/table.h"
#include "odf_hash/odf/slice.h"
#include "odf_hash/remote/open_table.h"
#include "output.h"
#include "reference_gaps.h"
#include "store_flags.h"

namespace odf_hash::cli {

namespace {

struct SliceArgs {
  std::string file;
  uint64_t offset = 0;
  bool json = false;
  bool require_reference = false;  // --require-reference-compatible
  StoreOptions store;
};

int run_slice(const SliceArgs& args) {
  odf::SliceOptions options;
  options.offset = args.offset;
  options.logical.threads = 0;  // one file: its columns on every core
  std::vector<ColumnDigest> gaps;
  options.reference_gaps = &gaps;
  Result<odf::DataSlice> slice = [&]() -> Result<odf::DataSlice> {
    ODF_HASH_ASSIGN_OR_RETURN(Table file, open_table(args.file, args.store));
    return odf::data_slice(file, options);
  }();
  if (!slice.is_ok()) {
    std::fprintf(stderr, "odf-hash slice: %s\n", escape_text(slice.status().message()).c_str());
    return kExitError;
  }
  // A logicalHash kamu cannot check: said on stderr, or refused when asked.
  if (!gaps.empty()) {
    std::fprintf(stderr, "odf-hash slice: %s\n",
                 reference_gap_message(args.file, gaps, args.require_reference).c_str());
    if (args.require_reference) return kExitError;
  }
  const std::string lh = slice->logical_hash.to_string();
  const std::string ph = slice->physical_hash.to_string();
  const auto& interval = slice->offset_interval;
  if (args.json) {
    nlohmann::json j{{"logicalHash", lh},
                     {"physicalHash", ph},
                     {"offsetInterval", {{"start", interval.start}, {"end", interval.end}}},
                     {"size", slice->size}};
    // Not DataSlice fields: how far kamu can check it.
    j["referenceCompatible"] = gaps.empty();
    if (!gaps.empty()) j["referenceGaps"] = reference_gaps_json(gaps);
    print_json(std::move(j), JsonDoc::kSlice);
  } else {
    std::printf(
        "logicalHash: %s\nphysicalHash: %s\noffsetInterval:\n  start: %llu\n  end: %llu\n"
        "size: %llu\n",
        lh.c_str(), ph.c_str(), static_cast<unsigned long long>(interval.start),
        static_cast<unsigned long long>(interval.end),
        static_cast<unsigned long long>(slice->size));
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
  add_reference_flag(app, args->require_reference);
  add_store_flags(app, args->store);
  app->footer(store_help_footer());
  return Command{app, [args] { return run_slice(*args); }};
}

}  // namespace odf_hash::cli
