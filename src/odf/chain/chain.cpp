#include <set>

#include "dataset/entry.h"
#include "odf_hash/core/sha3.h"
#include "odf_hash/internal/odf/chain_walk.h"

namespace odf_hash::odf::detail {

namespace {

// The FlatBuffers reader's own limit (odf_block.h); a larger file is not read.
constexpr uint64_t kMaxBlockFileBytes = 64u << 20;

std::string hash_key(const Multihash& h) {
  auto b = h.to_bytes();
  return std::string(b.begin(), b.end());
}

std::string referrer_text(const std::optional<ChainBlock>& child) {
  if (!child) return "refs/head";
  return "block " + child->hash.to_string() + " (sequence number " +
         std::to_string(child->block.sequence_number) + ")";
}

// A block served over HTTP whose bytes do not hash to its name but are a valid block in
// its place in the chain (the sequence number expected there, a prevBlockHash exactly when
// not the seed): possibly the same metadata in other bytes. A kamu node does this: GET
// /blocks/{hash} deserializes the block and serializes it again in the newest manifest
// version (measured with kamu 0.265: version 2 blocks come back as version 3, in other
// bytes; blocks it wrote itself come back unchanged). Changed content would look the same
// from here, and the block hash is what ODF trusts: this stays a problem, with its own kind
// and the likely cause named. Only for stores that cannot list (HTTP): a folder or a bucket
// holds the bytes as written, so there a mismatch is plain corruption. nullopt otherwise.
// Whether the whole chain makes re-encoding plausible is decided after the walk
// (implausible_reencodings).
std::optional<Problem> reencoded_block(const MetadataBlock& b,
                                       const std::optional<uint64_t>& expected_seq,
                                       const ObjectStore& store) {
  if (store.can_list()) return std::nullopt;
  if (expected_seq && b.sequence_number != *expected_seq) return std::nullopt;
  if ((b.sequence_number == 0) != !b.prev_block_hash) return std::nullopt;
  // Re-encoding writes the newest version: a block served in an older one was not re-encoded.
  if (b.version != kMaxBlockVersion) return std::nullopt;
  Problem p;
  p.kind = ProblemKind::kBlockReencoded;
  p.sequence_number = b.sequence_number;
  p.message = "the block's bytes do not hash to its name, but they are a valid version " +
              std::to_string(b.version) + " " + event_kind_name(b.event) +
              " block that fits its place in the chain: most likely the server re-encoded "
              "it (a kamu node serves every block in its newest manifest version, so a block "
              "written in an older one comes back in other bytes), unless its content was "
              "changed; the block hash is what ODF trusts, so it is not accepted";
  return p;
}

// A node re-encodes the blocks written in an older manifest version, and a writer never goes
// back to an older version: so where a node re-encoded, every block below a re-encoded one
// (older) was re-encoded too. A block-reencoded block with a block below it whose bytes hash
// to its name cannot be explained so (that older block was served as written, so this newer
// one would have been too): another valid block was served under its name, a plain hash
// mismatch. `matched` lists the blocks walked whose bytes hash to their names.
void implausible_reencodings(std::vector<Problem>& problems, const std::vector<Multihash>& walked,
                             const std::set<std::string>& matched) {
  // The walk goes from the head down: a block has a matching block below it when a
  // matching block comes after it in walk order.
  std::set<std::string> with_match_below;
  bool seen = false;
  for (auto it = walked.rbegin(); it != walked.rend(); ++it) {
    if (seen) with_match_below.insert(hash_key(*it));
    if (matched.count(hash_key(*it)) > 0) seen = true;
  }
  for (Problem& p : problems) {
    if (p.kind != ProblemKind::kBlockReencoded || !p.block) continue;
    if (with_match_below.count(hash_key(*p.block)) == 0) continue;
    p.kind = ProblemKind::kBlockHashMismatch;
    p.message =
        "the block's bytes do not hash to its name; they are another valid block, but not a "
        "re-encoding of this one: a block below it is served as written (a node re-encodes "
        "only blocks of an older manifest version, and those are all below the newer ones), "
        "so another block was served under this name";
  }
}

}  // namespace

namespace {

// walk_chain's walk; `matched` collects the blocks whose bytes hash to their names and
// `walked` every block read (head first, the stop_at block included).
ChainWalk walk_blocks(const DatasetDir& dir, const std::optional<Multihash>& stop_at,
                      bool keep_bytes, std::set<std::string>& matched,
                      std::vector<Multihash>& walked) {
  ChainWalk walk;
  HeadRead head = read_head(dir);
  if (!head.hash) {
    Problem p;
    p.kind = head.problem;
    p.file = "refs/head";
    p.message = std::move(head.message);
    walk.problems.push_back(std::move(p));
    return walk;
  }
  walk.head = *head.hash;

  std::set<std::string> visited;
  std::optional<ChainBlock> child;  // the block whose prevBlockHash led here
  Multihash current = *head.hash;
  std::optional<uint64_t> expected_seq;
  for (;;) {
    auto problem = [&](ProblemKind kind, std::string file, std::string message) {
      Problem p;
      p.kind = kind;
      p.block = current;
      p.sequence_number = expected_seq;
      p.file = std::move(file);
      p.message = std::move(message);
      return p;
    };
    if (!visited.insert(hash_key(current)).second) {
      walk.problems.push_back(problem(ProblemKind::kChainCycle, "",
                                      "prevBlockHash of " + referrer_text(child) +
                                          " leads back to block " + current.to_string()));
      return walk;
    }
    std::optional<DatasetFile> file = dir.find_block(current);
    const std::string missing = "block " + current.to_string() + " referenced by " +
                                referrer_text(child) + " does not exist" +
                                misnamed_hint(dir.misnamed_block(current));
    if (!file) {
      walk.problems.push_back(
          problem(ProblemKind::kBlockMissing, "blocks/" + current.to_string(), missing));
      return walk;
    }
    EntryOpen entry = open_entry(dir, file->rel_path, "the block file", kMaxBlockFileBytes);
    Result<std::vector<uint8_t>> bytes = Status::internal("not read");
    if (entry.reader) bytes = read_all(*entry.reader);
    if (entry.fault != EntryFault::kNone || !bytes.is_ok()) {
      ProblemKind kind =
          problem_kind_of(entry.fault, ProblemKind::kBlockMissing, ProblemKind::kBlockUnreadable);
      std::string message = std::move(entry.message);
      if (entry.fault == EntryFault::kMissing) {
        message = missing;
      } else if (entry.fault == EntryFault::kTooLarge) {
        kind = ProblemKind::kBlockMalformed;
        message = "the block file is " + std::string(entry.info.size_at_least ? "more than " : "") +
                  std::to_string(entry.info.size_at_least ? entry.info.size - 1 : entry.info.size) +
                  " bytes, larger than any metadata block may be (not read)";
      } else if (entry.fault == EntryFault::kNone) {
        kind = ProblemKind::kBlockUnreadable;
        message = "cannot read the block file: " + bytes.status().message();
      }
      walk.problems.push_back(problem(kind, file->rel_path, std::move(message)));
      return walk;
    }
    Multihash actual = Multihash::sha3_256(Sha3_256::digest(*bytes));
    auto parsed = parse_block(*bytes);
    if (actual == current) matched.insert(hash_key(current));
    if (!(actual == current)) {
      std::optional<Problem> reencoded;
      if (parsed.is_ok()) reencoded = reencoded_block(*parsed, expected_seq, dir.store());
      Problem p = reencoded ? std::move(*reencoded)
                            : problem(ProblemKind::kBlockHashMismatch, file->rel_path,
                                      "the block's bytes do not hash to its name");
      p.block = current;
      p.file = file->rel_path;
      p.expected = current.to_string();
      p.actual = actual.to_string();
      walk.problems.push_back(std::move(p));
    }
    if (!parsed.is_ok()) {
      walk.problems.push_back(problem(ProblemKind::kBlockMalformed, file->rel_path,
                                      "the block cannot be read: " + parsed.status().message()));
      return walk;
    }
    ChainBlock cb{current, file->rel_path, std::move(parsed).value()};
    walked.push_back(current);
    const MetadataBlock& b = cb.block;
    if (expected_seq && b.sequence_number != *expected_seq) {
      Problem p = problem(
          ProblemKind::kSequenceMismatch, file->rel_path,
          "sequence number is not one less than that of its successor, " + referrer_text(child));
      p.sequence_number = b.sequence_number;
      p.expected = ProblemValue::number(*expected_seq);
      p.actual = ProblemValue::number(b.sequence_number);
      walk.problems.push_back(std::move(p));
    }
    expected_seq = b.sequence_number;  // from here on, problems name the block's own number
    if (b.prev_block_hash && b.sequence_number == 0) {
      walk.problems.push_back(problem(ProblemKind::kSequenceMismatch, file->rel_path,
                                      "a block with sequence number 0 has a prevBlockHash"));
    }
    if (b.event == EventKind::kSeed && b.prev_block_hash) {
      walk.problems.push_back(problem(ProblemKind::kChainNotSeeded, file->rel_path,
                                      "a Seed block has a prevBlockHash: only the first block "
                                      "may be a Seed"));
    }
    if (stop_at && cb.hash == *stop_at) {
      walk.stopped_at = std::move(cb);
      return walk;
    }
    if (!b.prev_block_hash) {
      if (b.event != EventKind::kSeed || b.sequence_number != 0) {
        walk.problems.push_back(
            problem(ProblemKind::kChainNotSeeded, file->rel_path,
                    std::string("the chain ends at a ") + event_kind_name(b.event) +
                        " block with sequence number " + std::to_string(b.sequence_number) +
                        ", not at a Seed block with sequence number 0"));
      }
      walk.blocks.push_back(std::move(cb));
      if (keep_bytes) walk.bytes.push_back(std::move(*bytes));
      walk.complete = true;
      return walk;
    }
    current = *b.prev_block_hash;
    expected_seq = b.sequence_number == 0 ? std::optional<uint64_t>() : b.sequence_number - 1;
    child = cb;
    walk.blocks.push_back(std::move(cb));
    if (keep_bytes) walk.bytes.push_back(std::move(*bytes));
  }
}

}  // namespace

ChainWalk walk_chain(const DatasetDir& dir, const std::optional<Multihash>& stop_at,
                     bool keep_bytes) {
  std::set<std::string> matched;
  std::vector<Multihash> walked;
  ChainWalk walk = walk_blocks(dir, stop_at, keep_bytes, matched, walked);
  implausible_reencodings(walk.problems, walked, matched);
  return walk;
}

std::vector<Problem> check_offsets(const std::vector<ChainBlock>& blocks, bool chain_complete) {
  std::vector<std::vector<Problem>> per_block;  // seed first
  std::optional<uint64_t> last_end;
  bool last_end_known = chain_complete;
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) {
    const MetadataBlock& b = it->block;
    if (b.event != EventKind::kAddData && b.event != EventKind::kExecuteTransform) continue;
    if (!last_end_known) {
      last_end = b.prev_offset;
      last_end_known = true;
    }
    std::vector<Problem>& found = per_block.emplace_back();
    auto problem = [&](ProblemValue expected, ProblemValue actual, std::string message) {
      Problem p;
      p.kind = ProblemKind::kOffsetMismatch;
      p.block = it->hash;
      p.sequence_number = b.sequence_number;
      p.file = it->rel_path;
      p.expected = std::move(expected);
      p.actual = std::move(actual);
      p.message = std::move(message);
      found.push_back(std::move(p));
    };
    // No offset yet (before the first data slice): no value.
    auto value = [](const std::optional<uint64_t>& v) {
      return v ? ProblemValue::number(*v) : ProblemValue();
    };
    if (b.prev_offset != last_end) {
      problem(value(last_end), value(b.prev_offset),
              "prevOffset is not the last offset of the previous data slice");
    }
    if (!b.new_data) continue;
    const OffsetInterval& iv = b.new_data->offset_interval;
    uint64_t expected_start = last_end ? *last_end + 1 : 0;
    if (iv.start != expected_start) {
      problem(ProblemValue::number(expected_start), ProblemValue::number(iv.start),
              "newData.offsetInterval.start does not follow the previous data slice");
    }
    if (iv.end < iv.start) {
      // Any end from the start on would do: no single expected value.
      problem(ProblemValue(), ProblemValue::number(iv.end),
              "newData.offsetInterval.end is before its start (" + std::to_string(iv.start) + ")");
    }
    last_end = iv.end;
  }
  std::vector<Problem> out;  // head first, each block's problems in the order checked
  for (auto it = per_block.rbegin(); it != per_block.rend(); ++it) {
    for (auto& p : *it) out.push_back(std::move(p));
  }
  return out;
}

}  // namespace odf_hash::odf::detail

namespace odf_hash::odf {

Result<std::vector<ChainBlock>> read_chain(const DatasetDir& dir) {
  detail::ChainWalk walk = detail::walk_chain(dir);
  if (!walk.problems.empty()) {
    const Problem& p = walk.problems.front();
    std::string where = p.file.empty() ? "" : p.file + ": ";
    if (p.kind == ProblemKind::kHeadMissing || p.kind == ProblemKind::kBlockMissing) {
      return Status::not_found(where + p.message);
    }
    return Status::parse_error(where + p.message);
  }
  return std::move(walk.blocks);
}

}  // namespace odf_hash::odf
