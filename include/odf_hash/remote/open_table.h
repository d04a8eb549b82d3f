// Tables (io/table.h) of paths and URLs: what every command and binding that takes "a path or
// a URL" of a data file, or a list of them read as one table, hands to the verbs that read
// records (compare::compare, compare::compare_unordered, compare::unordered_digest,
// odf::data_slice).
//
// Thread safety: reentrant.
#pragma once

#include <string>
#include <vector>

#include "odf_hash/core/status.h"
#include "odf_hash/io/row_window.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/io/table.h"

namespace odf_hash {

// The table of one file: open_object(path_or_url, store) (open_store.h: a local regular file,
// a stream such as "-" or a FIFO refused at once, or the object at a URL), with store.cancel.
Result<Table> open_table(const std::string& path_or_url, const StoreOptions& store = {});

// The files of `paths_or_urls` read as one table, in order, or `window` of its rows. One file:
// as above. Several: each opened for its size, then closed and opened again only while its
// records are read (deferred_object.h), so that a run of thousands of files holds one open at
// a time. Errors name the file that could not be opened; an empty list is kInvalidArgument.
Result<Table> open_table(const std::vector<std::string>& paths_or_urls,
                         const StoreOptions& store = {}, RowWindow window = {});

}  // namespace odf_hash
