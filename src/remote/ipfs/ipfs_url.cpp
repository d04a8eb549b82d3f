// ipfs:// and ipns:// URLs (ipfs_url.h).
#include "ipfs_url.h"

#include <cctype>

#include "cid.h"
#include "odf_hash/core/text.h"
#include "odf_hash/io/store.h"
#include "odf_hash/remote/open_store.h"

namespace odf_hash::remote::ipfs {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// One path component, percent-decoded; `why` says what is wrong when it cannot be.
bool decode_component(std::string_view text, std::string* out, std::string* why) {
  out->clear();
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out->push_back(text[i]);
      continue;
    }
    const bool two = i + 2 < text.size();
    const int hi = two ? hex_value(text[i + 1]) : -1;
    const int lo = two ? hex_value(text[i + 2]) : -1;
    if (hi < 0 || lo < 0) {
      *why = "a '%' not followed by two hex digits";
      return false;
    }
    out->push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  if (*out == "." || *out == "..") {
    *why = "the dot segment \"" + *out +
           "\": a gateway resolves it before /ipfs/, so it would leave the content the URL "
           "names";
    return false;
  }
  if (out->find('/') != std::string::npos || out->find('\0') != std::string::npos) {
    *why = "an encoded '/' or NUL in a path component";
    return false;
  }
  return true;
}

bool is_ipns_name(std::string_view name) {
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (!std::isalnum(u) && c != '-' && c != '.' && c != '_') return false;
  }
  return name != "." && name != "..";
}

}  // namespace

Result<IpfsUrl> parse_ipfs_url(std::string_view url) {
  const std::string shown = redact_url(url);
  IpfsUrl out;
  out.ipns = std::tolower(static_cast<unsigned char>(url[2])) == 'n';
  const std::string scheme = out.ipns ? "ipns" : "ipfs";
  if (url.find_first_of("?#") != std::string_view::npos) {
    return Status::invalid_argument(shown + ": an " + scheme +
                                    ":// URL has no query or fragment ('?' or '#')");
  }
  const std::string_view rest = url.substr(7);
  const size_t slash = rest.find('/');
  out.name = std::string(rest.substr(0, slash));
  if (out.name.empty() || out.name.find_first_of("@:%") != std::string::npos) {
    return Status::invalid_argument(shown + ": not an " + scheme +
                                    "://NAME/path URL (a CID or an IPNS name)");
  }
  if (out.ipns) {
    if (!is_ipns_name(out.name)) {
      return Status::invalid_argument(shown + ": \"" + escape_untrusted(out.name, 80) +
                                      "\" is not an IPNS name (a key's CID or a domain)");
    }
  } else {
    auto cid = parse_cid(out.name);
    if (!cid.is_ok()) return cid.status().with_context(shown);
  }
  std::string_view path = slash == std::string_view::npos ? "" : rest.substr(slash + 1);
  while (!path.empty()) {
    const size_t end = path.find('/');
    const std::string_view part = path.substr(0, end);
    path = end == std::string_view::npos ? "" : path.substr(end + 1);
    if (part.empty()) continue;
    std::string decoded, why;
    if (!decode_component(part, &decoded, &why)) {
      return Status::invalid_argument(shown + ": its path holds " + why);
    }
    out.components.push_back(std::move(decoded));
  }
  return out;
}

std::string gateway_path(const IpfsUrl& url) {
  static const char* hex = "0123456789ABCDEF";
  std::string out = url.ipns ? "/ipns/" : "/ipfs/";
  out += url.name;
  for (const std::string& c : url.components) {
    out += '/';
    for (unsigned char ch : c) {
      if (std::isalnum(ch) || ch == '-' || ch == '.' || ch == '_' || ch == '~') {
        out += static_cast<char>(ch);
      } else {
        out += '%';
        out += hex[ch >> 4];
        out += hex[ch & 15];
      }
    }
  }
  return out;
}

}  // namespace odf_hash::remote::ipfs
