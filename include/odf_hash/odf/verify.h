// Verification of an ODF dataset: metadata integrity, data and checkpoint integrity, and the
// logical fallback for reproduced (derivative) data. The dataset is read through its store
// (store.h; a local folder by default), never written.
//
// What is checked, in order:
//  1. metadata: refs/head names an existing block; every block's bytes hash to its name; the
//     block parses (FlatBuffers verifier); prevBlockHash links form one chain down to a Seed
//     block with sequence number 0, each sequence number one less than its successor's; data
//     slice offsets are contiguous from 0 (and agree with prevOffset);
//  2. data, for every newData of AddData and ExecuteTransform, newest block first: the file
//     exists, its size matches, its physical hash matches. On a mismatch a root dataset
//     fails; a derivative dataset falls back to the logical hash (reproduced data may be
//     encoded differently) and the report says so. `integrity_only` skips that fallback;
//  3. every checkpoint referenced by a block: exists, size, physical hash;
//  4. linked objects (ODF RFC-017): the ObjectLink columns of the SetDataSchema in effect for
//     each data file (the newest one at or below the block adding it) are read from the file
//     (those columns only), each value decoded as a multihash; every linked object,
//     data/<canonical multihash>, is checked once: it exists, is a regular file, and its
//     SHA3-256 multihash is its name. Where AddData.extra holds the
//     "opendatafabric.org/linkedObjects" summary, numObjectsNaive must equal the file's
//     non-null link values and sizeNaive the sum of their objects' sizes (per value).
//     A data file that fails its own check is still read for its links when it parses
//     (its objects belong to the dataset whatever its bytes); the links are read while
//     planning (verify_plan.h);
//  5. entries of blocks/, data/ and checkpoints/ that the chain does not reference are
//     listed in the report's unreferenced section (DatasetReport::unreferenced: path, kind,
//     size; linked objects are not unreferenced), not as problems: kamu leaves such files behind
//     after `system compact --hard`, `reset` or an aborted ingest, and still calls the dataset
//     valid. VerifyOptions::strict makes each of them an unexpected-file problem, for a folder that
//     must hold exactly the chain. ".pending-*" files (a writer's temporaries) are ignored.
//     Whatever strict says, one of the three folders that is not a folder (a link leaving the
//     dataset, a file, a FIFO) is a problem: the dataset's layout is broken. A store that cannot
//     list (HTTP) skips this check, and the report says so (unexpected_checked).
// Modes (VerifyOptions; each visible in DatasetReport::scope, its JSON and the verdict):
//  6. trusted head (expect_head): the block must be on the chain walked from refs/head
//     (refs/head is it or a descendant), else history-rewritten (the walk reached the seed
//     without meeting it) or head-not-found (the walk could not tell: refs/head unreadable,
//     the chain broken, or stopped by `since` above it). A chain proves only that a dataset
//     agrees with itself; a head obtained elsewhere pins the history below it;
//  7. incremental (since): the walk stops at that block (read and checked like the
//     others); only the blocks above it and their files are checked, the offsets continue
//     from its own; nothing below it is read, and the folders are not listed (files are
//     opened by their canonical names: no unreferenced entries, no misnamed hints; the kind
//     inferred from the events read, no SetVocab / SetDataSchema below it: the scope lists
//     each). Not met: history-rewritten, and everything walked is checked;
//  8. deep: each data file's records against its block: row count, the offset column of
//     the newest SetVocab at or below the block ("offset" by default), the logical hash
//     (row-count-mismatch, offset-column-mismatch, logical-hash-misrecorded);
//  9. sampled (sample_fraction / sample_count, sample_seed): the whole chain, and a
//     deterministic size-weighted random subset of the files (the same files for the same
//     seed, also as the dataset grows).
//     DatasetReport::verdict() never calls a partial pass (7., 9.) a plain VALID.
// Names: only the canonical name of a hash counts ("f1620" + 64 lower-case hex digits,
// Multihash::to_string), the one kamu writes and opens. A block, data file or checkpoint
// present only under another spelling (upper-case "F1620…", base58btc "z…") is missing
// (block-missing / file-missing, the message naming the file that holds it under another
// spelling), and that file is unreferenced. refs/head is a value, not a name: any multibase
// spelling of a multihash is read (as kamu reads it).
// Every problem is reported; verification never stops at the first. Nothing in the
// dataset is modified.
//
// Special files and links: every name of the dataset is untrusted down to its kind. Only
// regular files are opened; a referenced name that is a directory, a FIFO, a socket or a
// device is one not-a-regular-file problem saying what it is (never opened, so a FIFO cannot
// block verification). A symbolic link is followed when it stays inside the dataset folder;
// one that leaves it (absolute, or climbing out with "..") is a link-outside-dataset problem
// unless VerifyOptions::store.follow_symlinks (local_store.h). Messages quote at most a short,
// escaped prefix of untrusted text (refs/head content, link targets).
//
// Thread safety: verify_dataset is reentrant; it runs file checks on `jobs` threads and
// calls `progress` from them (serialised, never concurrently).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "odf_hash/core/multihash.h"
#include "odf_hash/core/status.h"
#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/odf/dataset.h"
#include "odf_hash/odf/odf_block.h"

namespace odf_hash::odf {

enum class ProblemKind {
  kHeadMissing,               // refs/head does not exist
  kHeadInvalid,               // refs/head does not hold a multihash
  kBlockMissing,              // a referenced block file does not exist
  kBlockUnreadable,           // the block file could not be read
  kBlockHashMismatch,         // the block's bytes do not hash to its name
  kBlockReencoded,            // ... but they are a valid block fitting the chain: most likely
                              // re-encoded (a kamu node serves blocks in its newest manifest
                              // version; only where no block below comes back as written);
                              // still a problem: the hash is what ODF trusts
  kBlockMalformed,            // the block does not parse (verifier, kind, version, hashes)
  kSequenceMismatch,          // sequence number is not one less than its successor's
  kChainNotSeeded,            // the chain ends at a block that is not a Seed with sequence 0
  kChainCycle,                // prevBlockHash leads back to a block already visited
  kOffsetMismatch,            // data slice offsets are not contiguous or disagree with prevOffset
  kFileMissing,               // a referenced data or checkpoint file does not exist
  kFileUnreadable,            // refs/head, a data or checkpoint file could not be read (permission
                              // denied, I/O error; a data file also when corrupt for logical)
  kSizeMismatch,              // file size differs from the recorded size
  kPhysicalHashMismatch,      // physical hash differs (root data, checkpoints, or no fallback)
  kLogicalHashMismatch,       // derivative data: physical and logical hashes both differ
  kUnexpectedFile,            // an entry no block of the chain references (only with
                              // VerifyOptions::strict), or one of the dataset's three
                              // folders that is not a folder
  kNotRegularFile,            // a referenced name is a directory, FIFO, socket or device
  kLinkOutside,               // a referenced name is a symbolic link leaving the dataset folder
  kLinkedObjectMissing,       // a linked object (RFC-017) does not exist in data/
  kLinkedObjectHashMismatch,  // a linked object's bytes do not hash to its name
  kLinkMalformed,             // an ObjectLink value is not a multihash, or its column unreadable
  kLinkedObjectsSummaryMismatch,  // AddData's linkedObjects summary disagrees with the file
  // Trust anchors (6. above): a trusted head (VerifyOptions::expect_head) or the block of
  // --since is not on the chain walked from refs/head down to the seed: the history below the
  // head was rewritten (or the hash given is wrong).
  kHistoryRewritten,
  // The trusted head could not be looked for to the end: refs/head unreadable, the chain
  // broken before the seed, or the walk stopped at --since above it.
  kHeadNotFound,
  // VerifyOptions::deep, about what a block claims of its data file's records:
  kRowCountMismatch,        // rows in the file differ from its offset interval's length
  kOffsetColumnMismatch,    // the offset column is missing, has nulls, or is not start..end
  kLogicalHashMisrecorded,  // the records' logical hash is not the recorded logicalHash
  // The Seed names another dataset id than VerifyOptions::expect_dataset_id (a pin's): another
  // dataset was put in the place of the one pinned.
  kDatasetIdMismatch,
  // An entry of a kamu workspace's folder of datasets that is not a dataset (a file, a folder
  // without refs/ nor blocks/, a link leaving the workspace): workspace.h.
  kNotADataset,
};

// Stable kebab-case name, e.g. "physical-hash-mismatch" (used in --json output).
const char* problem_kind_name(ProblemKind kind);

// Where a linked object is linked from: the first reference found (newest data file first,
// then column order, then row).
struct LinkRef {
  std::string data_file;  // "data/f1620..."
  std::string column;     // the column's path, "content_hash" or "a.b"
  uint64_t row = 0;       // row of the data file, from 0
};

// The unit of a problem's numeric expected and actual values: a size, a count of rows or of link
// values. kNone for a number that is its own unit (an offset, a sequence number) and for text.
enum class ProblemUnit { kNone, kBytes, kRows, kLinkValues };
// nullptr for kNone, else "bytes", "rows", "link-values" (the --json "unit").
const char* problem_unit_name(ProblemUnit unit);

// What a problem expected or found: nothing, a text (a hash, a dataset id, a column's name or
// format) or a number (a size, a count, an offset, a sequence number), which --json writes as a
// JSON number, Python as an int, and the C ABI in its *_number fields.
class ProblemValue {
 public:
  ProblemValue() = default;
  ProblemValue(std::string text);  // NOLINT: an empty text is no value
  ProblemValue(const char* text) : ProblemValue(std::string(text)) {}  // NOLINT
  static ProblemValue number(uint64_t n);

  bool empty() const { return std::holds_alternative<std::monostate>(v_); }
  bool is_number() const { return std::holds_alternative<uint64_t>(v_); }
  // The text, or "" for a number or nothing.
  const std::string& text() const;
  std::optional<uint64_t> as_number() const;
  // For people: the text, or the number and its unit ("39926 bytes", "3 rows", "5").
  std::string to_string(ProblemUnit unit = ProblemUnit::kNone) const;

  bool operator==(const ProblemValue& o) const { return v_ == o.v_; }

 private:
  std::variant<std::monostate, std::string, uint64_t> v_;
};

struct Problem {
  ProblemKind kind;
  std::optional<Multihash> block;           // the block concerned, when there is one
  std::optional<uint64_t> sequence_number;  // its sequence number, when known
  std::string file;                         // relative path ("data/f1620..."), may be empty
  ProblemValue expected;                    // expected value, may be empty
  ProblemValue actual;                      // actual value, may be empty
  std::string message;                      // one human sentence
  std::optional<LinkRef> link;              // linked-object and link problems
  ProblemUnit unit = ProblemUnit::kNone;    // of expected and actual, when they are numbers
};

// kLinkedObject: an object of data/ linked from a data file's ObjectLink column (RFC-017).
enum class FileRole { kData, kCheckpoint, kLinkedObject };
const char* file_role_name(FileRole role);  // "data" / "checkpoint" / "linked-object"

enum class FileOutcome {
  kPhysicalMatch,  // size and physical hash match
  kLogicalMatch,   // physical mismatch, logical hash matches (derivative fallback)
  kFailed,         // a Problem was reported for this file
};
const char* file_outcome_name(FileOutcome outcome);  // "physical-match", ...

// One data or checkpoint file check.
struct FileCheck {
  FileRole role;
  Multihash block;  // the newest block referencing the file
  uint64_t sequence_number = 0;
  std::string file;  // relative path
  FileOutcome outcome = FileOutcome::kFailed;
  // For kLogicalMatch: the physical hash found and the logical hash that matched.
  std::optional<Multihash> actual_physical;
  std::optional<Multihash> logical;
  // For a linked object that exists: its size in bytes (for the linkedObjects summary).
  std::optional<uint64_t> size;
};

// An entry of blocks/, data/ or checkpoints/ that the (complete) chain does not reference:
// a hash-named file no block names, a second spelling of a referenced hash, a name that is
// not a hash, a folder, a FIFO, a link... Listed, never opened.
struct UnreferencedEntry {
  std::string file;  // relative path ("data/f1620…", "blocks/notes.txt"); untrusted bytes
  ObjectKind kind = ObjectKind::kFile;  // links resolved as the store's policy says
  uint64_t size = 0;                    // bytes of a regular file (0 for any other kind)
  std::string link_target;              // kSymlink: where the link the store did not follow leads
  bool broken_link = false;             // kSymlink: a link that leads nowhere or loops
  // A name that is a multihash spelled another way: its canonical name ("f1620…"), which
  // is the only one kamu (and verification) looks for. Empty otherwise.
  std::string canonical_name;
};

// "file", "directory", "symlink", "fifo", "socket", "char-device", "block-device",
// "other": the stable names of ObjectKind in reports (JSON, Python, the C ABI).
const char* entry_kind_name(ObjectKind kind);
std::optional<ObjectKind> entry_kind_from_name(std::string_view name);

// What a verification covered, beyond "everything" (6. to 9. above): the trusted head, the
// incremental, sampled and deep modes. Default: a full verification with no trusted head.
struct VerifyScope {
  // VerifyOptions::expect_head, and where it was found (head_found: on the chain walked).
  std::optional<Multihash> expected_head;
  bool expected_head_found = false;
  std::optional<uint64_t> expected_head_sequence;  // its sequence number, when found
  // VerifyOptions::expect_dataset_id (a pin's), when given; whether the Seed was read and
  // named it is in DatasetReport::dataset_id and the problems (dataset-id-mismatch).
  std::optional<std::string> expected_dataset_id;
  // VerifyOptions::since, and whether the walk met it (then only the blocks above it, and
  // their files, were checked; since_sequence is its sequence number).
  std::optional<Multihash> since;
  bool since_found = false;
  std::optional<uint64_t> since_sequence;
  // The dataset kind was inferred from the events of the blocks read (the Seed was not
  // read: --since), not from the Seed.
  bool kind_inferred = false;
  bool deep = false;  // VerifyOptions::deep
  // Sampling (VerifyOptions::sample): files (data, checkpoints, linked objects) and their
  // recorded bytes checked out of those the chain walked references.
  bool sampled = false;
  uint64_t sample_seed = 0;
  std::string sample_spec;  // as given: "0.01", "25"
  uint64_t files_total = 0, files_checked = 0;
  uint64_t bytes_total = 0, bytes_checked = 0;
  // An ipfs:// or ipns:// dataset: the gateway it was read through (without user
  // information), and whether every block was checked against the URL's CID (false: read
  // trusting the gateway, StoreOptions::trust_gateway; skipped then says so too).
  std::string ipfs_gateway;
  bool ipfs_verified = false;
  // Checks not made, one sentence each (for reports and schedulers): what and why.
  std::vector<std::string> skipped;

  bool partial() const noexcept { return sampled || since_found; }
};

struct DatasetReport {
  std::string path;
  std::optional<Multihash> head;
  std::optional<DatasetKind> kind;  // from the Seed block, when reached
  // The dataset's id from the Seed block ("did:odf:fed01…"), when reached.
  std::optional<std::string> dataset_id;
  uint64_t blocks = 0;  // blocks read along the chain
  // True when the walk reached the seed. Unreferenced hash-named files are only reported
  // for a complete chain (otherwise every file below the break would look unreferenced).
  bool chain_complete = false;
  // False when the store cannot list its folders: unreferenced files were not looked for.
  bool unexpected_checked = true;
  // VerifyOptions::strict was set: every unreferenced entry is also an unexpected-file
  // problem.
  bool strict = false;
  std::vector<FileCheck> files;   // newest block first; data before checkpoint per block
  std::vector<Problem> problems;  // metadata, then files (newest first), then unexpected
  // Entries no block references, in path order (see 4. above): names that are not hashes
  // always, hash-named files only when the chain is complete; empty when not checked.
  std::vector<UnreferencedEntry> unreferenced;
  // What was checked and what was not (trusted head, --since, --sample, --deep).
  VerifyScope scope;

  bool valid() const noexcept { return problems.empty(); }
  // "VALID", "INVALID (2 problems)", "VALID (sampled: 3 of 40 files, 12.0 MiB of 900.0 MiB
  // read)", "VALID (since block 41: 1 new block, 2 files)": a partial pass is never a plain
  // VALID.
  std::string verdict() const;
  uint64_t logical_fallbacks() const noexcept;
  uint64_t unreferenced_bytes() const noexcept;  // the sizes of the unreferenced entries
  // Linked objects checked (files of role kLinkedObject) and those that matched.
  uint64_t linked_objects() const noexcept;
  uint64_t linked_objects_matched() const noexcept;
};

struct VerifyProgress {
  uint64_t files_done = 0;
  uint64_t files_total = 0;
  uint64_t bytes_done = 0;
  uint64_t bytes_total = 0;  // recorded sizes of the files to check
};

// The most threads verify_dataset hashes files on: a larger VerifyOptions::jobs is taken as
// this (each thread may hold 8 MiB of a remote object in memory). When the system refuses a
// thread, verification goes on with the threads it has.
inline constexpr unsigned kMaxVerifyJobs = 256;

struct VerifyOptions {
  unsigned jobs = 1;            // threads hashing files (0 means 1; at most kMaxVerifyJobs)
  bool integrity_only = false;  // no logical fallback for derivative data
  // Unreferenced entries are unexpected-file problems too (by default they are only listed
  // in DatasetReport::unreferenced and the dataset can be valid).
  bool strict = false;
  // How the dataset is opened (open_store.h): S3 endpoint, region, timeouts...; for a local
  // folder, store.follow_symlinks follows links leaving it (local_store.h). Setting
  // *store.cancel stops the verification: it then returns a kCancelled error, no report
  // (cancel.h).
  StoreOptions store;
  std::function<void(const VerifyProgress&)> progress;  // optional

  // Trust anchor: refs/head must be this block or a descendant of it (the block is on the
  // chain walked from refs/head), else a history-rewritten or head-not-found problem.
  std::optional<Multihash> expect_head;
  // The id of the dataset expected here ("did:odf:fed01…", as a pin file records it beside
  // the head): a Seed naming another id is a dataset-id-mismatch problem. Checked when the
  // walk reads the Seed; otherwise (--since, a broken chain) the scope says it was not.
  std::optional<std::string> expect_dataset_id;
  // Incremental: walk the chain only down to this block (a head verified before), check
  // the blocks above it and their files, and the link to it; nothing below it is read. Not
  // met before the seed: a history-rewritten problem, and everything walked is checked.
  std::optional<Multihash> since;
  // Check the records each data file's block describes (row count, offset column, logical
  // hash): see 8. above.
  bool deep = false;
  // Check the whole chain but only a random subset of the files, chosen by
  // (sample_seed, file hash), weighted by size: sample_fraction of the recorded bytes, or
  // sample_count files. sample_spec is the text shown in reports.
  std::optional<double> sample_fraction;
  std::optional<uint64_t> sample_count;
  uint64_t sample_seed = 0;
  std::string sample_spec;
};

// Verifies the dataset at `url_or_path`, a local folder or a URL, opened with options.store
// (DatasetDir::open). Returns an error only when verification could not run (the folder
// does not exist or is not readable, a folder cannot be listed, the server cannot be
// reached); every finding about the dataset is a Problem. The report's path is
// `url_or_path` without the user information of a URL (redact_url).
Result<DatasetReport> verify_dataset(const std::string& url_or_path,
                                     const VerifyOptions& options = {});

// Verifies an opened dataset of any store (options.store is not looked at).
Result<DatasetReport> verify_dataset(const DatasetDir& dir, const VerifyOptions& options = {});

// The metadata chain from head to seed, strictly: the first problem found (as
// verify_dataset would report it) is returned as a kParseError / kNotFound status.
Result<std::vector<ChainBlock>> read_chain(const DatasetDir& dir);

}  // namespace odf_hash::odf
