// `odf-hash decode HASH`: what a multihash string holds.
#include <cstdio>
#include <memory>
#include <string>

#include "commands.h"
#include "odf_hash/core/multihash.h"
#include "odf_hash/core/multihash_hint.h"
#include "output.h"

namespace odf_hash::cli {
namespace {

struct DecodeOptions {
  std::string hash;
  bool json = false;
};

std::string hex_code(uint64_t code) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(code));
  return buf;
}

int run_decode(const DecodeOptions& options) {
  auto parsed = Multihash::parse(options.hash);
  if (!parsed.is_ok()) {
    // The parse error quotes the hash already; the hint says what to change.
    print_error(parsed.status().message());
    if (std::string hint = suggest_multihash_fix(options.hash); !hint.empty()) {
      print_error("hint: " + hint);
    }
    return kExitError;
  }
  const Multihash& h = *parsed;
  const auto code = static_cast<uint64_t>(h.code());
  const char* codec = hash_code_name(code);
  const auto base = static_cast<multibase::Base>(options.hash.front());
  const std::string digest = to_hex(h.digest());
  if (options.json) {
    print_json({{"codec", codec},
                {"code", code},
                {"code_hex", hex_code(code)},
                {"length", h.digest().size()},
                {"digest", digest},
                {"base", multibase::base_name(base)},
                {"canonical", h.to_string()},
                {"short", h.short_string()}},
               JsonDoc::kDecode);
    return kExitOk;
  }
  std::printf("codec:     %s\n", codec);
  std::printf("code:      %s\n", hex_code(code).c_str());
  std::printf("length:    %zu\n", h.digest().size());
  std::printf("digest:    %s\n", digest.c_str());
  std::printf("base:      %s\n", multibase::base_name(base));
  std::printf("canonical: %s\n", h.to_string().c_str());
  std::printf("short:     %s\n", h.short_string().c_str());
  return kExitOk;
}

}  // namespace

Command add_decode_command(CLI::App& root) {
  auto opts = std::make_shared<DecodeOptions>();
  CLI::App* app = root.add_subcommand(
      "decode", "Show what a hash holds: codec, code, digest, canonical and short forms");
  app->add_option("hash", opts->hash,
                  "A multihash in any multibase (f/F hex, b/B base32, z base58btc, m/u base64...)")
      ->type_name("HASH")
      ->required();
  app->add_flag("--json", opts->json, "Print one JSON document on stdout instead of text");
  app->footer(
      "Known codes: sha3-256 (0x16, physical hashes) and arrow0-sha3-256 (0x300016, logical\n"
      "hashes). The canonical form is the ODF one: 'f' + lower-case hex of the multihash.\n"
      "Exit status: 0 ok, 2 malformed hash or usage error.");
  return {app, [opts] { return run_decode(*opts); }};
}

}  // namespace odf_hash::cli
