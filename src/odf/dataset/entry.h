// Internal: opening the entries of a dataset (refs/head, blocks, data and checkpoint files)
// through its store, and saying in one sentence why one cannot be read.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "odf_hash/internal/io/bytes_reader.h"
#include "odf_hash/io/store.h"
#include "odf_hash/odf/dataset.h"
#include "odf_hash/odf/verify.h"

namespace odf_hash::odf::detail {

enum class EntryFault {
  kNone,
  kMissing,         // nothing at that key
  kNotRegularFile,  // a directory, a FIFO, a device...: never opened
  kLinkOutside,     // a symbolic link the store did not follow (it leaves the dataset)
  kTooLarge,        // larger than the caller's bound: not read (info.size says how large)
  kUnreadable,      // permission denied, I/O error, changed while being opened
};

struct EntryOpen {
  EntryFault fault = EntryFault::kNone;
  ObjectInfo info;
  std::unique_ptr<ObjectReader> reader;  // set when fault == kNone
  std::string message;                   // one sentence about the entry, for a fault
};

// Opens `rel` of `dir`, a regular file of at most `max_size` bytes; `what` names it at the
// start of the fault sentences ("the data file", "refs/head").
EntryOpen open_entry(const DatasetDir& dir, const std::string& rel, const std::string& what,
                     uint64_t max_size);
// The same over a store (the per-file checks, which need no listing).
EntryOpen open_entry(const ObjectStore& store, const std::string& rel, const std::string& what,
                     uint64_t max_size);

// "<what> is a FIFO (named pipe), not a regular file: it was not opened", or for a link that
// was not followed, where it goes (escaped) and how to follow it anyway.
std::string not_a_file_sentence(const std::string& what, const std::string& rel,
                                const ObjectInfo& info);

// The problem kind of a fault for an entry whose missing / unreadable kinds are given.
ProblemKind problem_kind_of(EntryFault fault, ProblemKind missing, ProblemKind unreadable);

// "" when `misnamed_key` is empty, else the end of a missing-file sentence saying that this
// key holds the hash under a non-canonical name (which is not accepted as the file).
std::string misnamed_hint(const std::string& misnamed_key);
std::string misnamed_hint(const std::optional<DatasetFile>& misnamed);

// Bytes already read, served as an object (internal/io/bytes_reader.h).
using BytesReader = io_internal::BytesReader;

// refs/head read and decoded, or the problem that reports why not.
struct HeadRead {
  std::optional<Multihash> hash;
  ProblemKind problem = ProblemKind::kHeadInvalid;  // when !hash
  std::string message;
};
HeadRead read_head(const DatasetDir& dir);

}  // namespace odf_hash::odf::detail
