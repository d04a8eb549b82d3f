// Loading the S3 module (s3_module.h) from the directory of the object holding this code: the
// Arrow module (or a program that links the Arrow part in, such as a fuzzer).
#include "odf_hash/internal/io/s3_module.h"

#include <dlfcn.h>

#include <atomic>
#include <filesystem>
#include <mutex>

namespace odf_hash::io_internal {

namespace {

constexpr const char* kModuleFile = "libodf_hash_s3.so";
constexpr const char* kEntryPoint = "odf_hash_s3_module_api";

std::atomic<const S3ModuleApi*> g_loaded{nullptr};

Result<const S3ModuleApi*> load() {
  static std::mutex mu;
  std::lock_guard lock(mu);
  if (const S3ModuleApi* api = g_loaded.load()) return api;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&open_s3_store_through_module), &info) == 0 ||
      info.dli_fname == nullptr) {
    return Status::internal("cannot find the directory of the Arrow module, beside which " +
                            std::string(kModuleFile) + " is");
  }
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::weakly_canonical(info.dli_fname, ec);
  if (ec) dir = info.dli_fname;
  const std::string path = (dir.parent_path() / kModuleFile).string();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    return Status::unsupported("s3:// URLs need the S3 module " + path + ", which could not be " +
                               "loaded: " + (why != nullptr ? why : "unknown error"));
  }
  using Entry = const S3ModuleApi* (*)();
  auto entry = reinterpret_cast<Entry>(dlsym(handle, kEntryPoint));
  const S3ModuleApi* api = entry != nullptr ? entry() : nullptr;
  if (api == nullptr || api->size != sizeof(S3ModuleApi) ||
      std::string(api->abi) != ODF_HASH_ARROW_MODULE_ABI) {
    return Status::unsupported(path + " is not the S3 module of this build of odf-hash");
  }
  g_loaded.store(api);
  return api;
}

}  // namespace

Result<std::shared_ptr<ObjectStore>> open_s3_store_through_module(const std::string& url,
                                                                  const StoreOptions& options) {
  ODF_HASH_ASSIGN_OR_RETURN(const S3ModuleApi* api, load());
  return api->open_s3_store(url, options);
}

void shutdown_s3_through_module() {
  if (const S3ModuleApi* api = g_loaded.load()) api->shutdown_s3();
}

}  // namespace odf_hash::io_internal
