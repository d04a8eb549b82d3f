// Trusted keys and trust files (include/odf_hash/query/trusted_keys.h).
#include "odf_hash/query/trusted_keys.h"

#include <algorithm>
#include <string>

#include "odf_hash/internal/io/text_file.h"
#include "odf_hash/query/canonical_json.h"

namespace odf_hash::query {

namespace {

bool is_space(char c) {
  return c == ' ';
}

// Why a line cannot be read, or "".
std::string bad_name(std::string_view name) {
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7F) {
      return c == '\r'   ? "a carriage return (a file with CRLF line ends?)"
             : c == '\t' ? "a tab (separate the DID and the name with spaces)"
                         : "a control character";
    }
  }
  std::string scratch;
  if (!append_canonical_string(scratch, name).is_ok()) return "bytes that are not UTF-8";
  return "";
}

}  // namespace

Result<TrustedKeys> TrustedKeys::parse(std::string_view text, std::string_view where) {
  TrustedKeys out;
  size_t number = 0;
  while (!text.empty()) {
    ++number;
    const size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    if (line.empty() || line.front() == '#') continue;
    const std::string at = where.empty() ? "line " + std::to_string(number)
                                         : std::string(where) + ":" + std::to_string(number);
    auto fail = [&](const Status& why) { return Status(why.code(), at + ": " + why.message()); };
    const size_t space = std::find_if(line.begin(), line.end(), is_space) - line.begin();
    const std::string_view did = line.substr(0, space);
    std::string_view name = space < line.size() ? line.substr(space) : std::string_view();
    while (!name.empty() && is_space(name.front())) name.remove_prefix(1);
    while (!name.empty() && is_space(name.back())) name.remove_suffix(1);
    if (std::string why = bad_name(line); !why.empty()) return fail(Status::invalid_argument(why));
    auto key = DidKey::parse(did);
    if (!key.is_ok()) return fail(key.status());
    if (const TrustedKey* seen = out.find(*key)) {
      return fail(
          Status::invalid_argument("the key is listed twice (first at " + seen->source + ")"));
    }
    out.keys_.push_back(TrustedKey{*key, std::string(did), std::string(name), at});
  }
  return out;
}

Status TrustedKeys::add(std::string_view did, std::string_view source) {
  auto key = DidKey::parse(did);
  if (!key.is_ok()) return key.status();
  if (find(*key) == nullptr)
    keys_.push_back(TrustedKey{*key, std::string(did), "", std::string(source)});
  return Status::ok();
}

void TrustedKeys::merge(const TrustedKeys& other) {
  for (const TrustedKey& k : other.keys_) {
    if (find(k.key) == nullptr) keys_.push_back(k);
  }
}

const TrustedKey* TrustedKeys::find(const DidKey& key) const {
  auto it =
      std::find_if(keys_.begin(), keys_.end(), [&](const TrustedKey& k) { return k.key == key; });
  return it == keys_.end() ? nullptr : &*it;
}

Result<TrustedKeys> read_trust_file(const std::string& path) {
  auto text = read_text_file(path, "trust file", kMaxTrustFileBytes);
  if (!text.is_ok()) return text.status();
  return TrustedKeys::parse(*text, path);
}

}  // namespace odf_hash::query
