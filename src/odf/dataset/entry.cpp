// Opening dataset entries through the store (entry.h).
#include "entry.h"

#include <utility>

#include "odf_hash/core/multibase.h"
#include "odf_hash/core/text.h"

namespace odf_hash::odf::detail {

namespace {

// A head is about 70 characters; anything past 4 KiB is not a hash and is not read.
constexpr uint64_t kMaxHeadBytes = 4096;
// Untrusted text quoted in a message: enough to recognise it, never a file's content.
constexpr size_t kQuotedChars = 40;
// A link target is a path, not content: quoted longer, still bounded and escaped.
constexpr size_t kQuotedPathChars = 160;

}  // namespace

std::string not_a_file_sentence(const std::string& what, const std::string& rel,
                                const ObjectInfo& info) {
  if (info.kind != ObjectKind::kSymlink) {
    return what + " is a " + object_kind_name(info.kind) +
           ", not a regular file: it was not opened";
  }
  std::string link = "\"" + escape_untrusted(info.link_target, kQuotedPathChars) + "\"";
  std::string s = info.link_key.empty() || info.link_key == rel
                      ? what + " is a symbolic link to " + link
                      : what + " is reached through the symbolic link " +
                            escape_untrusted(info.link_key, kQuotedPathChars) + " -> " + link;
  return s + ", which leaves the dataset folder: not followed (--follow-symlinks follows it)";
}

EntryOpen open_entry(const DatasetDir& dir, const std::string& rel, const std::string& what,
                     uint64_t max_size) {
  return open_entry(dir.store(), rel, what, max_size);
}

EntryOpen open_entry(const ObjectStore& store, const std::string& rel, const std::string& what,
                     uint64_t max_size) {
  EntryOpen out;
  OpenOptions options;
  options.max_size = max_size;
  auto opened = store.open(rel, options);
  if (!opened.is_ok()) {
    const Status& st = opened.status();
    out.fault = st.code() == StatusCode::kNotFound ? EntryFault::kMissing : EntryFault::kUnreadable;
    out.message = "cannot read " + what + ": " + st.message();
    return out;
  }
  out.info = std::move(opened->info);
  if (out.info.kind == ObjectKind::kSymlink) {
    out.fault = EntryFault::kLinkOutside;
    out.message = not_a_file_sentence(what, rel, out.info);
  } else if (out.info.kind != ObjectKind::kFile) {
    out.fault = EntryFault::kNotRegularFile;
    out.message = not_a_file_sentence(what, rel, out.info);
  } else if (!opened->reader) {
    out.fault = EntryFault::kTooLarge;
  } else {
    out.reader = std::move(opened->reader);
  }
  return out;
}

std::string misnamed_hint(const std::optional<DatasetFile>& misnamed) {
  return misnamed_hint(misnamed ? misnamed->rel_path : std::string());
}

std::string misnamed_hint(const std::string& misnamed_key) {
  if (misnamed_key.empty()) return "";
  return " under its canonical name; " + escape_untrusted(misnamed_key, kQuotedPathChars) +
         " holds the same hash under another spelling, which kamu does not open (only the "
         "canonical name counts)";
}

ProblemKind problem_kind_of(EntryFault fault, ProblemKind missing, ProblemKind unreadable) {
  switch (fault) {
    case EntryFault::kMissing: return missing;
    case EntryFault::kNotRegularFile: return ProblemKind::kNotRegularFile;
    case EntryFault::kLinkOutside: return ProblemKind::kLinkOutside;
    case EntryFault::kNone:
    case EntryFault::kTooLarge:
    case EntryFault::kUnreadable: return unreadable;
  }
  return unreadable;
}

HeadRead read_head(const DatasetDir& dir) {
  HeadRead out;
  EntryOpen e = open_entry(dir, "refs/head", "refs/head", kMaxHeadBytes);
  if (e.fault == EntryFault::kMissing) {
    out.problem = ProblemKind::kHeadMissing;
    out.message = "refs/head does not exist";
    return out;
  }
  if (e.fault == EntryFault::kTooLarge) {
    out.problem = ProblemKind::kHeadInvalid;
    out.message = "refs/head is " + std::string(e.info.size_at_least ? "more than " : "") +
                  std::to_string(e.info.size_at_least ? e.info.size - 1 : e.info.size) +
                  " bytes long: far too long for a hash, not read";
    return out;
  }
  if (e.fault != EntryFault::kNone) {
    out.problem = problem_kind_of(e.fault, ProblemKind::kHeadMissing, ProblemKind::kFileUnreadable);
    out.message = std::move(e.message);
    return out;
  }
  auto bytes = read_all(*e.reader);
  if (!bytes.is_ok()) {
    out.problem = ProblemKind::kFileUnreadable;
    out.message = "cannot read refs/head: " + bytes.status().message();
    return out;
  }
  std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  auto is_space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  out.problem = ProblemKind::kHeadInvalid;
  const std::string quoted = "\"" + escape_untrusted(text, kQuotedChars) + "\"";
  if (text.empty()) {
    out.message = "refs/head is empty: it holds no hash";
    return out;
  }
  if (text.size() > kMaxMultihashTextLength) {
    out.message = "refs/head does not hold a multihash: " + quoted + " is " +
                  std::to_string(text.size()) + " characters long, too long for a hash";
    return out;
  }
  auto raw = multibase::decode(text);
  if (!raw.is_ok()) {
    out.message = "refs/head does not hold a multihash: " + quoted + ": " + raw.status().message();
    return out;
  }
  auto hash = Multihash::from_bytes(*raw);
  if (!hash.is_ok()) {
    out.message = "refs/head does not hold a multihash: " + quoted + ": " + hash.status().message();
    return out;
  }
  out.hash = *hash;
  return out;
}

}  // namespace odf_hash::odf::detail
