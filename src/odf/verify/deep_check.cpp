#include "deep_check.h"

#include <cstring>
#include <string>
#include <vector>

#include "odf_hash/io/record_stream.h"
#include "odf_hash/logical/logical.h"

namespace odf_hash::odf::detail {

namespace {

struct Finding {
  ProblemKind kind;
  ProblemValue expected, actual;
  std::string message;
  ProblemUnit unit = ProblemUnit::kNone;
};

// Releases what it holds on every path.
struct StreamGuard {
  ArrowArrayStream stream{};
  ArrowSchema schema{};
  ~StreamGuard() {
    if (schema.release != nullptr) schema.release(&schema);
    if (stream.release != nullptr) stream.release(&stream);
  }
};

struct ArrayGuard {
  ArrowArray array{};
  ~ArrayGuard() {
    if (array.release != nullptr) array.release(&array);
  }
};

std::string stream_error(ArrowArrayStream& s, int code) {
  const char* e = s.get_last_error != nullptr ? s.get_last_error(&s) : nullptr;
  return e != nullptr ? std::string(e) : "error " + std::to_string(code);
}

bool bit_set(const void* bitmap, int64_t i) {
  return (static_cast<const uint8_t*>(bitmap)[i / 8] >> (i % 8)) & 1;
}

// Checks the offset column over one batch: its values at `first_row`.. against
// start + row. Records the first difference in `bad` and stops looking after it.
void check_offsets(const ArrowArray& batch, int64_t column, char format, uint64_t first_row,
                   uint64_t start, std::optional<Finding>& bad) {
  if (bad) return;
  const ArrowArray& c = *batch.children[column];
  const int64_t base = batch.offset + c.offset;
  for (int64_t i = 0; i < batch.length; ++i) {
    const int64_t at = base + i;
    const uint64_t row = first_row + static_cast<uint64_t>(i);
    if (c.null_count != 0 && c.buffers[0] != nullptr && !bit_set(c.buffers[0], at)) {
      bad = Finding{ProblemKind::kOffsetColumnMismatch, ProblemValue::number(start + row),
                    ProblemValue(), "row " + std::to_string(row) + " of the offset column is null"};
      return;
    }
    int64_t value = 0;
    switch (format) {
      case 'l':
      case 'L': std::memcpy(&value, static_cast<const int64_t*>(c.buffers[1]) + at, 8); break;
      case 'i': value = static_cast<const int32_t*>(c.buffers[1])[at]; break;
      default: value = static_cast<const uint32_t*>(c.buffers[1])[at]; break;
    }
    if (value < 0 || static_cast<uint64_t>(value) != start + row) {
      // A negative value is shown as its text: numbers are offsets, never below 0.
      bad = Finding{ProblemKind::kOffsetColumnMismatch, ProblemValue::number(start + row),
                    value < 0 ? ProblemValue(std::to_string(value))
                              : ProblemValue::number(static_cast<uint64_t>(value)),
                    "row " + std::to_string(row) +
                        " of the offset column does not hold the offset the block's interval "
                        "gives it (offsets must run from the interval's start, in order)"};
      return;
    }
  }
}

}  // namespace

std::optional<Problem> check_records(std::shared_ptr<ObjectReader> object, const FileTask& t) {
  auto problem = [&](Finding f) {
    return Problem{f.kind,
                   t.block,
                   t.sequence_number,
                   t.file,
                   std::move(f.expected),
                   std::move(f.actual),
                   std::move(f.message),
                   std::nullopt,
                   f.unit};
  };
  auto unreadable = [&](const std::string& why) {
    return problem(Finding{ProblemKind::kFileUnreadable, "", "",
                           "cannot read the data file's records (--deep): " + why});
  };
  StreamGuard g;
  if (Status st = open_record_stream(std::move(object), &g.stream); !st.is_ok()) {
    return unreadable(st.message());
  }
  if (int rc = g.stream.get_schema(&g.stream, &g.schema); rc != 0) {
    return unreadable(stream_error(g.stream, rc));
  }
  std::vector<Finding> findings;
  int64_t column = -1;
  char format = 0;
  for (int64_t i = 0; i < g.schema.n_children; ++i) {
    const ArrowSchema& f = *g.schema.children[i];
    if (f.name != nullptr && t.offset_column == f.name) {
      column = i;
      format = f.format != nullptr && std::strlen(f.format) == 1 ? f.format[0] : 0;
      break;
    }
  }
  std::optional<Finding> bad_offsets;
  if (column < 0) {
    bad_offsets = Finding{ProblemKind::kOffsetColumnMismatch, t.offset_column, "",
                          "the data file has no top-level column \"" + t.offset_column +
                              "\", the offset column its dataset's vocabulary names"};
  } else if (format != 'l' && format != 'L' && format != 'i' && format != 'I') {
    bad_offsets = Finding{ProblemKind::kOffsetColumnMismatch, "an integer column",
                          g.schema.children[column]->format,
                          "the offset column \"" + t.offset_column + "\" is not an integer column"};
  }
  auto hasher = LogicalHasher::create(g.schema);
  if (!hasher.is_ok()) return unreadable(hasher.status().message());
  uint64_t rows = 0;
  for (;;) {
    ArrayGuard b;
    if (int rc = g.stream.get_next(&g.stream, &b.array); rc != 0) {
      return unreadable(stream_error(g.stream, rc));
    }
    if (b.array.release == nullptr) break;
    if (b.array.length < 0 || b.array.n_children != g.schema.n_children) {
      return unreadable("a record batch does not match the file's schema");
    }
    if (!bad_offsets && column >= 0) {
      check_offsets(b.array, column, format, rows, t.offsets.start, bad_offsets);
    }
    if (Status st = hasher->update(b.array); !st.is_ok()) return unreadable(st.message());
    rows += static_cast<uint64_t>(b.array.length);
  }
  auto digest = std::move(*hasher).finalize();
  if (!digest.is_ok()) return unreadable(digest.status().message());

  const uint64_t expected_rows =
      t.offsets.end >= t.offsets.start ? t.offsets.end - t.offsets.start + 1 : 0;
  if (rows != expected_rows) {
    findings.push_back(Finding{
        ProblemKind::kRowCountMismatch, ProblemValue::number(expected_rows),
        ProblemValue::number(rows),
        "the data file holds " + std::to_string(rows) + " rows, but its block's offset interval [" +
            std::to_string(t.offsets.start) + ", " + std::to_string(t.offsets.end) + "] says " +
            std::to_string(expected_rows),
        ProblemUnit::kRows});
  }
  if (bad_offsets) findings.push_back(std::move(*bad_offsets));
  if (t.logical && !(digest->multihash() == *t.logical)) {
    findings.push_back(
        Finding{ProblemKind::kLogicalHashMisrecorded, t.logical->to_string(),
                digest->multihash().to_string(),
                "the logical hash of the data file's records is not the logicalHash its block "
                "records: the block describes other records than the file holds"});
  }
  if (findings.empty()) return std::nullopt;
  Finding first = std::move(findings.front());
  for (size_t i = 1; i < findings.size(); ++i) {
    first.message += "; also " + std::string(problem_kind_name(findings[i].kind)) + ": " +
                     findings[i].message + " (expected " +
                     findings[i].expected.to_string(findings[i].unit) + ", actual " +
                     findings[i].actual.to_string(findings[i].unit) + ")";
  }
  return problem(std::move(first));
}

}  // namespace odf_hash::odf::detail
