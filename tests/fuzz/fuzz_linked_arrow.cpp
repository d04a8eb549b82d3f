// libFuzzer binaries link the Arrow part of io in (odf_hash_arrow_objs) and use it instead of
// loading libodf_hash_arrow.so on first use: code loaded after start-up is not instrumented
// for libFuzzer's coverage. (The replay tests use the module, as the program does.)
#include "odf_hash/internal/io/arrow_module.h"

namespace {
const bool kLinked = [] {
  odf_hash::io_internal::use_arrow_module(odf_hash_arrow_module_api());
  return true;
}();
}  // namespace
