// A byte count for people: "512 B", "12.3 KiB", "4.0 MiB" (binary units, one decimal). What
// the CLI's progress lines and verify's verdict ("3 of 8 files, 1.2 MiB of 9.0 GiB read")
// show.
#pragma once

#include <cstdint>
#include <string>

namespace odf_hash {

std::string format_bytes(uint64_t bytes);

}  // namespace odf_hash
