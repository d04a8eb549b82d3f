// logical_hash_stream: the one-shot over an ArrowArrayStream, serial or with the next batch
// read ahead on a thread of its own.
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "odf_hash/core/parallel.h"
#include "odf_hash/logical/logical.h"

namespace odf_hash {
namespace {

// Releases what it holds on every path out of logical_hash_stream.
struct StreamGuard {
  ArrowArrayStream* stream;
  ~StreamGuard() {
    if (stream->release != nullptr) stream->release(stream);
  }
};
struct SchemaGuard {
  ArrowSchema schema{};
  ~SchemaGuard() {
    if (schema.release != nullptr) schema.release(&schema);
  }
};
struct ArrayGuard {
  ArrowArray array{};
  ~ArrayGuard() {
    if (array.release != nullptr) array.release(&array);
  }
};

Status stream_error(ArrowArrayStream* stream, int rc, const char* what) {
  const char* msg = stream->get_last_error != nullptr ? stream->get_last_error(stream) : nullptr;
  return Status::io_error(std::string(what) + " failed (error " + std::to_string(rc) + ")" +
                          (msg != nullptr ? std::string(": ") + msg : std::string()));
}

// Reads the next record batch. At the end of the stream out->release stays null.
Status read_next(ArrowArrayStream* stream, ArrowArray* out) {
  *out = ArrowArray{};
  const int rc = stream->get_next(stream, out);
  if (rc == 0) return Status::ok();
  if (out->release != nullptr) out->release(out);  // a producer should not, but be safe
  return stream_error(stream, rc, "reading the next record batch");
}

// Calls get_next (and get_last_error) on a thread of its own, at most kAhead batches ahead
// of the consumer: with the batch being hashed, at most kAhead + 1 batches are alive. The
// stream must outlive the reader; the destructor stops and joins the thread and releases
// every batch not handed out.
class BatchReader {
 public:
  static constexpr size_t kAhead = 1;

  explicit BatchReader(ArrowArrayStream* stream) : stream_(stream) {}
  ~BatchReader() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    for (ArrowArray& a : ready_) {
      if (a.release != nullptr) a.release(&a);
    }
  }

  // False when the system refuses a thread (then read serially).
  bool start() {
    std::optional<std::thread> thread = try_thread([this] { run(); });
    if (thread) thread_ = std::move(*thread);
    return thread.has_value();
  }

  // The next batch (moved into *out, the caller releases it), the end of the stream
  // (out->release null), or the stream's error, in stream order.
  Status next(ArrowArray* out) {
    *out = ArrowArray{};
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return !ready_.empty() || finished_; });
    if (!ready_.empty()) {
      *out = ready_.front();
      ready_.pop_front();
      lock.unlock();
      cv_.notify_all();
      return Status::ok();
    }
    return error_;
  }

 private:
  void run() {
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return stop_ || ready_.size() < kAhead; });
        if (stop_) return;
      }
      ArrowArray batch{};
      Status st = read_next(stream_, &batch);
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (!st.is_ok() || batch.release == nullptr) {
          error_ = st;
          finished_ = true;
        } else {
          ready_.push_back(batch);  // moved: the deque now owns it
        }
      }
      cv_.notify_all();
      if (finished_) return;  // only this thread writes it
    }
  }

  ArrowArrayStream* stream_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<ArrowArray> ready_;
  bool finished_ = false;  // end of stream or error; no more batches after ready_
  bool stop_ = false;
  Status error_;
};

// kCancelled once options.cancel is set; `st` (an error of the stream, which most likely
// failed because its reads were cancelled too) is then replaced.
Status unless_cancelled(const LogicalHashOptions& options, Status st = Status::ok()) {
  if (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) {
    return Status::cancelled("hashing the record stream: cancelled");
  }
  return st;
}

}  // namespace

Result<LogicalDigest> logical_hash_stream(ArrowArrayStream* stream,
                                          const LogicalHashOptions& options) {
  if (stream == nullptr || stream->release == nullptr) {
    return Status::invalid_argument("logical_hash_stream: the stream is null or released");
  }
  StreamGuard stream_guard{stream};
  if (stream->get_schema == nullptr || stream->get_next == nullptr) {
    return Status::invalid_argument("logical_hash_stream: the stream has no callbacks");
  }
  Result<LogicalHasher> hasher = Status::internal("unset");
  {
    SchemaGuard schema;
    const int rc = stream->get_schema(stream, &schema.schema);
    if (rc != 0) return stream_error(stream, rc, "reading the stream's schema");
    hasher = LogicalHasher::create(schema.schema, options);
    if (!hasher.is_ok()) return hasher.status();
  }
  if (resolve_threads(options.threads) > 1) {
    BatchReader reader(stream);  // declared after stream_guard: joined before the release
    if (reader.start()) {
      while (true) {
        ArrayGuard batch;
        ODF_HASH_RETURN_IF_ERROR(unless_cancelled(options, reader.next(&batch.array)));
        if (batch.array.release == nullptr) break;  // end of stream
        ODF_HASH_RETURN_IF_ERROR(unless_cancelled(options));
        ODF_HASH_RETURN_IF_ERROR(hasher->update(batch.array));
      }
      return std::move(*hasher).finalize();
    }
  }
  while (true) {
    ArrayGuard batch;
    ODF_HASH_RETURN_IF_ERROR(unless_cancelled(options, read_next(stream, &batch.array)));
    if (batch.array.release == nullptr) break;  // end of stream
    ODF_HASH_RETURN_IF_ERROR(unless_cancelled(options));
    ODF_HASH_RETURN_IF_ERROR(hasher->update(batch.array));
  }
  return std::move(*hasher).finalize();
}

Result<Digest256> array_hash_stream(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) {
    return Status::invalid_argument("array_hash_stream: the stream is null or released");
  }
  StreamGuard stream_guard{stream};
  if (stream->get_schema == nullptr || stream->get_next == nullptr) {
    return Status::invalid_argument("array_hash_stream: the stream has no callbacks");
  }
  Result<ArrayHasher> hasher = Status::internal("unset");
  {
    SchemaGuard schema;
    const int rc = stream->get_schema(stream, &schema.schema);
    if (rc != 0) return stream_error(stream, rc, "reading the stream's schema");
    hasher = ArrayHasher::create(schema.schema);
    if (!hasher.is_ok()) return hasher.status();
  }
  while (true) {
    ArrayGuard array;
    ODF_HASH_RETURN_IF_ERROR(read_next(stream, &array.array));
    if (array.array.release == nullptr) break;  // end of stream
    ODF_HASH_RETURN_IF_ERROR(hasher->update(array.array));
  }
  return std::move(*hasher).finalize();
}

}  // namespace odf_hash
