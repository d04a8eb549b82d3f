// Checking StoreOptions (include/odf_hash/io/store_options.h).
#include "odf_hash/io/store_options.h"

#include <cmath>

namespace odf_hash {

Status check_store_options(const StoreOptions& options) {
  // A NaN compares false with every bound, so it is refused by name: it would never fire.
  auto seconds = [](const char* what, double v) {
    if (std::isfinite(v) && v >= 0.1 && v <= 3600) return Status::ok();
    return Status::invalid_argument(std::string(what) +
                                    " must be a number of seconds from 0.1 "
                                    "to 3600, not " +
                                    std::to_string(v));
  };
  ODF_HASH_RETURN_IF_ERROR(seconds("the connect timeout", options.connect_timeout_s));
  ODF_HASH_RETURN_IF_ERROR(seconds("the read timeout", options.read_timeout_s));
  if (options.max_attempts < 1 || options.max_attempts > 20) {
    return Status::invalid_argument("max_attempts must be from 1 to 20, not " +
                                    std::to_string(options.max_attempts));
  }
  return Status::ok();
}

}  // namespace odf_hash
