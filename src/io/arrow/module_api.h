// What the Arrow module does (internal to io/arrow): the functions behind the table of
// ../arrow_module.h.
#pragma once

#include <memory>

#include "odf_hash/arrow_c_data.h"
#include "odf_hash/status.h"
#include "odf_hash/store.h"

namespace odf_hash::io_internal {

// open_record_stream of reader.h; `object` and `out` are not null. Messages name
// object->name() (and the column, the batch).
Status open_arrow_record_stream(std::shared_ptr<ObjectReader> object, ArrowArrayStream* out);

}  // namespace odf_hash::io_internal
