// The bytes read through objects, counted as they are read: the progress of work whose
// reads are not known in advance (compare reads both tables once, or several times: the
// logical hashes, then where they differ; a Parquet reader reads only the column chunks it
// needs). A reader on another thread (a progress line, a Python callback) polls the count.
//
// Thread safety: the counter is atomic; a counted object is as thread-safe as the object.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "odf_hash/io/store.h"
#include "odf_hash/io/table.h"

namespace odf_hash {

struct ReadCounter {
  std::atomic<uint64_t> bytes{0};  // read so far through the counted objects
};

// `object`, its reads (read and read_at) added to `counter`. A DeferredObject stays deferred
// (deferred_object.h): each object it opens is counted.
std::shared_ptr<ObjectReader> count_reads(std::shared_ptr<ObjectReader> object,
                                          std::shared_ptr<ReadCounter> counter);

// Every object of `table` so.
Table count_reads(Table table, const std::shared_ptr<ReadCounter>& counter);

}  // namespace odf_hash
