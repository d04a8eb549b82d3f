#include "odf_hash/dataset.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

namespace odf_hash::odf {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kPendingPrefix = ".pending-";

Status list_folder(const fs::path& root, const std::string& folder, std::vector<DatasetFile>& files,
                   std::vector<std::string>& foreign) {
  fs::path dir = root / folder;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return Status::ok();
  if (!fs::is_directory(dir, ec)) {
    foreign.push_back(folder);
    return Status::ok();
  }
  fs::directory_iterator it(dir, ec);
  if (ec) return Status::io_error("cannot list " + dir.string() + ": " + ec.message());
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) break;
    std::string name = it->path().filename().string();
    if (name.starts_with(kPendingPrefix)) continue;
    std::string rel = folder + "/" + name;
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec)) {
      foreign.push_back(rel);
      continue;
    }
    auto hash = Multihash::parse(name);
    if (!hash.is_ok()) {
      foreign.push_back(rel);
      continue;
    }
    files.push_back(DatasetFile{name, rel, *hash});
  }
  if (ec) return Status::io_error("cannot list " + dir.string() + ": " + ec.message());
  std::sort(files.begin(), files.end(),
            [](const DatasetFile& a, const DatasetFile& b) { return a.name < b.name; });
  return Status::ok();
}

std::string hash_key(const Multihash& hash) {
  auto bytes = hash.to_bytes();
  return std::string(bytes.begin(), bytes.end());
}

std::map<std::string, size_t> index_files(const std::vector<DatasetFile>& files) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < files.size(); ++i) index.emplace(hash_key(files[i].hash), i);
  return index;
}

const DatasetFile* find_in(const std::vector<DatasetFile>& files,
                           const std::map<std::string, size_t>& index, const Multihash& hash) {
  auto it = index.find(hash_key(hash));
  return it == index.end() ? nullptr : &files[it->second];
}

}  // namespace

Result<DatasetDir> DatasetDir::open(const std::string& path) {
  std::error_code ec;
  fs::path root(path);
  if (!fs::exists(root, ec)) return Status::not_found(path + ": no such dataset directory");
  if (!fs::is_directory(root, ec)) return Status::invalid_argument(path + ": not a directory");
  DatasetDir dir;
  dir.path_ = path;
  ODF_HASH_RETURN_IF_ERROR(list_folder(root, "blocks", dir.blocks_, dir.foreign_));
  ODF_HASH_RETURN_IF_ERROR(list_folder(root, "data", dir.data_, dir.foreign_));
  ODF_HASH_RETURN_IF_ERROR(list_folder(root, "checkpoints", dir.checkpoints_, dir.foreign_));
  std::sort(dir.foreign_.begin(), dir.foreign_.end());
  dir.block_index_ = index_files(dir.blocks_);
  dir.data_index_ = index_files(dir.data_);
  dir.checkpoint_index_ = index_files(dir.checkpoints_);
  return dir;
}

Result<Multihash> DatasetDir::read_head() const {
  fs::path head = fs::path(path_) / "refs" / "head";
  std::error_code ec;
  if (!fs::exists(head, ec)) return Status::not_found("refs/head does not exist");
  std::ifstream in(head, std::ios::binary);
  if (!in) return Status::io_error("cannot read refs/head");
  std::string text;
  // A head is about 70 characters; anything past 4 KiB is not a hash.
  text.resize(4096);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  auto is_space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
  while (!text.empty() && is_space(text.back())) text.pop_back();
  size_t start = 0;
  while (start < text.size() && is_space(text[start])) ++start;
  text.erase(0, start);
  auto hash = Multihash::parse(text);
  if (!hash.is_ok()) {
    return Status::parse_error("refs/head does not hold a multihash: " + hash.status().message());
  }
  return hash;
}

const DatasetFile* DatasetDir::find_block(const Multihash& hash) const {
  return find_in(blocks_, block_index_, hash);
}
const DatasetFile* DatasetDir::find_data(const Multihash& hash) const {
  return find_in(data_, data_index_, hash);
}
const DatasetFile* DatasetDir::find_checkpoint(const Multihash& hash) const {
  return find_in(checkpoints_, checkpoint_index_, hash);
}

std::string DatasetDir::full_path(const std::string& rel_path) const {
  return (fs::path(path_) / rel_path).string();
}

}  // namespace odf_hash::odf
