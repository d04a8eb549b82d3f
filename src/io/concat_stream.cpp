// concatenate_streams (concat_stream.h) and open_concatenated_record_stream (record_stream.h).
#include "odf_hash/internal/io/concat_stream.h"

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "odf_hash/internal/io/arrow_module.h"
#include "odf_hash/internal/io/deferred_object.h"
#include "odf_hash/internal/io/owned_c_data.h"
#include "odf_hash/io/record_stream.h"
#include "odf_hash/logical/schema_diff.h"

namespace odf_hash::io_internal {

namespace {

std::string_view str(const char* s) {
  return s != nullptr ? std::string_view(s) : std::string_view();
}

// The same type tree: what a consumer built for the first schema (a hasher, a record
// digester) reads every batch of the stream with. Metadata is not compared: no consumer
// reads it from batches.
bool same_schema(const ArrowSchema& a, const ArrowSchema& b) {
  if (str(a.format) != str(b.format) || str(a.name) != str(b.name) ||
      (a.flags & ARROW_FLAG_NULLABLE) != (b.flags & ARROW_FLAG_NULLABLE) ||
      a.n_children != b.n_children || (a.dictionary == nullptr) != (b.dictionary == nullptr)) {
    return false;
  }
  for (int64_t i = 0; i < a.n_children; ++i) {
    if (!same_schema(*a.children[i], *b.children[i])) return false;
  }
  return a.dictionary == nullptr || same_schema(*a.dictionary, *b.dictionary);
}

// "column "x": int64 vs utf8", from diff_schemas, for the message of a schema change.
std::string first_difference(const ArrowSchema& first, const ArrowSchema& other) {
  const std::vector<SchemaDifference> diffs = diff_schemas(first, other);
  if (diffs.empty()) return "the field names or their metadata differ";
  const SchemaDifference& d = diffs.front();
  switch (d.kind) {
    case SchemaDifference::Kind::kOnlyInOriginal:
      return "column \"" + d.field + "\" (" + d.original + ") is not in the later file";
    case SchemaDifference::Kind::kOnlyInReproduced:
      return "column \"" + d.field + "\" (" + d.reproduced + ") is only in the later file";
    case SchemaDifference::Kind::kPosition:
      return "column \"" + d.field + "\" is at position " + d.original + ", then " + d.reproduced;
    default: return "column \"" + d.field + "\" is " + d.original + ", then " + d.reproduced;
  }
}

class Concat {
 public:
  static Status open(std::vector<std::shared_ptr<ObjectReader>> objects, StreamOpener opener,
                     ArrowArrayStream* out, std::function<void(size_t)> on_open, RowWindow window,
                     StreamOpenerFrom open_from) {
    auto self = std::make_unique<Concat>();
    self->objects_ = std::move(objects);
    self->skip_ = window.skip;
    self->limit_ = window.limit;
    self->open_ = std::move(opener);
    self->open_from_ = std::move(open_from);
    self->on_open_ = std::move(on_open);
    if (self->on_open_) self->on_open_(0);
    ODF_HASH_RETURN_IF_ERROR(self->open_object(self->objects_[0]));
    if (self->current_.value.get_schema(&self->current_.value, &self->first_.value) != 0) {
      return Status::io_error(self->objects_[0]->name() + ": reading the stream's schema failed");
    }
    self->next_ = 1;
    *out = ArrowArrayStream{&get_schema, &get_next, &get_last_error, &release, self.release()};
    return Status::ok();
  }

 private:
  static Concat& of(ArrowArrayStream* s) { return *static_cast<Concat*>(s->private_data); }

  // The first object's schema, from a stream of its own (the schema outlives it).
  static int get_schema(ArrowArrayStream* s, ArrowSchema* out) {
    Concat& self = of(s);
    Owned<ArrowArrayStream> first;
    Status st = self.open_(self.objects_[0], &first.value);
    if (!st.is_ok()) return self.fail(st.message());
    if (first.value.get_schema(&first.value, out) != 0) {
      return self.fail(self.objects_[0]->name() + ": reading the stream's schema failed");
    }
    return 0;
  }

  static int get_next(ArrowArrayStream* s, ArrowArray* out) {
    Concat& self = of(s);
    while (true) {
      if (self.current_.value.release == nullptr) {
        out->release = nullptr;  // the end
        return 0;
      }
      if (self.limit_ && *self.limit_ == 0) {
        // The window's last row is read: no later batch, and no later object opened.
        self.current_.reset();
        self.next_ = self.objects_.size();
        continue;
      }
      ArrowArrayStream& cur = self.current_.value;
      if (cur.get_next(&cur, out) != 0) {
        const char* e = cur.get_last_error(&cur);
        return self.fail(
            e != nullptr ? e : self.objects_[self.next_ - 1]->name() + ": reading a batch failed");
      }
      if (out->release != nullptr) {
        if (self.window(*out)) return 0;
        out->release(out);  // every row of it is before the window
        continue;
      }
      // This object is done: the next one, whose schema must be the first's.
      self.current_.reset();
      if (self.next_ == self.objects_.size()) continue;
      if (self.on_open_) self.on_open_(self.next_);
      const std::shared_ptr<ObjectReader>& o = self.objects_[self.next_++];
      if (Status st = self.open_object(o); !st.is_ok()) {
        return self.fail(st.message());
      }
      Owned<ArrowSchema> schema;
      if (self.current_.value.get_schema(&self.current_.value, &schema.value) != 0) {
        return self.fail(o->name() + ": reading the stream's schema failed");
      }
      if (!same_schema(self.first_.value, schema.value)) {
        return self.fail(
            o->name() + " has another schema than " + self.objects_[0]->name() +
            ", read before it as one table: " + first_difference(self.first_.value, schema.value));
      }
    }
  }

  // An object's stream into current_: from near the window's start while rows of it remain
  // to be skipped (with open_from), else whole.
  Status open_object(const std::shared_ptr<ObjectReader>& o) {
    if (skip_ == 0 || !open_from_) return open_(o, &current_.value);
    uint64_t skipped = 0;
    ODF_HASH_RETURN_IF_ERROR(open_from_(o, skip_, &current_.value, &skipped));
    skip_ -= std::min(skip_, skipped);
    return Status::ok();
  }

  static const char* get_last_error(ArrowArrayStream* s) {
    const std::string& e = of(s).error_;
    return e.empty() ? nullptr : e.c_str();
  }

  static void release(ArrowArrayStream* s) {
    delete static_cast<Concat*>(s->private_data);
    s->release = nullptr;
  }

  // Cuts `batch` (a struct array the consumer will own) to the rows of the window: the
  // parent's offset and length, which every child is read through. False when no row of it
  // is past the rows still to skip.
  bool window(ArrowArray& batch) {
    const uint64_t length = uint64_t(batch.length);
    if (skip_ >= length && length > 0) {
      skip_ -= length;
      return false;
    }
    int64_t start = 0;
    if (skip_ > 0) {
      start = int64_t(skip_);
      skip_ = 0;
    }
    int64_t n = batch.length - start;
    if (limit_) {
      if (uint64_t(n) > *limit_) n = int64_t(*limit_);
      *limit_ -= uint64_t(n);
    }
    if (start != 0 || n != batch.length) {
      batch.offset += start;
      batch.length = n;
      if (batch.null_count != 0) batch.null_count = -1;  // unknown over the slice
    }
    return true;
  }

  int fail(std::string message) {
    error_ = std::move(message);
    return EIO;
  }

  std::vector<std::shared_ptr<ObjectReader>> objects_;
  StreamOpener open_;
  StreamOpenerFrom open_from_;
  std::function<void(size_t)> on_open_;
  uint64_t skip_ = 0;                // rows of the window's start still to skip
  std::optional<uint64_t> limit_;    // rows of the window still to give
  size_t next_ = 0;                  // the next object to open
  Owned<ArrowArrayStream> current_;  // empty once every object is read
  Owned<ArrowSchema> first_;
  std::string error_;
};

}  // namespace

Status concatenate_streams(std::vector<std::shared_ptr<ObjectReader>> objects, StreamOpener open,
                           ArrowArrayStream* out, std::function<void(size_t)> on_open,
                           RowWindow window, StreamOpenerFrom open_from) {
  if (out == nullptr) return Status::invalid_argument("concatenate_streams: null output stream");
  if (objects.empty()) return Status::invalid_argument("no data file to read");
  for (const auto& o : objects) {
    if (o == nullptr) return Status::invalid_argument("concatenate_streams: null object");
  }
  // A DeferredObject is opened afresh for its stream only (deferred_object.h): the files of a
  // long run are open one at a time.
  open = [inner = std::move(open)](std::shared_ptr<ObjectReader> o, ArrowArrayStream* s) {
    ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectReader> fresh, open_if_deferred(std::move(o)));
    return inner(std::move(fresh), s);
  };
  if (open_from) {
    open_from = [inner = std::move(open_from)](std::shared_ptr<ObjectReader> o, uint64_t row,
                                               ArrowArrayStream* s, uint64_t* skipped) {
      ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectReader> fresh,
                                open_if_deferred(std::move(o)));
      return inner(std::move(fresh), row, s, skipped);
    };
  }
  if (objects.size() == 1 && window.whole()) {
    if (on_open) on_open(0);
    return open(std::move(objects[0]), out);
  }
  return Concat::open(std::move(objects), std::move(open), out, std::move(on_open), window,
                      std::move(open_from));
}

}  // namespace odf_hash::io_internal

namespace odf_hash {

Status open_concatenated_record_stream(std::vector<std::shared_ptr<ObjectReader>> objects,
                                       ArrowArrayStream* out, RowWindow window) {
  ODF_HASH_ASSIGN_OR_RETURN(const io_internal::ArrowModuleApi* api, io_internal::arrow_module());
  return io_internal::concatenate_streams(std::move(objects), api->open_record_stream, out, {},
                                          window);
}

}  // namespace odf_hash
