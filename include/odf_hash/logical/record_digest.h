// Digests of single records, and an order-independent digest of a table built from them
// ("unordered-sha3-256"). NOT the ODF logical hash (arrow0-sha3-256, logical.h): ODF metadata
// records arrow0, which depends on row order, column order and (through the reference) on
// bytes under null struct slots. These digests answer other questions: are two rows the
// same record? do two tables hold the same multiset of records, in any order?
//
// The exact bytes are written in docs/unordered-digest.md, so that another implementation
// can reproduce them. In short: a record's digest is the SHA3-256 of its values, top-level
// fields taken in byte order of their names, each value 0x00 (null, and nothing under it) or
// 0x01 followed by its bytes; encodings of one logical type (Utf8 / LargeUtf8 / Utf8View,
// dictionary, run-end encoded, list views) give the same bytes. The table digest is the
// SHA3-256 of a version tag, the canonical schema, the record count and the sum of the
// record digests as 256-bit little-endian integers (mod 2^256), which does not depend on
// the order of the records and is computed in constant memory.
//
// Input: the Arrow C Data Interface, as for LogicalHasher (only read during each call; the
// caller keeps ownership). Types: those LogicalHasher accepts.
//
// Thread safety: a RecordDigester is immutable after create(); digest_rows may be called
// from several threads at once. An UnorderedDigest must not be shared between threads.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "odf_hash/arrow_c_data.h"
#include "odf_hash/core/sha3.h"
#include "odf_hash/core/status.h"

namespace odf_hash {

class RecordDigester {
 public:
  // `schema` is a record schema ("+s"). Errors as LogicalHasher::create. `fields`, when not
  // empty, restricts the records to the top-level fields of those names (a name absent from
  // the schema is an error): for comparing two tables on the columns they share.
  static Result<RecordDigester> create(const ArrowSchema& schema,
                                       const std::vector<std::string>& fields = {});

  RecordDigester(RecordDigester&&) noexcept;
  RecordDigester& operator=(RecordDigester&&) noexcept;
  ~RecordDigester();

  // Appends to `out` the digests of the records [begin, begin + count) of `batch` (a struct
  // array of the schema, as a record stream yields it). The batch is validated first (as
  // LogicalHasher::update does); a malformed batch is an error and appends nothing.
  Status digest_rows(const ArrowArray& batch, int64_t begin, int64_t count,
                     std::vector<Digest256>& out) const;

  // Replaces `bytes` with the bytes digest_rows hashes for the records [begin, begin + count)
  // of `batch` (validated as there), one record after the other, and `ends` with where each
  // record's bytes end: records are equal exactly when their bytes are, so short ones can be
  // matched without hashing them.
  Status encode_rows(const ArrowArray& batch, int64_t begin, int64_t count,
                     std::vector<uint8_t>& bytes, std::vector<uint64_t>& ends) const;

  // The canonical schema bytes the table digest starts with (docs/unordered-digest.md).
  const std::vector<uint8_t>& schema_bytes() const;

 private:
  struct Impl;
  explicit RecordDigester(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The bytes one column contributes to a record digest, row by row (a struct member is null
// where one of its parent structs is): for comparing two tables' rows column by column
// without hashing them.
class ColumnValueEncoder {
 public:
  // `schema` is a record schema ("+s"); `child_path` leads from it to the column (child
  // indices; members of structs below the first). Errors as RecordDigester::create, or a
  // path that names no column.
  static Result<ColumnValueEncoder> create(const ArrowSchema& schema,
                                           const std::vector<int>& child_path);

  ColumnValueEncoder(ColumnValueEncoder&&) noexcept;
  ColumnValueEncoder& operator=(ColumnValueEncoder&&) noexcept;
  ~ColumnValueEncoder();

  // Validates the rows [begin, begin + count) of `batch` (as digest_rows does); then
  // encode_row may read any of them.
  Status check(const ArrowArray& batch, int64_t begin, int64_t count) const;
  // Replaces `out` with the bytes of the column at `row` of a checked batch; false when a
  // string or binary view there points outside its data buffers (views are not checked by
  // check(): they are checked as they are read).
  [[nodiscard]] bool encode_row(const ArrowArray& batch, int64_t row,
                                std::vector<uint8_t>& out) const;

 private:
  struct Impl;
  explicit ColumnValueEncoder(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The order-independent accumulator: add every record digest, in any order.
class UnorderedDigest {
 public:
  void add(const Digest256& record);
  // Adds another accumulator's records (sums of parts, e.g. of batches hashed apart).
  void merge(const UnorderedDigest& other);
  uint64_t count() const { return count_; }
  // The sum of the digests added, 32 bytes little-endian.
  Digest256 sum() const;
  // SHA3-256("odf-hash-unordered-v1\n" || schema_bytes || u64le count || sum).
  Digest256 finalize(const std::vector<uint8_t>& schema_bytes) const;

 private:
  std::array<uint64_t, 4> sum_{};
  uint64_t count_ = 0;
};

// "unordered-sha3-256:" followed by 64 lower-case hex digits: how the table digest is shown
// (never as an ODF multihash, which it is not).
std::string unordered_digest_string(const Digest256& digest);

// The order-independent digest of a record stream (a struct-typed stream, as for
// logical_hash_stream) and its record count. Consumes (releases) the stream. Once *cancel is
// set (cancel.h; may be null) it stops between batches with a kCancelled error.
struct UnorderedStreamDigest {
  Digest256 digest{};
  uint64_t rows = 0;
};
Result<UnorderedStreamDigest> unordered_digest_stream(ArrowArrayStream* stream,
                                                      const std::atomic<bool>* cancel = nullptr);

}  // namespace odf_hash
