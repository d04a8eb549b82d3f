#include "fetch/fetch_object.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <memory>
#include <span>

#include "dataset/entry.h"
#include "odf_hash/core/sha3.h"
#include "odf_hash/core/text.h"
#include "odf_hash/internal/core/sha3_pool.h"
#include "odf_hash/io/physical.h"

namespace odf_hash::odf::fetch_detail {

namespace {

bool is_linked(const FileTask& t) {
  return t.role == FileRole::kLinkedObject;
}

// What the file must be: its recorded size (none for a linked object) and hash.
bool matches(const FileTask& t, const Multihash& hash, uint64_t size) {
  return hash == t.physical && (is_linked(t) || size == t.size);
}

Problem problem_of(const FileTask& t, ProblemKind kind, std::string message) {
  Problem p;
  p.kind = kind;
  p.block = t.block;
  p.sequence_number = t.sequence_number;
  p.file = t.file;
  p.message = std::move(message);
  p.link = t.link;
  return p;
}

// The bytes of an earlier fetch's partial object, into the hash (kIoError when unreadable).
Status hash_partial(const PartialFile& partial, PooledSha3_256& hash, std::span<uint8_t> buf,
                    const std::function<void(uint64_t)>& advance) {
  uint64_t off = 0;
  while (off < partial.size) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(buf.size(), partial.size - off));
    const ssize_t got = ::pread(partial.fd.get(), buf.data(), want, static_cast<off_t>(off));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return Status::io_error("cannot read the partial object " + partial.name);
    hash.update(buf.data(), static_cast<size_t>(got));
    off += static_cast<uint64_t>(got);
    advance(static_cast<uint64_t>(got));
  }
  return Status::ok();
}

struct Streamed {
  Status status;  // an error reading the source or writing DEST
  bool source_failed = false;
  Multihash hash{HashCode::kSha3_256, Digest256{}};
  uint64_t size = 0;         // bytes in the partial object at the end
  uint64_t transferred = 0;  // of them, read from the source now
};

// Appends the source's bytes from partial.size on to the partial object, hashing them after
// the partial object's own.
//
// Two buffers in turn: while the pool hashes one buffer's bytes (sha3_pool.h: absorbed with
// the other transfers' in the same permutations), this thread writes them and receives the
// next bytes into the other buffer (an HTTP reader copies libcurl's chunks straight there),
// instead of sleeping until its bytes are hashed while the next ones wait in the socket.
Streamed stream_into(ObjectReader& reader, PartialFile& partial, const std::string& shown,
                     uint8_t* buffer, const std::function<void(uint64_t)>& advance) {
  Streamed s;
  constexpr size_t kSlot = StreamBuffers::kSlot;
  const std::span<uint8_t> slots[2] = {{buffer, kSlot}, {buffer + kSlot, kSlot}};
  PooledSha3_256 hash;
  s.status = hash_partial(partial, hash, slots[0], advance);
  s.size = partial.size;
  for (size_t turn = 0; s.status.is_ok(); ++turn) {
    // Free: the last begin_update finished the run of its bytes (two turns ago) first.
    const std::span<uint8_t> slot = slots[turn % 2];
    // A fresh object is read as a stream; a resumed one from where its partial object ends.
    Result<size_t> got = partial.size == 0 ? reader.read(slot.data(), slot.size())
                                           : reader.read_at(s.size, slot.data(), slot.size());
    s.status = got.status();
    if (!s.status.is_ok()) {
      s.source_failed = true;
      break;
    }
    if (*got == 0) break;
    const std::span<const uint8_t> bytes = slot.first(*got);
    hash.begin_update(bytes);  // finishes the other slot's bytes first
    s.status = write_all(partial.fd.get(), bytes.data(), bytes.size(), shown);
    s.size += bytes.size();
    s.transferred += bytes.size();
    start_writeback(partial, s.size);
    advance(bytes.size());
  }
  s.hash = Multihash::sha3_256(hash.finalize());
  return s;
}

// The file is already in DEST under its final name and right.
bool present_and_right(DestFolder& dest, const FileTask& t, const std::string& key,
                       const std::function<void(uint64_t)>& advance, uint64_t* size) {
  auto opened = dest.open_final(key);
  if (!opened.is_ok() || !opened->has_value()) return false;
  uint64_t seen = 0;
  auto digest =
      physical_hash_fd((*opened)->get(), dest.path() + "/" + key, [&](uint64_t done, uint64_t) {
        advance(done - seen);
        seen = done;
        return true;
      });
  if (!digest.is_ok() || !matches(t, digest->hash, digest->size)) return false;
  *size = digest->size;
  return true;
}

}  // namespace

std::string dest_key(const FileTask& task) {
  return std::string(task.role == FileRole::kCheckpoint ? "checkpoints/" : "data/") +
         task.physical.to_string();
}

std::unique_ptr<uint8_t[]> StreamBuffers::take() {
  {
    std::lock_guard lock(mu_);
    if (!free_.empty()) {
      auto b = std::move(free_.back());
      free_.pop_back();
      return b;
    }
  }
  return std::make_unique_for_overwrite<uint8_t[]>(2 * kSlot);  // every byte read is written first
}

void StreamBuffers::give_back(std::unique_ptr<uint8_t[]> buffer) {
  std::lock_guard lock(mu_);
  free_.push_back(std::move(buffer));
}

ObjectOutcome fetch_object(const ObjectStore& source, DestFolder& dest, const FileTask& t,
                           StreamBuffers& buffers, const std::function<void(uint64_t)>& advance) {
  ObjectOutcome out;
  out.file.role = t.role;
  out.file.file = dest_key(t);
  out.file.size = t.size;
  const std::string what =
      is_linked(t)
          ? "the linked object"
          : "the " + std::string(t.role == FileRole::kCheckpoint ? "checkpoint" : "data file");
  auto reject = [&](ProblemKind kind, std::string message) {
    out.file.how = FetchedHow::kRejected;
    out.problem = problem_of(t, kind, std::move(message));
    return out;
  };

  uint64_t present_size = 0;
  if (present_and_right(dest, t, out.file.file, advance, &present_size)) {
    out.file.how = FetchedHow::kPresent;
    out.file.size = present_size;
    return out;
  }

  for (int attempt = 0; attempt < 2; ++attempt) {
    auto partial = dest.open_partial(t.physical.to_string());
    if (!partial.is_ok()) return reject(ProblemKind::kFileUnreadable, partial.status().message());
    if (!is_linked(t) && partial->size > t.size) {  // longer than the file: not a prefix of it
      (void)dest.discard_partial(*partial);
      continue;
    }
    const bool resumed = partial->size > 0;
    const uint64_t max_size = is_linked(t) ? std::numeric_limits<uint64_t>::max() : t.size;
    detail::EntryOpen entry = detail::open_entry(source, t.file, what, max_size);
    if (entry.fault != detail::EntryFault::kNone) {
      if (entry.fault == detail::EntryFault::kTooLarge) {
        Problem p =
            problem_of(t, ProblemKind::kSizeMismatch,
                       what + " is larger than its recorded size" +
                           (entry.info.size_at_least
                                ? " (more than " + std::to_string(entry.info.size) + " bytes)"
                                : std::string()) +
                           " (not transferred)");
        p.expected = ProblemValue::number(t.size);
        // Only a lower bound when the server announced no size: no actual value then.
        if (!entry.info.size_at_least) p.actual = ProblemValue::number(entry.info.size);
        p.unit = ProblemUnit::kBytes;
        out.file.how = FetchedHow::kRejected;
        out.problem = std::move(p);
        return out;
      }
      ProblemKind kind = detail::problem_kind_of(
          entry.fault, is_linked(t) ? ProblemKind::kLinkedObjectMissing : ProblemKind::kFileMissing,
          ProblemKind::kFileUnreadable);
      return reject(kind, entry.message);
    }
    if (!is_linked(t) && entry.reader->size() != t.size) {
      Problem p = problem_of(t, ProblemKind::kSizeMismatch,
                             what + " has another size than recorded (not transferred)");
      p.expected = ProblemValue::number(t.size);
      p.actual = ProblemValue::number(entry.reader->size());
      p.unit = ProblemUnit::kBytes;
      out.file.how = FetchedHow::kRejected;
      out.problem = std::move(p);
      return out;
    }
    const std::string shown = dest.path() + "/" + kPrivateFolder + "/" + partial->name;
    std::unique_ptr<uint8_t[]> buffer = buffers.take();
    Streamed s = stream_into(*entry.reader, *partial, shown, buffer.get(), advance);
    buffers.give_back(std::move(buffer));
    out.file.bytes_transferred += s.transferred;
    if (!s.status.is_ok()) {  // kept: the next fetch resumes it
      return reject(ProblemKind::kFileUnreadable,
                    std::string(s.source_failed ? "cannot read " + what + " from the source: "
                                                : "cannot store " + what + ": ") +
                        s.status.message());
    }
    if (matches(t, s.hash, s.size)) {
      Status committed = dest.commit_partial(*partial, out.file.file);
      if (!committed.is_ok()) return reject(ProblemKind::kFileUnreadable, committed.message());
      out.file.how = resumed ? FetchedHow::kResumed : FetchedHow::kTransferred;
      out.file.size = s.size;
      return out;
    }
    (void)dest.discard_partial(*partial);
    if (resumed) continue;  // the earlier bytes may be the wrong ones: once more from 0
    Problem p = problem_of(
        t,
        is_linked(t) ? ProblemKind::kLinkedObjectHashMismatch : ProblemKind::kPhysicalHashMismatch,
        what +
            "'s bytes do not hash to the recorded physical hash: "
            "rejected, not stored");
    p.expected = t.physical.to_string();
    p.actual = s.hash.to_string();
    out.file.how = FetchedHow::kRejected;
    out.problem = std::move(p);
    return out;
  }
  return reject(ProblemKind::kFileUnreadable, "cannot fetch " + what + ": internal retry limit");
}

}  // namespace odf_hash::odf::fetch_detail
