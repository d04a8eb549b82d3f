#include "file_hints.h"

#include <map>
#include <optional>
#include <string>

namespace odf_hash::odf::detail {

namespace {

constexpr const char* kFetchAgain = "fetch it again from the dataset's source";

std::string recorded_for(const FileTask& t) {
  return std::string("the ") + file_role_name(t.role) + " file recorded for block " +
         std::to_string(t.sequence_number) + " (" + t.file + ")";
}

}  // namespace

void add_file_hints(const std::vector<FileTask>& tasks, std::vector<Problem>& problems) {
  std::map<std::string, const FileTask*> by_physical, by_logical, by_file;
  std::multimap<uint64_t, const FileTask*> by_size;
  for (const FileTask& t : tasks) {
    if (t.role == FileRole::kLinkedObject) continue;
    by_physical.emplace(t.physical.to_string(), &t);
    if (t.logical) by_logical.emplace(t.logical->to_string(), &t);
    by_file.emplace(t.file, &t);
    by_size.emplace(t.size, &t);
  }
  auto other = [&](const std::map<std::string, const FileTask*>& index, const std::string& key,
                   const std::string& file) -> const FileTask* {
    auto it = index.find(key);
    return it != index.end() && it->second->file != file ? it->second : nullptr;
  };
  for (Problem& p : problems) {
    auto task = by_file.find(p.file);
    if (task == by_file.end()) continue;  // not a file check's problem
    switch (p.kind) {
      case ProblemKind::kPhysicalHashMismatch:
        if (const FileTask* t = other(by_physical, p.actual.text(), p.file)) {
          p.message += "; these are the bytes of " + recorded_for(*t) +
                       ": the files were swapped, or one was copied under the other's name";
        }
        break;
      case ProblemKind::kLogicalHashMismatch:
        if (const FileTask* t = other(by_logical, p.actual.text(), p.file)) {
          p.message += "; these are the records of " + recorded_for(*t) +
                       ": the files were swapped, or one was copied under the other's name";
        }
        break;
      case ProblemKind::kSizeMismatch: {
        std::optional<uint64_t> size = p.actual.as_number();
        if (!size) break;
        if (*size < task->second->size) {
          p.message +=
              "; it is shorter than recorded: cut short (an interrupted download or "
              "copy?); " +
              std::string(kFetchAgain);
        }
        auto [first, last] = by_size.equal_range(*size);
        for (auto it = first; it != last; ++it) {
          if (it->second->file == p.file) continue;
          p.message += "; its size is that of " + recorded_for(*it->second) +
                       ": perhaps that file under this name";
          break;
        }
        break;
      }
      case ProblemKind::kFileMissing:
        // A copy under another spelling is named already: renaming it is the remedy.
        if (task->second->misnamed.empty()) p.message += "; " + std::string(kFetchAgain);
        break;
      default: break;
    }
  }
}

}  // namespace odf_hash::odf::detail
