#include "output.h"

#include "odf_hash/core/check_list.h"
#include "odf_hash/core/text.h"
#include "odf_hash/remote/open_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace odf_hash::cli {

void print_error(std::string_view message) {
  // Messages quote names and text from files and servers: a control character in them
  // must not reach the terminal raw (escape_text redacts URLs too).
  const std::string shown = escape_text(message);
  std::fprintf(stderr, "odf-hash: %s\n", shown.c_str());
}

namespace {

nlohmann::json redacted(const nlohmann::json& j) {
  if (j.is_string()) return redact_url(j.get_ref<const std::string&>());
  if (j.is_array() || j.is_object()) {
    nlohmann::json out = j;
    for (auto& v : out) v = redacted(v);
    return out;
  }
  return j;
}

}  // namespace

namespace {
DocumentRenderer document_renderer = nullptr;
}  // namespace

void set_document_renderer(DocumentRenderer render) {
  document_renderer = render;
}

void add_format_option(CLI::App* app, FormatChoice& choice, const char* markdown_help) {
  app->add_option(
         "--format", choice.format,
         std::string("Output: text (default), json (as --json) or markdown: ") + markdown_help)
      ->check(CLI::IsMember({"text", "json", "markdown"}));
}

void apply_format(const FormatChoice& choice, bool& json, DocumentRenderer markdown) {
  if (choice.format == "json") json = true;
  if (choice.format == "markdown") {
    json = true;
    set_document_renderer(markdown);
  }
}

std::string json_schema_id(JsonDoc kind) {
  switch (kind) {
    case JsonDoc::kPhysical: return "odf-hash/physical/1";
    case JsonDoc::kLogical: return "odf-hash/logical/1";
    case JsonDoc::kCheck: return "odf-hash/check/1";
    case JsonDoc::kSlice: return "odf-hash/slice/1";
    case JsonDoc::kDecode: return "odf-hash/decode/1";
    case JsonDoc::kVerify: return "odf-hash/verify/2";
    case JsonDoc::kVerifyQuery: return "odf-hash/verify-query/1";
    case JsonDoc::kFetch: return "odf-hash/fetch/2";
    case JsonDoc::kCompareFiles: return "odf-hash/compare-files/1";
    case JsonDoc::kCompareUnordered: return "odf-hash/compare-unordered/1";
    case JsonDoc::kCompareKeyed: return "odf-hash/compare-keyed/1";
    case JsonDoc::kCompareDatasets: return "odf-hash/compare-datasets/2";
  }
  return "odf-hash/unknown/0";
}

void print_json(nlohmann::json doc, JsonDoc kind) {
  doc["schema"] = json_schema_id(kind);
  std::string text =
      document_renderer != nullptr
          ? document_renderer(redacted(doc))
          : redacted(doc).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.empty() || text.back() != '\n') text.push_back('\n');
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

std::string escape_name(std::string_view name) {
  return escape_check_list_name(redact_url(name));
}

std::string reason_of(const Status& status, std::string_view raw_path) {
  const std::string path = redact_url(raw_path);
  const std::string m = redact_url(status.message());
  if (m.size() > path.size() + 2 && m.compare(0, path.size(), path) == 0 &&
      m.compare(path.size(), 2, ": ") == 0) {
    return m.substr(path.size() + 2);
  }
  return m;
}

bool is_stream_argument(const std::string& name) {
  if (name == "-") return true;
  if (is_store_url(name)) return false;
  struct stat st;
  if (::stat(name.c_str(), &st) != 0) return false;
  return !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

Result<std::string> read_small_file(const std::string& path) {
  int fd = STDIN_FILENO;
  if (path != "-") {
    do {
      fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) return Status::io_error(path + ": " + std::strerror(errno));
  }
  std::string out;
  char buf[65536];
  Status status;
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      status = Status::io_error(path + ": " +
                                (errno == EISDIR ? "is a directory" : std::strerror(errno)));
      break;
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  if (fd != STDIN_FILENO) ::close(fd);
  if (!status.is_ok()) return status;
  return out;
}

}  // namespace odf_hash::cli
