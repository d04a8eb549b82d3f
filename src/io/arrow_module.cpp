// Finding and loading libodf_hash_arrow.so (see arrow_module.h).
#include "odf_hash/internal/io/arrow_module.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#ifndef ODF_HASH_ARROW_MODULE_ABI
#error "ODF_HASH_ARROW_MODULE_ABI must be defined by the build"
#endif
#ifndef ODF_HASH_ARROW_MODULE_BUILD_PATH
#define ODF_HASH_ARROW_MODULE_BUILD_PATH ""
#endif
#ifndef ODF_HASH_ARROW_MODULE_INSTALL_PATH
#define ODF_HASH_ARROW_MODULE_INSTALL_PATH ""
#endif
#ifndef ODF_HASH_INSTALL_LIBDIR
#define ODF_HASH_INSTALL_LIBDIR "lib"
#endif

namespace odf_hash::io_internal {

namespace {

constexpr const char* kModuleFile = "libodf_hash_arrow.so";
constexpr const char* kEntryPoint = "odf_hash_arrow_module_api";

std::atomic<const ArrowModuleApi*> g_linked{nullptr};

std::string directory_of(const std::string& file) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::weakly_canonical(file, ec);
  if (ec) p = file;
  return p.parent_path().string();
}

// Directories to look beside: the object holding this code, then the running program.
std::vector<std::string> own_directories() {
  std::vector<std::string> dirs;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&arrow_module), &info) != 0 && info.dli_fname != nullptr &&
      std::strchr(info.dli_fname, '/') != nullptr) {
    dirs.push_back(directory_of(info.dli_fname));
  }
  char exe[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    std::string dir = directory_of(exe);
    if (dirs.empty() || dirs.front() != dir) dirs.push_back(std::move(dir));
  }
  return dirs;
}

std::vector<std::string> candidates() {
  std::vector<std::string> out;
  if (const char* env = std::getenv("ODF_HASH_ARROW_MODULE"); env != nullptr && *env != '\0') {
    out.emplace_back(env);
    return out;  // an explicit choice is the only one tried
  }
  for (const std::string& dir : own_directories()) {
    out.push_back(dir + "/" + kModuleFile);
    out.push_back(dir + "/odf_hash/" + kModuleFile);
    out.push_back(dir + "/../" + kModuleFile);
    out.push_back(dir + "/../" ODF_HASH_INSTALL_LIBDIR "/odf_hash/" + kModuleFile);
  }
  for (const char* fixed : {ODF_HASH_ARROW_MODULE_BUILD_PATH, ODF_HASH_ARROW_MODULE_INSTALL_PATH}) {
    if (*fixed != '\0') out.emplace_back(fixed);
  }
  return out;
}

// Loads the first module of this build among the candidates.
Result<const ArrowModuleApi*> load() {
  std::string tried;
  for (const std::string& path : candidates()) {
    if (access(path.c_str(), F_OK) != 0) {
      tried += "; " + path + " (not there)";
      continue;
    }
    dlerror();
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* why = dlerror();
      tried += "; " + path + " (" + (why != nullptr ? why : "cannot be loaded") + ")";
      continue;
    }
    using Entry = const ArrowModuleApi* (*)();
    auto entry = reinterpret_cast<Entry>(dlsym(handle, kEntryPoint));
    if (entry == nullptr) {
      tried += "; " + path + " (not an odf-hash Arrow module: no " + kEntryPoint + ")";
      dlclose(handle);
      continue;
    }
    const ArrowModuleApi* api = entry();
    if (api == nullptr || api->size != sizeof(ArrowModuleApi) || api->abi == nullptr ||
        std::strcmp(api->abi, ODF_HASH_ARROW_MODULE_ABI) != 0) {
      tried += "; " + path + " (built by another build of odf-hash: module " +
               (api != nullptr && api->abi != nullptr ? api->abi : "?") + ", program " +
               ODF_HASH_ARROW_MODULE_ABI + ")";
      dlclose(handle);
      continue;
    }
    return api;  // the handle stays open for the life of the process
  }
  return Status::unsupported(
      "reading Parquet and Arrow IPC files needs odf-hash's Arrow module (" +
      std::string(kModuleFile) + "), which could not be loaded (set ODF_HASH_ARROW_MODULE to " +
      "its path); looked for it at: " + (tried.empty() ? std::string("nowhere") : tried.substr(2)));
}

}  // namespace

Result<const ArrowModuleApi*> arrow_module() {
  if (const ArrowModuleApi* linked = g_linked.load(std::memory_order_acquire)) return linked;
  static const Result<const ArrowModuleApi*> loaded = load();
  return loaded;
}

void use_arrow_module(const ArrowModuleApi* api) {
  g_linked.store(api, std::memory_order_release);
}

}  // namespace odf_hash::io_internal
