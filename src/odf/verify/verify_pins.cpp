// Pin files (include/odf_hash/odf/verify_pins.h).
#include "odf_hash/odf/verify_pins.h"

#include <string>
#include <utility>
#include <vector>

#include "odf_hash/core/check_list.h"
#include "odf_hash/core/multibase.h"
#include "odf_hash/core/text.h"
#include "odf_hash/internal/io/text_file.h"
#include "odf_hash/internal/remote/location.h"
#include "odf_hash/io/store.h"

namespace odf_hash::odf {

namespace {

constexpr std::string_view kDidPrefix = "did:odf:";
constexpr const char* kWhat = "pin file";

// "line 3: why" (parse_pin_line), completed by PinFile::parse as "<where>:3: why".
Status line_error(size_t line, const std::string& why) {
  return Status::invalid_argument("line " + std::to_string(line) + ": " + why);
}

Status at(std::string_view where, size_t line, const Status& error) {
  if (where.empty()) return error;
  std::string m = error.message();
  const std::string prefix = "line " + std::to_string(line) + ": ";
  if (m.starts_with(prefix)) m.erase(0, prefix.size());
  return Status::invalid_argument(std::string(where) + ":" + std::to_string(line) + ": " + m);
}

// One line: nullopt for a blank or comment line. "<head> <id>  <location>" is taken apart
// here, and "<head>  <location>" (either form) read by the check-list parser, which knows the
// escapes.
Result<std::optional<Pin>> parse_pin_line(std::string_view line, size_t number) {
  const bool escaped = !line.empty() && line.front() == '\\';
  const std::string_view rest = escaped ? line.substr(1) : line;
  std::optional<std::string> id;
  std::string check_line(line);
  const size_t space = rest.find(' ');
  if (space != std::string_view::npos && rest.substr(space + 1).starts_with("did:")) {
    const size_t id_end = rest.find("  ", space + 1);
    if (id_end == std::string_view::npos) {
      return line_error(number, "the dataset id is not followed by two spaces and the location");
    }
    auto canonical = canonical_dataset_id(rest.substr(space + 1, id_end - space - 1));
    if (!canonical.is_ok()) return line_error(number, canonical.status().message());
    id = std::move(*canonical);
    check_line = std::string(escaped ? "\\" : "") + std::string(rest.substr(0, space)) +
                 std::string(rest.substr(id_end));
  }
  auto entry = parse_check_line(check_line, number);
  if (!entry.is_ok()) return line_error(number, entry.status().message());
  if (!*entry) {
    if (id) return line_error(number, "a dataset id without a head and a location");
    return std::optional<Pin>();
  }
  std::string key = canonical_location((*entry)->path);
  return std::optional<Pin>(
      Pin{(*entry)->expected, std::move(id), std::move((*entry)->path), std::move(key), number});
}

// Why a valid pass gives no pin; "" when it does.
std::string unpinnable(const DatasetReport& r) {
  if (r.scope.sampled) return "a sampled pass reads only some of the files";
  if (r.scope.since_found && !r.scope.expected_head_found) {
    return "--since " + r.scope.since->to_string() +
           " checked only the blocks above it, and nothing anchors the chain below it: give "
           "the head trusted before with --expect-head, or pin the dataset in --pins";
  }
  return "";
}

}  // namespace

Result<std::string> canonical_dataset_id(std::string_view text) {
  auto refuse = [&](const std::string& why) {
    return Status::invalid_argument("\"" + escape_untrusted(text, 100) +
                                    "\" is not a dataset id (did:odf:<multibase>): " + why);
  };
  if (!text.starts_with(kDidPrefix)) return refuse("it does not start with did:odf:");
  auto bytes = multibase::decode(text.substr(kDidPrefix.size()));
  if (!bytes.is_ok()) return refuse(bytes.status().message());
  if (bytes->empty()) return refuse("no bytes");
  return std::string(kDidPrefix) + multibase::encode(multibase::Base::kBase16, *bytes);
}

Result<PinFile> PinFile::parse(std::string_view text, std::string_view where) {
  PinFile f;
  size_t number = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++number;
    auto pin = parse_pin_line(line, number);
    if (!pin.is_ok()) return at(where, number, pin.status());
    if (!*pin) continue;
    for (const Pin& other : f.pins_) {
      if (other.key == (*pin)->key) {
        return at(
            where, number,
            line_error(number, "\"" + escape_untrusted((*pin)->location, 200) +
                                   "\" is pinned on line " + std::to_string(other.line) +
                                   " already (both are " + escape_untrusted((*pin)->key, 200) +
                                   "): a pin file names each dataset once"));
      }
    }
    f.pins_.push_back(std::move(**pin));
  }
  return f;
}

const Pin* PinFile::find(std::string_view url_or_path) const {
  const std::string key = canonical_location(url_or_path);
  for (const Pin& p : pins_) {
    if (p.key == key) return &p;
  }
  return nullptr;
}

void PinFile::set(Pin pin) {
  pin.key = canonical_location(pin.location);
  pin.location = pin.key;
  for (Pin& p : pins_) {
    if (p.key == pin.key) {
      pin.line = p.line;
      p = std::move(pin);
      return;
    }
  }
  pins_.push_back(std::move(pin));
}

std::string PinFile::to_text() const {
  std::string out;
  for (const Pin& p : pins_) out += format_pin_line(p) + "\n";
  return out;
}

std::string format_pin_line(const Pin& pin) {
  std::string line = format_check_line(pin.head, pin.location);
  if (!pin.dataset_id) return line;
  // "<head>  <location>" (maybe behind a backslash) -> "<head> <id>  <location>".
  const size_t space = line.find(' ');
  return line.substr(0, space) + " " + *pin.dataset_id + line.substr(space);
}

Result<PinFile> read_pin_file(const std::string& path) {
  ODF_HASH_ASSIGN_OR_RETURN(std::string text, read_text_file(path, kWhat, kMaxPinFileBytes));
  return PinFile::parse(text, path);
}

Status check_pin_file_target(const std::string& path) {
  return resolve_replaceable_file(path, kWhat).status();
}

Status write_pins(const std::string& path, const std::vector<Pin>& pins) {
  return update_text_file(path, kWhat, kMaxPinFileBytes,
                          [&](const std::optional<std::string>& current) -> Result<std::string> {
                            PinFile file;
                            if (current) {
                              auto parsed = PinFile::parse(*current, path);
                              if (!parsed.is_ok()) {
                                return Status::invalid_argument(parsed.status().message() +
                                                                "; the pin file was not rewritten");
                              }
                              file = std::move(*parsed);
                            }
                            for (const Pin& p : pins) file.set(p);
                            return file.to_text();
                          });
}

Result<PinnedReport> verify_with_pins(const std::string& url_or_path, VerifyOptions options,
                                      const PinFile* pins, bool pinning) {
  const Pin* pin = pins != nullptr ? pins->find(url_or_path) : nullptr;
  if (pin != nullptr) {
    options.expect_head = pin->head;
    options.expect_dataset_id = pin->dataset_id;
  }
  PinnedReport out;
  ODF_HASH_ASSIGN_OR_RETURN(out.report, verify_dataset(url_or_path, options));
  DatasetReport& r = out.report;
  std::vector<std::string>& notes = r.scope.skipped;
  const std::string location = canonical_location(url_or_path);
  if (pins != nullptr && pin == nullptr && !options.expect_head) {
    notes.push_back("trusted head: none, the pin file names no pin for \"" +
                    redact_url(url_or_path) + "\" (" + location + "; verified without one)");
  }
  if (pin != nullptr && !pin->dataset_id) {
    notes.push_back("dataset id: not checked, the pin (line " + std::to_string(pin->line) +
                    ") records none (a line of an older pin file; --write-pins records it)");
  }
  if (!r.valid() || !r.head) return out;
  if (const std::string why = unpinnable(r); !why.empty()) {
    if (pinning) notes.push_back("--write-pins: not pinned: " + why);
    return out;
  }
  Pin p{*r.head, r.dataset_id, location, location, 0};
  // --since read no Seed: the id of the trusted head's pin, found on the chain, holds.
  if (!p.dataset_id && r.scope.expected_head_found) p.dataset_id = options.expect_dataset_id;
  if (pinning && !p.dataset_id) {
    notes.push_back("--write-pins: the pin records no dataset id (the Seed was not read)");
  }
  out.pin = std::move(p);
  return out;
}

}  // namespace odf_hash::odf
