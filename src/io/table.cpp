// A table of objects (include/odf_hash/io/table.h).
#include "odf_hash/io/table.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>

namespace odf_hash {

Table Table::of(std::shared_ptr<ObjectReader> object) {
  Table t;
  t.objects.push_back(std::move(object));
  return t;
}

std::string Table::name() const {
  std::string out;
  for (const auto& o : objects) {
    if (!out.empty()) out += " + ";
    if (o != nullptr) out += o->name();
  }
  return out;
}

uint64_t Table::size() const noexcept {
  uint64_t total = 0;
  for (const auto& o : objects) {
    if (o != nullptr) total += o->size();
  }
  return total;
}

Status check_table(const Table& table, const char* verb) {
  if (table.objects.empty()) return Status::invalid_argument(std::string(verb) + ": no object");
  for (const auto& o : table.objects) {
    if (o == nullptr) return Status::invalid_argument(std::string(verb) + ": null object");
  }
  return Status::ok();
}

Result<std::vector<std::string>> table_files_in_folder(const std::string& folder) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(folder, ec)) || ec) {
    return Status::invalid_argument(folder + ": not a folder");
  }
  std::vector<std::string> relative;
  fs::recursive_directory_iterator it(folder, fs::directory_options::none, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const bool hidden = !name.empty() && (name[0] == '.' || name[0] == '_');
    const fs::file_status st = it->symlink_status(ec);
    if (ec) break;
    if (hidden || fs::is_symlink(st)) {
      if (fs::is_directory(st)) it.disable_recursion_pending();
      continue;
    }
    if (fs::is_regular_file(st)) {
      relative.push_back(fs::relative(it->path(), folder, ec).string());
      if (ec) break;
    }
  }
  if (ec) return Status::io_error(folder + ": cannot be listed: " + ec.message());
  if (relative.empty()) return Status::invalid_argument(folder + ": holds no data file");
  std::sort(relative.begin(), relative.end());
  std::vector<std::string> out;
  const std::string base = folder.empty() || folder.back() == '/' ? folder : folder + "/";
  for (const auto& r : relative) out.push_back(base + r);
  return out;
}

}  // namespace odf_hash
