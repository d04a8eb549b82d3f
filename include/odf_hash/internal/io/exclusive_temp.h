// Internal (text_file.cpp, fetch, and its unit test): a temporary file created exclusively in a
// folder. Each name `next_name` gives is tried with openat(O_CREAT|O_EXCL|O_NOFOLLOW): a name
// that exists, whatever it is (a symbolic link planted there, a file), is left alone and the
// next name is tried, so nothing is ever written through a name someone else made.
#pragma once

#include <functional>
#include <string>

#include "odf_hash/core/status.h"

namespace odf_hash::io_internal {

struct ExclusiveTemp {
  int fd = -1;       // open for writing; the caller closes it
  std::string name;  // in the folder of `dir_fd`
};

// At most `attempts` names are tried; kIoError when none could be created (`shown` names
// the folder in the message).
Result<ExclusiveTemp> create_exclusive_temp(int dir_fd, const std::string& shown,
                                            const std::function<std::string()>& next_name,
                                            int attempts = 64);

// Random names beside `base`: ".<base>.tmp-<16 hex digits>" (base cut to 100 bytes).
std::function<std::string()> random_temp_names(const std::string& base);

}  // namespace odf_hash::io_internal
