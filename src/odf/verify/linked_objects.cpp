// scan_links (linked_objects.h).
#include "linked_objects.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "dataset/entry.h"
#include "odf_hash/core/text.h"
#include "odf_hash/internal/io/string_columns.h"
#include "odf_hash/io/store.h"
#include "odf_hash/remote/open_store.h"

namespace odf_hash::odf::detail {

namespace {

// At most this many link-malformed problems per data file; the rest are counted in one more.
constexpr uint64_t kMaxMalformedPerFile = kMaxLinkProblemsPerFile;

// Data files at most this large are read whole when the store cannot read ranges of them.
constexpr uint64_t kWholeReadLimit = 256u << 20;

// The bytes of `key` (of `size` bytes), read sequentially.
Result<std::vector<uint8_t>> read_whole(const ObjectStore& store, const std::string& key,
                                        uint64_t size) {
  EntryOpen entry = open_entry(store, key, "the data file", size);
  if (entry.fault != EntryFault::kNone) return Status::io_error(entry.message);
  std::vector<uint8_t> bytes(entry.reader->size());
  size_t done = 0;
  while (done < bytes.size()) {
    ODF_HASH_ASSIGN_OR_RETURN(size_t n,
                              entry.reader->read(bytes.data() + done, bytes.size() - done));
    if (n == 0) return Status::io_error(key + ": ended early");
    done += n;
  }
  return bytes;
}

std::string hash_key(const Multihash& h) {
  auto b = h.to_bytes();
  return std::string(b.begin(), b.end());
}

}  // namespace

LinkScan scan_links(const DatasetDir& dir, const std::vector<ChainBlock>& blocks,
                    const FileTask& common, uint64_t first_id) {
  LinkScan scan;
  // The SetDataSchema in effect at each block: walked from the seed up.
  std::vector<const DataSchemaInfo*> schema_at(blocks.size(), nullptr);
  const DataSchemaInfo* current = nullptr;
  for (size_t i = blocks.size(); i-- > 0;) {
    if (blocks[i].block.data_schema) current = &*blocks[i].block.data_schema;
    schema_at[i] = current;
  }
  std::map<std::string, uint64_t> task_of;  // object key -> index in scan.tasks
  std::set<std::string> seen_data;
  for (size_t i = 0; i < blocks.size(); ++i) {
    const ChainBlock& cb = blocks[i];
    const MetadataBlock& b = cb.block;
    if (!b.new_data || !seen_data.insert(hash_key(b.new_data->physical_hash)).second) continue;
    const bool has_links = schema_at[i] != nullptr && !schema_at[i]->object_links.empty();
    if (!has_links && !b.linked_objects) continue;
    std::optional<DatasetFile> f = dir.find_data(b.new_data->physical_hash);
    const std::string data_file = f ? f->rel_path : "data/" + b.new_data->physical_hash.to_string();
    LinkedSummaryCheck summary;
    summary.block = cb.hash;
    summary.sequence_number = b.sequence_number;
    summary.data_file = data_file;
    if (b.linked_objects) summary.recorded = *b.linked_objects;
    bool complete = true;
    if (has_links) {
      const auto& columns = schema_at[i]->object_links;
      std::vector<std::vector<std::string>> paths;
      for (const auto& c : columns) paths.push_back(c.path);
      auto problem = [&](std::string message, std::optional<LinkRef> link) {
        Problem p;
        p.kind = ProblemKind::kLinkMalformed;
        p.block = cb.hash;
        p.sequence_number = b.sequence_number;
        p.file = data_file;
        p.message = std::move(message);
        p.link = std::move(link);
        scan.problems.push_back(std::move(p));
      };
      // A data file that is missing or unreadable is its data task's problem; its links
      // cannot be known. Opened with the recorded size as bound (a server that announces no
      // size, as a kamu node, is then read up to it); a larger file, which fails its own
      // check, is opened again without a bound to read its links all the same.
      EntryOpen entry{EntryFault::kMissing, {}, nullptr, ""};
      if (f || !dir.listed()) {
        entry = open_entry(dir.store(), data_file, "the data file", b.new_data->size);
        if (entry.fault == EntryFault::kTooLarge) {
          entry = open_entry(dir.store(), data_file, "the data file",
                             std::numeric_limits<uint64_t>::max());
        }
      }
      if (entry.fault != EntryFault::kNone) {
        complete = false;
      } else {
        std::map<uint64_t, uint64_t> count_of;  // task index -> values in this file
        uint64_t malformed = 0;
        auto visit = [&](size_t column, uint64_t row, std::string_view value) {
          ++summary.values;
          LinkRef ref{data_file, columns[column].display(), row};
          auto h = Multihash::parse(value);
          // A linked object is named by the SHA3-256 multihash of its bytes (RFC-017): any
          // other code (an arrow0 logical hash, f9680c00120…) names no object.
          if (h.is_ok() && h->code() != HashCode::kSha3_256) {
            h = Status::invalid_argument(
                "a link is the SHA3-256 multihash (f1620…) of the "
                "object's bytes, this is a " +
                std::string(hash_code_name(static_cast<uint64_t>(h->code()))) + " multihash");
          }
          if (!h.is_ok()) {
            if (++malformed <= kMaxMalformedPerFile) {
              problem("row " + std::to_string(row) + " of ObjectLink column \"" + ref.column +
                          "\" is not a multihash (\"" + escape_untrusted(std::string(value), 80) +
                          "\"): " + h.status().message(),
                      ref);
            }
            return Status::ok();
          }
          const std::string key = hash_key(*h);
          auto [it, added] = task_of.emplace(key, scan.tasks.size());
          if (added) {
            FileTask t = common;
            t.id = first_id + scan.tasks.size();
            t.role = FileRole::kLinkedObject;
            t.file = "data/" + h->to_string();  // only the canonical name counts
            t.block = cb.hash;
            t.sequence_number = b.sequence_number;
            t.size = 0;
            t.physical = *h;
            t.logical.reset();
            t.link = ref;
            scan.tasks.push_back(std::move(t));
          }
          ++count_of[it->second];
          return Status::ok();
        };
        std::shared_ptr<ObjectReader> object(std::move(entry.reader));
        Status st = read_string_columns(object, paths, visit);
        if (!st.is_ok() && summary.values == 0 && object->size() <= kWholeReadLimit &&
            is_store_url(dir.path())) {
          // A server without range requests (a kamu node answers 200 to them): the file is
          // read whole, once, and parsed from memory.
          Result<std::vector<uint8_t>> bytes = read_whole(dir.store(), data_file, object->size());
          if (bytes.is_ok()) {
            st = read_string_columns(
                std::make_shared<BytesReader>(
                    object->name(),
                    std::make_shared<const std::vector<uint8_t>>(std::move(*bytes))),
                paths, visit);
          }
        }
        if (malformed > kMaxMalformedPerFile) {
          problem(std::to_string(malformed - kMaxMalformedPerFile) +
                      " more ObjectLink values of this data file are not multihashes",
                  std::nullopt);
        }
        if (!st.is_ok()) {
          complete = false;
          problem(
              "the ObjectLink columns of the data file cannot be read, so the objects it "
              "links are not checked: " +
                  st.message(),
              std::nullopt);
        }
        for (auto [task, n] : count_of) summary.objects.emplace_back(first_id + task, n);
        // A malformed value counts in the summary but links nothing checkable.
        if (malformed != 0) complete = false;
      }
    }
    if (b.linked_objects && complete) scan.summaries.push_back(std::move(summary));
  }
  return scan;
}

void cap_linked_object_problems(std::vector<Problem>& problems) {
  struct Group {
    uint64_t seen = 0;
    size_t last_kept = 0;  // index in `kept` of the group's last listed problem
  };
  std::map<std::pair<std::string, ProblemKind>, Group> groups;
  std::vector<Problem> kept;
  for (Problem& p : problems) {
    if (!p.link) {
      kept.push_back(std::move(p));
      continue;
    }
    Group& g = groups[{p.link->data_file, p.kind}];
    if (++g.seen > kMaxLinkProblemsPerFile) continue;
    g.last_kept = kept.size();
    kept.push_back(std::move(p));
  }
  // The counting problems, each after its group's last listed one (back to front, so that
  // the indices stay valid).
  std::vector<std::pair<size_t, Problem>> more;
  for (const auto& [key, g] : groups) {
    if (g.seen <= kMaxLinkProblemsPerFile) continue;
    Problem p = kept[g.last_kept];
    p.link.reset();
    p.file = key.first;
    p.expected = ProblemValue();
    p.actual = ProblemValue();
    p.unit = ProblemUnit::kNone;
    p.message = "and " + std::to_string(g.seen - kMaxLinkProblemsPerFile) +
                " more linked objects of this data file with the same problem (" +
                problem_kind_name(key.second) + "), not listed";
    more.emplace_back(g.last_kept + 1, std::move(p));
  }
  std::sort(more.begin(), more.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  for (auto& [at, p] : more) kept.insert(kept.begin() + static_cast<ptrdiff_t>(at), std::move(p));
  problems = std::move(kept);
}

}  // namespace odf_hash::odf::detail
