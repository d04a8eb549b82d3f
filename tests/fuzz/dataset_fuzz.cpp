// Fuzzes the dataset walker over a crafted folder: the input describes a dataset folder down
// to the kind of each name (files, directories, FIFOs, symbolic links), which is written to a
// scratch folder and verified as `odf-hash verify` would. Never a crash or a hang (a FIFO
// opened for reading would hang: libFuzzer's -timeout reports it).
//
// Input: a sequence of entries, each
//   kind:u8  path_len:u8  path[path_len]  data_len:u16le  data[data_len]
// with kind (mod 6): 0 a file holding data; 1 a directory; 2 a FIFO; 3 a symbolic link whose
// target is data; 4 a file holding data named by its sha3-256 multihash inside the folder
// `path`; 5 the same, and refs/head naming it. Paths are '/'-separated relative paths below
// the dataset (empty, "." and ".." components dropped, at most 4 deep); missing parents are
// created. tests/fuzz/make_dataset_corpus.py writes seeds from the example datasets.
//
// Each input is verified twice, by default and with VerifyOptions::strict. Invariants
// (abort() when broken): one precise problem per name, i.e. no name is reported both as
// missing and as unexpected, nor both as not-a-regular-file (or a link leaving the dataset)
// and as unexpected; no unreferenced entry is also named by a problem; strict lists the same
// unreferenced entries and adds exactly one unexpected-file problem for each to the default
// problems; a valid report has a complete chain and a head; every problem has a message;
// verification errors are never internal errors (a folder that is not a dataset is
// kNotFound).
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "odf_hash/core/sha3.h"
#include "odf_hash/odf/verify.h"

namespace {

namespace fs = std::filesystem;
using namespace odf_hash;

constexpr size_t kMaxEntries = 48;
constexpr size_t kMaxDepth = 4;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "dataset_fuzz: invariant violated: %s\n", what.c_str());
  std::abort();
}

// A scratch folder for this process, on tmpfs when there is one, removed at exit.
class Scratch {
 public:
  Scratch() {
    std::error_code ec;
    fs::path base = fs::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0
                        ? fs::path("/dev/shm")
                        : fs::temp_directory_path();
    std::string tmpl = (base / "odf-hash-dataset-fuzz-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) fail("mkdtemp failed");
    dir_ = tmpl;
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  const fs::path& dir() const { return dir_; }

 private:
  fs::path dir_;
};

const fs::path& scratch() {
  static const Scratch s;
  return s.dir();
}

struct Reader {
  const uint8_t* p;
  const uint8_t* end;
  bool take(size_t n, std::string_view* out) {
    if (static_cast<size_t>(end - p) < n) return false;
    *out = std::string_view(reinterpret_cast<const char*>(p), n);
    p += n;
    return true;
  }
  bool byte(uint8_t* out) {
    if (p == end) return false;
    *out = *p++;
    return true;
  }
};

// "a/./b//../c" -> "a/b/c" without NULs; "" when nothing is left.
std::string clean_path(std::string_view raw) {
  std::string out;
  size_t depth = 0, start = 0;
  while (start <= raw.size() && depth < kMaxDepth) {
    size_t end = raw.find('/', start);
    if (end == std::string_view::npos) end = raw.size();
    std::string part(raw.substr(start, end - start));
    start = end + 1;
    std::erase(part, '\0');
    if (part.empty() || part == "." || part == "..") continue;
    out += (out.empty() ? "" : "/") + part.substr(0, 128);
    ++depth;
  }
  return out;
}

std::string hash_name(std::string_view data) {
  return Multihash::sha3_256(Sha3_256::digest(data)).to_string();
}

void write_file(const fs::path& p, std::string_view data) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

// Creates the entry at `rel` below `root`. Parents are created as real folders; an entry
// whose parent is a link or a file is skipped, so that nothing is ever written through a
// link the input made (a link to "/" would otherwise let it write anywhere).
void create(const fs::path& root, const std::string& rel, uint8_t kind, std::string_view data) {
  std::error_code ec;
  const fs::path path = root / rel;
  fs::path dir = root;
  for (const auto& part : fs::path(rel).parent_path()) {
    dir /= part;
    auto type = fs::symlink_status(dir, ec).type();
    if (type == fs::file_type::not_found) {
      if (!fs::create_directory(dir, ec) || ec) return;
    } else if (type != fs::file_type::directory) {
      return;
    }
  }
  if (fs::symlink_status(path, ec).type() != fs::file_type::not_found) return;
  switch (kind) {
    case 0: write_file(path, data); break;
    case 1: fs::create_directory(path, ec); break;
    case 2: (void)::mkfifo(path.c_str(), 0644); break;
    case 3: {
      std::string target(data.substr(0, 200));
      std::erase(target, '\0');
      if (!target.empty()) fs::create_symlink(target, path, ec);
      break;
    }
  }
}

void build(const fs::path& root, const uint8_t* data, size_t size) {
  Reader in{data, data + size};
  for (size_t i = 0; i < kMaxEntries; ++i) {
    uint8_t kind = 0, path_len = 0, len_lo = 0, len_hi = 0;
    std::string_view raw_path, payload;
    if (!in.byte(&kind) || !in.byte(&path_len) || !in.take(path_len, &raw_path) ||
        !in.byte(&len_lo) || !in.byte(&len_hi)) {
      return;
    }
    if (!in.take(static_cast<size_t>(len_lo) | static_cast<size_t>(len_hi) << 8, &payload)) {
      return;
    }
    kind %= 6;
    std::string rel = clean_path(raw_path);
    if (kind >= 4) {
      const std::string name = hash_name(payload);
      create(root, rel.empty() ? name : rel + "/" + name, 0, payload);
      if (kind == 5) create(root, "refs/head", 0, name + "\n");
    } else if (!rel.empty()) {
      create(root, rel, kind, payload);
    }
  }
}

bool is_missing(odf::ProblemKind k) {
  return k == odf::ProblemKind::kFileMissing || k == odf::ProblemKind::kBlockMissing ||
         k == odf::ProblemKind::kHeadMissing;
}
bool is_kind_problem(odf::ProblemKind k) {
  return k == odf::ProblemKind::kNotRegularFile || k == odf::ProblemKind::kLinkOutside;
}

void check(const odf::DatasetReport& r) {
  std::map<std::string, std::set<odf::ProblemKind>> by_file;
  for (const auto& p : r.problems) {
    if (p.message.empty()) fail("a problem without a message");
    if (std::string_view(odf::problem_kind_name(p.kind)) == "unknown") fail("unknown kind");
    if (!p.file.empty()) by_file[p.file].insert(p.kind);
  }
  for (const auto& [file, kinds] : by_file) {
    if (!kinds.count(odf::ProblemKind::kUnexpectedFile)) continue;
    for (auto k : kinds) {
      if (is_missing(k) || is_kind_problem(k)) {
        fail(file + ": reported as unexpected and as " + odf::problem_kind_name(k));
      }
    }
  }
  if (r.valid() && (!r.chain_complete || !r.head)) fail("valid without a complete chain");
  for (const auto& e : r.unreferenced) {
    if (!r.strict && by_file.count(e.file) != 0) fail(e.file + ": unreferenced and a problem");
  }
}

// The strict report is the default one plus an unexpected-file problem per unreferenced entry.
void check_strict(const odf::DatasetReport& d, const odf::DatasetReport& s) {
  if (s.unreferenced.size() != d.unreferenced.size()) fail("strict lists other unreferenced");
  std::multiset<std::string> extra;
  for (size_t i = 0; i < d.unreferenced.size(); ++i) {
    if (d.unreferenced[i].file != s.unreferenced[i].file) fail("strict lists other unreferenced");
    extra.insert(d.unreferenced[i].file);
  }
  if (s.problems.size() != d.problems.size() + extra.size()) fail("strict adds other problems");
  std::multiset<std::string> added;
  for (const auto& p : s.problems) {
    if (p.kind == odf::ProblemKind::kUnexpectedFile && extra.count(p.file) != 0) {
      added.insert(p.file);
    }
  }
  if (added != extra) fail("strict: not one unexpected-file per unreferenced entry");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fs::path root = scratch() / "ds";
  std::error_code ec;
  fs::remove_all(root, ec);
  fs::create_directories(root, ec);
  build(root, data, size);
  odf::VerifyOptions options;
  options.jobs = 1;
  auto report = odf::verify_dataset(root.string(), options);
  if (std::getenv("DATASET_FUZZ_PRINT") != nullptr) {  // to see what an input makes
    if (!report.is_ok()) std::printf("error: %s\n", report.status().message().c_str());
    for (const auto& p : report.is_ok() ? report->problems : std::vector<odf::Problem>{}) {
      std::printf("%s %s: %s\n", odf::problem_kind_name(p.kind), p.file.c_str(), p.message.c_str());
    }
    if (report.is_ok()) std::printf("valid: %d\n", report->valid() ? 1 : 0);
  }
  if (report.is_ok()) {
    check(*report);
    options.strict = true;
    auto strict = odf::verify_dataset(root.string(), options);
    if (!strict.is_ok()) fail("strict verification failed where the default one ran");
    check(*strict);
    check_strict(*report, *strict);
  } else if (report.status().code() == StatusCode::kInternal) {
    fail("internal error: " + report.status().message());
  }
  fs::remove_all(root, ec);
  return 0;
}
