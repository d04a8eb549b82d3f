// Obtaining a dataset: copies an ODF dataset from any location verify reads (a folder, s3://,
// http(s)://, ipfs://; open_store.h) into a local dataset folder, keeping only what verifies.
// The spec's first scenario: a file obtained from an untrusted source is hashed and compared
// with the hash its metadata records, and a mismatch is rejected.
//
// What the destination holds, at every instant: a valid dataset at some head (its old head,
// or none), plus files that verified and, under the private folder DEST/.odf-hash-fetch/,
// partial objects. Nothing unverified ever gets a final name:
//  1. the source's chain is walked from its refs/head down to DEST's head (or to the seed) and
//     checked as verify checks it (block hashes, links, sequence numbers, offsets, the trusted
//     head and dataset id); any problem rejects the fetch before a byte is written;
//  2. every data file, checkpoint and linked object the new blocks reference is streamed into
//     .odf-hash-fetch/<name>.partial while its SHA3-256 is computed, and renamed to
//     data/<name> or checkpoints/<name> only when its size and physical hash are the recorded
//     ones (a linked object: its name). Derivative data gets no logical fallback here: the
//     bytes obtained must be the bytes recorded. A file already in DEST under its final name is
//     hashed and kept when it matches (replaced by the verified copy when it does not);
//  3. only when every file verified, the new blocks are written (the bytes read in 1., each
//     hashing to its name), oldest first, then refs/head, atomically (rename), last.
// An interrupted fetch (cancelled, a network failure) leaves DEST at its old head; a partial
// object is resumed from where it stopped (range reads) by the next fetch. Two fetches into
// one DEST at once: the second is refused (a lock file in .odf-hash-fetch/).
//
// Incremental: when DEST holds a dataset, only the blocks above its head are fetched, with
// their files. A source whose chain does not contain DEST's head is refused as a rewritten
// history (history-rewritten, naming both heads) unless `force`: then the whole chain is
// fetched and checked, and DEST's head moves to the source's (its old blocks and files stay,
// unreferenced). A source whose head is an ancestor of DEST's head has nothing to give (DEST
// is ahead): nothing is written.
//
// Every name written is made with openat() below a descriptor of DEST, without following
// links (O_NOFOLLOW): a link planted in DEST (data -> /etc) is an error, never written through.
//
// Thread safety: fetch_dataset is reentrant; it transfers files on `jobs` threads and calls
// `progress` from them (serialised).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "odf_hash/core/multihash.h"
#include "odf_hash/core/status.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/odf/verify.h"

namespace odf_hash::odf {

struct FetchProgress {
  uint64_t files_done = 0, files_total = 0;
  uint64_t bytes_done = 0;   // bytes of the files handled so far (transferred, resumed or read)
  uint64_t bytes_total = 0;  // the recorded sizes of the files to fetch
};

struct FetchOptions {
  unsigned jobs = 1;  // files transferred at once (0 means 1; at most kMaxVerifyJobs)
  // How the source is opened (open_store.h); *store.cancel stops the fetch (kCancelled, DEST
  // at its old head, partial objects kept for the next fetch).
  StoreOptions store;
  // Trust anchors, as verify's (VerifyOptions): the source's refs/head must be this block or
  // a descendant of it; its Seed must name this dataset id.
  std::optional<Multihash> expect_head;
  std::optional<std::string> expect_dataset_id;
  // Accept a source whose history does not contain DEST's head (see the top).
  bool force = false;
  std::function<void(const FetchProgress&)> progress;  // optional
};

// How a file reached DEST.
enum class FetchedHow {
  kTransferred,  // streamed from the source, verified, renamed into place
  kResumed,      // a partial object of an earlier fetch, completed from the source
  kPresent,      // already in DEST under its final name, hashed and found right
  kRejected,     // did not verify: not stored (a Problem says why)
};
const char* fetched_how_name(FetchedHow how);  // "transferred", "resumed", "present", "rejected"

struct FetchedFile {
  FileRole role = FileRole::kData;
  std::string file;  // "data/<name>", the key in DEST (and the source)
  uint64_t size = 0;
  FetchedHow how = FetchedHow::kTransferred;
  uint64_t bytes_transferred = 0;  // bytes read from the source
};

struct FetchReport {
  std::string source;  // as given, without a URL's user information (redact_url)
  std::string dest;
  std::optional<Multihash> source_head;
  std::optional<uint64_t> source_sequence;  // the source head's sequence number
  // The dataset's id from its Seed ("did:odf:fed01…"), when the walk reached it (a first
  // fetch, a forced one; not an incremental one, which stops at DEST's head).
  std::optional<std::string> dataset_id;
  std::optional<Multihash> old_head;  // DEST's head before the fetch (none: empty)
  std::optional<uint64_t> old_sequence;
  std::optional<Multihash> head;   // DEST's head after (old_head unless fetched)
  uint64_t blocks_fetched = 0;     // new blocks written
  bool up_to_date = false;         // DEST was already at the source's head
  bool dest_ahead = false;         // the source's head is an ancestor of DEST's
  bool forced = false;             // a rewritten history accepted (FetchOptions::force)
  std::vector<FetchedFile> files;  // newest block first, as verify orders them
  // Why the fetch was rejected (the chain's problems, the files that did not verify); empty
  // when DEST now is at the source's head.
  std::vector<Problem> problems;
  // Checks not made (an ipfs:// gateway trusted, linked objects below DEST's head...).
  std::vector<std::string> skipped;

  bool fetched() const noexcept { return problems.empty(); }
  // Some problem is about content that did not verify (a chain that does not check, a file
  // whose size or hash is not the recorded one, a rewritten history), not only files that
  // could not be read (missing, a transfer that failed: the next fetch resumes them).
  bool rejected() const noexcept;
  uint64_t bytes_transferred() const noexcept;
  // "FETCHED (3 new blocks, 5 files, 12.3 MiB transferred)", "UP TO DATE", "UP TO DATE
  // (the destination is ahead of the source)", "REJECTED (2 problems)", "INCOMPLETE (1 file
  // could not be read)".
  std::string verdict() const;
};

// Fetches the dataset at `source` into the local folder `dest` (made when missing; an
// existing folder must be empty or a dataset). Errors (nothing fetched, DEST untouched but
// for partial objects): the source cannot be opened or read (unreachable, no dataset there),
// DEST is not a folder, is another kind of dataset folder, cannot be written, or is locked
// by another fetch; kCancelled. Everything about the source's content is a Problem.
Result<FetchReport> fetch_dataset(const std::string& source, const std::string& dest,
                                  const FetchOptions& options = {});

}  // namespace odf_hash::odf
