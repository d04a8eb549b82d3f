#include "odf_hash/api/fetch.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "odf_hash/api/verify.h"
#include "odf_hash/core/sha3.h"
#include "odf_hash/core/text.h"
#include "odf_hash/odf/dataset.h"
#include "odf_hash/odf/verify.h"
#include "odf_hash/odf/verify_pins.h"
#include "odf_hash/odf/workspace.h"

namespace odf_hash::api {

namespace {

bool is_url(const std::string& s) {
  return s.find("://") != std::string::npos;
}

// "sales" for ".../sales/", "s3://bucket/sales", "http://host/acct/sales?x".
std::string last_component(std::string location) {
  if (const size_t q = location.find_first_of("?#"); is_url(location) && q != std::string::npos) {
    location.resize(q);
  }
  while (!location.empty() && location.back() == '/') location.pop_back();
  const size_t slash = location.rfind('/');
  return slash == std::string::npos ? location : location.substr(slash + 1);
}

// The workspace at `location`, or nullopt (not one, or not readable: the fetch then says why).
std::optional<odf::Workspace> workspace_at(const std::string& location, const StoreOptions& store) {
  auto ws = odf::open_workspace(location, store);
  if (!ws.is_ok() || !ws->has_value()) return std::nullopt;
  return std::move(**ws);
}

struct Source {
  std::string location;
  std::string alias;  // the default alias in a destination workspace
};

Result<Source> resolve_source(const FetchRequest& r) {
  std::optional<odf::Workspace> ws = workspace_at(r.source, r.store);
  const std::string shown = redact_url(r.source);
  if (!ws) {
    if (r.dataset) {
      return Status::invalid_argument(shown +
                                      ": not a kamu workspace, so no dataset of it can be "
                                      "named (name the dataset's own location)");
    }
    return Source{r.source, last_component(r.source)};
  }
  if (!r.dataset) {
    std::string aliases;
    for (const auto& d : ws->datasets) aliases += (aliases.empty() ? "" : ", ") + d.alias;
    return Status::invalid_argument(shown +
                                    ": a kamu workspace; name the dataset to fetch by "
                                    "its alias or id (its datasets: " +
                                    escape_text(aliases) + ")");
  }
  odf::WorkspaceSelection selection = odf::select_datasets(*ws, {*r.dataset}, shown);
  if (!selection.errors.empty()) return selection.errors.front();
  const odf::WorkspaceDataset& d = *selection.chosen.front();
  if (!d.not_a_dataset.empty()) {
    return Status::invalid_argument(shown + ": " + escape_text(*r.dataset) + " is " +
                                    d.not_a_dataset);
  }
  return Source{d.location, d.alias};
}

// An alias kamu can take: printable, no '/', at most 255 bytes.
Status check_alias(const std::string& alias) {
  bool printable = !alias.empty() && alias.size() <= 255 && alias != "." && alias != "..";
  for (unsigned char c : alias) printable = printable && c >= 0x21 && c != 0x7f && c != '/';
  if (printable) return Status::ok();
  return Status::invalid_argument("alias '" + escape_text(alias) +
                                  "': an alias is 1 to 255 printable characters without '/' "
                                  "or spaces");
}

Status write_alias(const std::string& dataset, const std::string& alias) {
  const std::string info = dataset + "/info";
  if (::mkdir(info.c_str(), 0777) != 0 && errno != EEXIST) {
    return Status::io_error(info + ": cannot make the folder: " + std::strerror(errno));
  }
  const std::string path = info + "/alias";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return Status::io_error(path + ": cannot write: " + std::strerror(errno));
  const bool written =
      ::write(fd, alias.data(), alias.size()) == static_cast<ssize_t>(alias.size()) &&
      ::fsync(fd) == 0;
  ::close(fd);
  return written ? Status::ok() : Status::io_error(path + ": cannot write the alias");
}

// The dataset id (its folder name in a workspace, "fed01…") from the Seed of the dataset
// fetched into `folder`.
Result<std::string> folder_name_of(const std::string& folder, const odf::FetchReport& report) {
  std::optional<std::string> id = report.dataset_id;
  if (!id) {  // an incremental fetch into the staging folder: the Seed is in the folder
    ODF_HASH_ASSIGN_OR_RETURN(odf::DatasetDir dir, odf::DatasetDir::open(folder));
    ODF_HASH_ASSIGN_OR_RETURN(auto chain, odf::read_chain(dir));
    if (!chain.empty()) id = chain.back().block.dataset_id;
  }
  const std::string prefix = "did:odf:";
  if (!id || id->rfind(prefix, 0) != 0 || id->size() == prefix.size()) {
    return Status::invalid_argument(folder + ": the dataset's Seed names no dataset id");
  }
  std::string name = id->substr(prefix.size());
  for (char c : name) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'))) {
      return Status::invalid_argument(folder + ": the dataset id '" + escape_text(*id) +
                                      "' is no kamu folder name");
    }
  }
  return name;
}

// A new dataset into the workspace: fetched into a staging folder beside .kamu/datasets, then
// renamed into it.
Result<FetchResult> fetch_new(const odf::Workspace& ws, const std::string& source,
                              const std::string& alias, const odf::FetchOptions& options) {
  const std::string kamu =
      ws.location.substr(0, ws.location.size() - std::string("/datasets").size());
  const std::string staging_root = kamu + "/.odf-hash-fetch";
  if (::mkdir(staging_root.c_str(), 0777) != 0 && errno != EEXIST) {
    return Status::io_error(staging_root + ": cannot make the folder: " + std::strerror(errno));
  }
  const std::string staging =
      staging_root + "/" + to_hex(Sha3_256::digest(std::string_view(alias))).substr(0, 24);
  ODF_HASH_ASSIGN_OR_RETURN(odf::FetchReport report, odf::fetch_dataset(source, staging, options));
  if (!report.fetched()) return FetchResult{std::move(report), alias};
  ODF_HASH_ASSIGN_OR_RETURN(std::string name, folder_name_of(staging, report));
  for (const auto& d : ws.datasets) {
    if (d.id == name) {
      return Status::invalid_argument(
          ws.location + ": the workspace already holds this dataset (" + name + "), aliased '" +
          escape_text(d.alias) + "': fetch into it with that alias (the copy fetched stays in " +
          staging + ")");
    }
  }
  ODF_HASH_RETURN_IF_ERROR(write_alias(staging, alias));
  const std::string target = ws.location + "/" + name;
  if (::rename(staging.c_str(), target.c_str()) != 0) {
    return Status::io_error(
        target + ": cannot move the fetched dataset into place: " + std::strerror(errno));
  }
  report.dest = target;
  return FetchResult{std::move(report), alias};
}

// The trusted head and id a pin file gives the source; a sentence for `skipped` when it has
// none.
Status apply_pins(const std::string& pins, const std::string& source, odf::FetchOptions& options,
                  std::string* no_pin) {
  ODF_HASH_ASSIGN_OR_RETURN(odf::PinFile file, odf::read_pin_file(pins));
  const odf::Pin* pin = file.find(source);
  if (pin == nullptr) {
    *no_pin = "trusted head: the pin file " + pins + " has no pin for " + redact_url(source) +
              ", so none was checked";
    return Status::ok();
  }
  options.expect_head = pin->head;
  options.expect_dataset_id = pin->dataset_id;
  return Status::ok();
}

Result<FetchResult> fetch_resolved(const FetchRequest& request, const Source& source,
                                   const odf::FetchOptions& options) {
  if (is_url(request.dest)) {
    return Status::invalid_argument(redact_url(request.dest) +
                                    ": the destination must be a local folder");
  }
  std::optional<odf::Workspace> ws = workspace_at(request.dest, {});
  if (!ws) {
    if (request.alias) {
      return Status::invalid_argument(request.dest +
                                      ": not a kamu workspace, so an alias "
                                      "means nothing there");
    }
    ODF_HASH_ASSIGN_OR_RETURN(odf::FetchReport report,
                              odf::fetch_dataset(source.location, request.dest, options));
    return FetchResult{std::move(report), ""};
  }
  const std::string suffix = ".kamu/datasets";
  if (ws->location.size() < suffix.size() ||
      ws->location.compare(ws->location.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return Status::invalid_argument(request.dest +
                                    ": a folder of datasets, not a kamu workspace "
                                    "(no .kamu/): fetch into a dataset's own folder");
  }
  const std::string alias = request.alias.value_or(source.alias);
  ODF_HASH_RETURN_IF_ERROR(check_alias(alias));
  const odf::WorkspaceDataset* existing = nullptr;
  for (const auto& d : ws->datasets) {
    if (d.alias != alias) continue;
    if (existing != nullptr) {
      return Status::invalid_argument(request.dest + ": several datasets are aliased '" +
                                      escape_text(alias) + "' (" + existing->id + ", " + d.id +
                                      ")");
    }
    existing = &d;
  }
  if (existing == nullptr) return fetch_new(*ws, source.location, alias, options);
  if (!existing->not_a_dataset.empty()) {
    return Status::invalid_argument(existing->location + ": " + existing->not_a_dataset);
  }
  ODF_HASH_ASSIGN_OR_RETURN(odf::FetchReport report,
                            odf::fetch_dataset(source.location, existing->location, options));
  return FetchResult{std::move(report), alias};
}

}  // namespace

Result<FetchResult> fetch(const FetchRequest& request) {
  odf::FetchOptions options;
  options.jobs = verify_jobs(request.source, request.jobs);
  options.force = request.force;
  options.store = request.store;
  options.progress = request.progress;
  if (request.expect_head) {
    auto head = Multihash::parse(*request.expect_head);
    if (!head.is_ok()) {
      const char* name =
          request.spelling == odf::ArgSpelling::kFlags ? "--expect-head" : "expect_head";
      return Status::invalid_argument(std::string(name) + ": " + head.status().message());
    }
    options.expect_head = *head;
  }
  ODF_HASH_ASSIGN_OR_RETURN(Source source, resolve_source(request));
  std::string no_pin;
  if (request.pins) {
    if (request.expect_head) {
      return Status::invalid_argument(request.spelling == odf::ArgSpelling::kFlags
                                          ? "--expect-head and --pins: give one"
                                          : "expect_head and pins: give one");
    }
    ODF_HASH_RETURN_IF_ERROR(apply_pins(*request.pins, source.location, options, &no_pin));
  }
  ODF_HASH_ASSIGN_OR_RETURN(FetchResult result, fetch_resolved(request, source, options));
  if (!no_pin.empty()) result.report.skipped.push_back(no_pin);
  return result;
}

}  // namespace odf_hash::api
