#include "trust.h"

#include <string>

#include "odf_hash/core/text.h"
#include "odf_hash/remote/open_store.h"

namespace odf_hash::odf::detail {

namespace {

// The block of `hash` among those the walk read, with the --since block last.
const ChainBlock* find_walked(const ChainWalk& walk, const Multihash& hash) {
  for (const auto& cb : walk.blocks) {
    if (cb.hash == hash) return &cb;
  }
  if (walk.stopped_at && walk.stopped_at->hash == hash) return &*walk.stopped_at;
  return nullptr;
}

std::string head_text(const ChainWalk& walk) {
  if (!walk.head) return "refs/head";
  std::string s = "refs/head " + walk.head->to_string();
  if (!walk.blocks.empty()) {
    s += " (sequence number " + std::to_string(walk.blocks.front().block.sequence_number) + ")";
  } else if (walk.stopped_at) {
    s += " (sequence number " + std::to_string(walk.stopped_at->block.sequence_number) + ")";
  }
  return s;
}

// Why `hash` (named `what`) was not met, as a problem; nullopt when it was.
Problem not_met(const DatasetDir& dir, const ChainWalk& walk, const Multihash& hash,
                const std::string& what, bool stopped_by_since) {
  Problem p;
  p.expected = hash.to_string();
  p.actual = walk.head ? walk.head->to_string() : "";
  p.file = "refs/head";
  const uint64_t walked = walk.blocks.size() + (walk.stopped_at ? 1 : 0);
  if (walk.complete) {
    p.kind = ProblemKind::kHistoryRewritten;
    p.message = what + " " + hash.to_string() + " is not on the chain from " + head_text(walk) +
                " to the seed (" + std::to_string(walked) +
                " blocks): the history was rewritten, or the hash is not of this dataset";
    if (dir.find_block(hash)) {
      p.message +=
          "; blocks/" + hash.to_string() + " still exists, but no block of the chain links to it";
    }
  } else if (stopped_by_since) {
    p.kind = ProblemKind::kHeadNotFound;
    p.message = what + " " + hash.to_string() + " is not among the " + std::to_string(walked) +
                " blocks from " + head_text(walk) +
                " down to the --since block: give a trusted head at or above --since";
  } else {
    p.kind = ProblemKind::kHeadNotFound;
    p.message = what + " " + hash.to_string() + " was not found: " +
                (walk.head ? "the chain breaks after " + std::to_string(walked) + " blocks from " +
                                 head_text(walk) + " (see the problems above), before the seed"
                           : std::string("refs/head cannot be read"));
  }
  return p;
}

// The pin's dataset id against the Seed's (when it was read).
void check_dataset_id(const std::string& expected, DatasetReport& report) {
  report.scope.expected_dataset_id = expected;
  if (!report.dataset_id) {
    report.scope.skipped.push_back("dataset id: not checked against the pin's " + expected +
                                   ", the Seed was not read" +
                                   (report.scope.since ? " (--since)" : ""));
    return;
  }
  if (*report.dataset_id == expected) return;
  Problem p;
  p.kind = ProblemKind::kDatasetIdMismatch;
  p.expected = expected;
  p.actual = *report.dataset_id;
  p.file = "refs/head";
  p.message = "the Seed names the dataset " + *report.dataset_id + ", not " + expected +
              " (the pin's): another dataset was put in the place of the one pinned";
  report.problems.push_back(std::move(p));
}

}  // namespace

void check_anchors(const DatasetDir& dir, const ChainWalk& walk, const VerifyOptions& options,
                   DatasetReport& report) {
  VerifyScope& scope = report.scope;
  if (options.since) {
    scope.since = options.since;
    if (walk.stopped_at) {
      scope.since_found = true;
      scope.since_sequence = walk.stopped_at->block.sequence_number;
    } else {
      report.problems.push_back(
          not_met(dir, walk, *options.since, "the --since block", /*stopped_by_since=*/false));
      scope.skipped.push_back(
          "--since: the block was not met, so every block walked and its files were checked");
    }
  }
  if (options.expect_dataset_id) check_dataset_id(*options.expect_dataset_id, report);
  if (options.expect_head) {
    scope.expected_head = options.expect_head;
    if (const ChainBlock* found = find_walked(walk, *options.expect_head)) {
      scope.expected_head_found = true;
      scope.expected_head_sequence = found->block.sequence_number;
    } else {
      report.problems.push_back(not_met(dir, walk, *options.expect_head, "the trusted head",
                                        walk.stopped_at.has_value()));
    }
  }
}

std::optional<DatasetKind> infer_kind(const ChainWalk& walk) {
  auto of = [](const MetadataBlock& b) -> std::optional<DatasetKind> {
    if (b.event == EventKind::kExecuteTransform) return DatasetKind::kDerivative;
    if (b.event == EventKind::kAddData) return DatasetKind::kRoot;
    if (b.dataset_kind) return b.dataset_kind;
    return std::nullopt;
  };
  for (const auto& cb : walk.blocks) {
    if (auto k = of(cb.block)) return k;
  }
  if (walk.stopped_at) return of(walk.stopped_at->block);
  return std::nullopt;
}

// Where an IPFS dataset's content came from, and whether the CID anchored it.
void note_ipfs(const std::string& url_or_path, const StoreOptions& store, VerifyScope& scope) {
  if (!is_ipfs_url(url_or_path)) return;
  scope.ipfs_gateway = redact_url(resolve_ipfs_gateway(store.ipfs_gateway));
  while (scope.ipfs_gateway.size() > 1 && scope.ipfs_gateway.back() == '/') {
    scope.ipfs_gateway.pop_back();
  }
  scope.ipfs_verified = !store.trust_gateway;
  if (store.trust_gateway) {
    scope.skipped.push_back("IPFS content: not checked against the CID; the gateway " +
                            scope.ipfs_gateway + " was trusted to serve it (--trust-gateway)");
  }
}

}  // namespace odf_hash::odf::detail
