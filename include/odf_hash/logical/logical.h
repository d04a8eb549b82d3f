// Logical hashing: arrow0-sha3-256, the ODF "logical hash" of records.
//
// Input is the Arrow C Data Interface (include/odf_hash/arrow_c_data.h). The result is
// byte-for-byte the digest of the reference implementation, the Rust crate arrow-digest
// (RecordDigestV0<Sha3_256> / ArrayDigestV0<Sha3_256>), on every input the reference
// accepts; docs/divergences.md lists where the reference and the spec text disagree and
// what odf-hash does for inputs the reference cannot hash.
//
// Ownership: unless a function says it consumes a struct, odf-hash only reads the
// ArrowSchema / ArrowArray it is given during the call and never calls their release
// callbacks; the caller releases them. Functions taking an ArrowArrayStream* consume it:
// they release the stream (and every array and schema pulled from it) before returning.
//
// Bytes hashed: exactly the spec's "Logical Hashing Algorithm" (type bytes, then values;
// schema names and levels, then leaf digests) with the reference's departures from the spec
// text; docs/divergences.md lists them (notably the reference's rule for combining null
// bitmaps of nested structs, which makes values under nulls count in some cases, and which
// odf-hash reproduces).
//
// Input validation: the C Data Interface carries no buffer sizes (except the variadic sizes
// of view arrays). odf-hash checks everything the interface lets it check before reading
// (buffer and child counts, lengths and offsets at every level, offsets buffers, dictionary
// indices, run ends, views, null counts against bitmaps) and returns an error rather than
// reading out of bounds; but it cannot know where a values or data buffer ends. Callers
// must pass arrays that are valid Arrow (odf-hash's own readers run Arrow's ValidateFull
// before exporting). `null_count` may be -1 (unknown); it is then counted from the bitmap.
//
// Thread safety: a hasher object must not be used from two threads at once; distinct
// hashers are independent. A hasher may run its own worker threads (LogicalHashOptions);
// they only work during update() and finalize(), and are joined when the hasher is destroyed.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "odf_hash/arrow_c_data.h"
#include "odf_hash/core/multihash.h"
#include "odf_hash/core/sha3.h"
#include "odf_hash/core/status.h"

namespace odf_hash {

// Digest of one leaf column, as fed into the combined digest.
struct ColumnDigest {
  std::string path;  // field names from the top level down, joined with '.'
  std::string type;  // Arrow format string of the leaf (e.g. "l", "u", "+l")
  Digest256 digest{};
  // Bytes this column fed to its SHA3-256 stream: its type bytes and every value as hashed
  // (for measuring against the Keccak rate; not part of any digest).
  uint64_t hashed_bytes = 0;
  // Empty when the reference (arrow-digest, which kamu uses) can hash this column's type;
  // otherwise why it cannot ("dictionary-encoded", "Null type", "run-end encoded", "list
  // view"; docs/divergences.md section 5): odf-hash hashes those as the spec text says, but
  // kamu panics on them, so it can never check a hash that covers such a column.
  std::string reference_gap;
  // Empty unless the hash depends on something the data does not show, which the user may
  // not mean to hash (a trap, warned about as reference gaps are): a time zone that is
  // another name of UTC ("Etc/UTC": the same instants under "UTC" hash otherwise), or bytes
  // under null slots (a nullable struct above this column and the column both held nulls
  // in a batch: by the reference's rule, docs/divergences.md section 1, the hash then
  // depends on the bytes under null slots and on the batch split, which another reader or a
  // file round trip changes).
  std::string hash_note;
};

struct LogicalDigest {
  Digest256 digest{};                 // the arrow0-sha3-256 digest
  std::vector<ColumnDigest> columns;  // depth-first leaf order, as combined
  uint64_t num_rows = 0;              // rows hashed across all batches
  Multihash multihash() const { return Multihash::arrow0_sha3_256(digest); }
  // Whether the reference could compute this hash: no column has a reference_gap.
  bool reference_compatible() const {
    for (const auto& c : columns) {
      if (!c.reference_gap.empty()) return false;
    }
    return true;
  }
};

// The columns of one record stream hashed apart: `digest` is what logical_hash_stream (or
// LogicalHasher) returned for a stream holding only the top-level fields `fields` of the
// whole schema (indices into its children, ascending, each once), in the same order.
struct FieldsDigest {
  std::vector<int> fields;
  LogicalDigest digest;
};

// How the logical hasher spends CPU. The digests never depend on these options: every
// setting gives the same combined and column digests as the serial path.
struct LogicalHashOptions {
  // Threads hashing the leaf columns of a batch at the same time, the caller's included.
  // 1 (the default) hashes on the calling thread only and starts no thread. 0 means one per
  // core. More threads than leaf columns are not started. With more than one thread,
  // logical_hash_stream also reads the next batch (get_next) on a thread of its own while
  // the current one is hashed, so at most two batches are held at a time.
  // Each column's digest state is touched by one thread at a time; columns are balanced
  // across threads by the bytes they hash in each batch, so a table with one huge column
  // gains little.
  unsigned threads = 1;

  // Multi-lane Keccak (sha3_multi.h): groups of leaf columns absorbed together, one group per
  // thread at a time: up to eight columns with 8-lane AVX-512 Keccak at the kAvx512 level, up
  // to four with 4-lane AVX2 Keccak below.
  //   kAuto: when the multi-lane level (multi_lane_level()) is AVX2 or AVX-512, where it is
  //          faster;
  //   kOff:  every column through its own single-stream Sha3_256, one at a time;
  //   kOn:   at whatever level multi_lane_level() says, even where it is slower (tests).
  enum class MultiLane { kAuto, kOff, kOn };
  MultiLane multi_lane = MultiLane::kAuto;

  // Set (from any thread) to stop hashing a stream or file between record batches with a
  // kCancelled error (cancel.h). Null: never cancelled. Never changes a result.
  const std::atomic<bool>* cancel = nullptr;
};

// Hash of a record stream (the reference's record digest). The schema must be a struct
// ("+s") whose children are the columns.
class LogicalHasher {
 public:
  // Validates the schema (every leaf type supported) and hashes it. Errors name the
  // column path and its type: kUnsupported for Interval, Duration, Map, Union and structs
  // inside lists; kInvalidArgument for malformed schemas. The schema is only read during
  // the call. `options` choose threads and multi-lane Keccak, never the result.
  static Result<LogicalHasher> create(const ArrowSchema& schema,
                                      const LogicalHashOptions& options = {});

  LogicalHasher(LogicalHasher&&) noexcept;
  LogicalHasher& operator=(LogicalHasher&&) noexcept;
  ~LogicalHasher();

  // Absorbs one record batch: a struct array matching the schema (as exported by
  // ExportRecordBatch; its offset applies to its children; it must have no null rows).
  // Buffers are validated against lengths and offsets before they are read; a malformed
  // array is an error and leaves the hasher unusable (further calls return the same error).
  // The batch is only read during the call; the caller keeps ownership and releases it.
  // With options.threads > 1 the batch's columns are read from several threads during the
  // call (the caller must not modify them meanwhile).
  Status update(const ArrowArray& batch);

  // The combined digest and every leaf column's digest. Consumes the hasher.
  Result<LogicalDigest> finalize() &&;

 private:
  friend Result<LogicalDigest> combine_fields_digests(const ArrowSchema&,
                                                      std::vector<FieldsDigest>);
  // combine_fields_digests over this hasher's schema (nothing hashed). Consumes the hasher.
  Result<LogicalDigest> combine_parts(std::vector<FieldsDigest> parts) &&;
  struct Impl;
  explicit LogicalHasher(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Hash of a single column (the reference's array digest): the type, then the values.
// Struct columns are rejected (kUnsupported): LogicalHasher flattens them.
class ArrayHasher {
 public:
  static Result<ArrayHasher> create(const ArrowSchema& field);

  ArrayHasher(ArrayHasher&&) noexcept;
  ArrayHasher& operator=(ArrayHasher&&) noexcept;
  ~ArrayHasher();

  Status update(const ArrowArray& array);
  Result<Digest256> finalize() &&;

 private:
  struct Impl;
  explicit ArrayHasher(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// One-shot over a stream. Consumes (releases) the stream. The stream's callbacks are never
// called concurrently: get_schema on the calling thread; with options.threads > 1, get_next
// and get_last_error on one reader thread (joined before returning), and every array it
// produced is released before returning, on every path (errors included). An error from
// get_next, or in a batch, is the same Status whatever the options.
Result<LogicalDigest> logical_hash_stream(ArrowArrayStream* stream,
                                          const LogicalHashOptions& options = {});

// The digest of a record stream whose top-level fields were hashed in separate streams
// (`parts`, covering every field exactly once, in any order): the same LogicalDigest as
// logical_hash_stream over the whole stream (combined digest, every leaf column in
// depth-first order, num_rows), computed by the same code as LogicalHasher::finalize. A
// column's digest depends on its own values only (and the batch boundaries, which a
// projection of the same stream keeps), so each part may be hashed on its own thread.
// `schema` is the whole record schema ("+s"), only read. Errors (kInvalidArgument): a
// malformed or unsupported schema (as LogicalHasher::create), a field missing or covered
// twice, a part whose columns do not match its fields' leaves (count, path, type), or
// parts with different row counts.
Result<LogicalDigest> combine_fields_digests(const ArrowSchema& schema,
                                             std::vector<FieldsDigest> parts);

// What an outside Arrow producer hands over, hashed whatever its shape: the entry point of
// the bindings (C ABI, Python). A struct-typed schema ("+s", as record batches are exported)
// is hashed as records (logical_hash_stream / LogicalHasher: the ODF logical hash of a
// table); any other type as one column (array_hash_stream / ArrayHasher: the reference's
// ArrayDigestV0), reported as a LogicalDigest whose digest is the column's, with one column
// of empty path and num_rows the number of values. The stream is consumed as by
// logical_hash_stream; the array and schema are only read.
Result<LogicalDigest> logical_hash_any_stream(ArrowArrayStream* stream,
                                              const LogicalHashOptions& options = {});
Result<LogicalDigest> logical_hash_any_array(const ArrowSchema& schema, const ArrowArray& array,
                                             const LogicalHashOptions& options = {});

// One-shot over a stream of single-column arrays (the chunks of one column, of any
// non-struct type): ArrayHasher over every array in stream order, on the calling thread.
// Consumes (releases) the stream. For a top-level column of a table this is the same digest
// as that column's entry in LogicalDigest::columns. A struct-typed stream is kUnsupported
// (hash it as records with logical_hash_stream).
Result<Digest256> array_hash_stream(ArrowArrayStream* stream);

}  // namespace odf_hash
