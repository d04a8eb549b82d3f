// CIDs and block checks (cid.h).
#include "cid.h"

#include <openssl/evp.h>

#include <cstdio>
#include <cstring>

#include "odf_hash/core/multibase.h"
#include "odf_hash/core/text.h"
#include "odf_hash/core/varint.h"
#include "odf_hash/io/store.h"

namespace odf_hash::remote::ipfs {

namespace {

std::string hex_code(uint64_t code) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(code));
  return buf;
}

std::string hash_name(uint64_t code) {
  switch (code) {
    case kHashIdentity: return "identity";
    case kHashSha2_256: return "sha2-256";
    case kHashSha2_512: return "sha2-512";
    case kHashSha3_512: return "sha3-512";
    case kHashSha3_256: return "sha3-256";
    case 0x15: return "sha3-384";
    case 0x1b: return "keccak-256";
    case 0x1e: return "blake3";
    case 0xb220: return "blake2b-256";
    default: return hex_code(code);
  }
}

// The OpenSSL digest of a hash code; null for identity and hashes not supported.
const EVP_MD* digest_of(uint64_t code) {
  switch (code) {
    case kHashSha2_256: return EVP_sha256();
    case kHashSha2_512: return EVP_sha512();
    case kHashSha3_256: return EVP_sha3_256();
    case kHashSha3_512: return EVP_sha3_512();
    default: return nullptr;
  }
}

// Reads one varint at `*at` (multiformats rules: minimal, at most 9 bytes).
Result<uint64_t> next_varint(std::span<const uint8_t> bytes, size_t* at, const char* what) {
  auto v = varint::decode(bytes.subspan(*at));
  if (!v.is_ok()) return Status::parse_error(std::string(what) + ": " + v.status().message());
  *at += v->length;
  return v->value;
}

// The multihash at `*at` to the end of `bytes`.
Status read_multihash(std::span<const uint8_t> bytes, size_t at, Cid& cid) {
  ODF_HASH_ASSIGN_OR_RETURN(cid.hash_code, next_varint(bytes, &at, "the multihash's code"));
  ODF_HASH_ASSIGN_OR_RETURN(const uint64_t length,
                            next_varint(bytes, &at, "the multihash's digest length"));
  const size_t rest = bytes.size() - at;
  if (length != rest) {
    return Status::parse_error("the multihash declares a digest of " + std::to_string(length) +
                               " bytes, and " + std::to_string(rest) + " follow");
  }
  cid.digest.assign(bytes.begin() + static_cast<ptrdiff_t>(at), bytes.end());
  return Status::ok();
}

}  // namespace

std::string codec_name(uint64_t codec) {
  switch (codec) {
    case kCodecRaw: return "raw";
    case kCodecDagPb: return "dag-pb";
    case 0x71: return "dag-cbor";
    case 0x0129: return "dag-json";
    case 0x0200: return "json";
    case 0x51: return "cbor";
    case 0x72: return "libp2p-key";
    default: return hex_code(codec);
  }
}

std::string Cid::to_string() const {
  if (version == 0) return multibase::encode(multibase::Base::kBase58Btc, bytes).substr(1);
  return multibase::encode(multibase::Base::kBase32, bytes);
}

Result<Cid> cid_from_bytes(std::span<const uint8_t> bytes) {
  Cid cid;
  cid.bytes.assign(bytes.begin(), bytes.end());
  if (bytes.size() == 34 && bytes[0] == kHashSha2_256 && bytes[1] == 32) {
    cid.version = 0;
    cid.codec = kCodecDagPb;
    cid.hash_code = kHashSha2_256;
    cid.digest.assign(bytes.begin() + 2, bytes.end());
    return cid;
  }
  size_t at = 0;
  ODF_HASH_ASSIGN_OR_RETURN(cid.version, next_varint(bytes, &at, "the CID's version"));
  if (cid.version != 1) {
    return Status::parse_error("a CID of version " + std::to_string(cid.version) +
                               " (CIDv0 is a 34-byte sha2-256 multihash, CIDv1 starts with 1)");
  }
  ODF_HASH_ASSIGN_OR_RETURN(cid.codec, next_varint(bytes, &at, "the CID's codec"));
  ODF_HASH_RETURN_IF_ERROR(read_multihash(bytes, at, cid));
  return cid;
}

Result<Cid> parse_cid(std::string_view text) {
  const std::string shown = "\"" + escape_untrusted(text, 80) + "\"";
  auto refuse = [&](const std::string& why) {
    return Status::invalid_argument(shown + " is not a CID: " + why);
  };
  if (text.empty()) return refuse("it is empty");
  std::vector<uint8_t> bytes;
  if (text.size() == 46 && text.substr(0, 2) == "Qm") {
    auto decoded = multibase::decode("z" + std::string(text));
    if (!decoded.is_ok()) return refuse("not base58btc: " + decoded.status().message());
    bytes = std::move(decoded).value();
    if (bytes.size() != 34 || bytes[0] != kHashSha2_256 || bytes[1] != 32) {
      return refuse("a CIDv0 (\"Qm…\") is a base58btc sha2-256 multihash of 34 bytes");
    }
  } else {
    auto decoded = multibase::decode(text);
    if (!decoded.is_ok()) {
      return refuse("a CIDv1 is multibase text (\"bafy…\": base32), and this does not decode: " +
                    decoded.status().message());
    }
    bytes = std::move(decoded).value();
    // The CID spec: a multibase text starting with 0x12 would be a CIDv0 in multibase, which
    // is not allowed (there is no CID version 18, so that nothing is ambiguous).
    if (!bytes.empty() && bytes[0] == kHashSha2_256) {
      return refuse("a CIDv0 is written in base58btc without a multibase prefix");
    }
  }
  auto cid = cid_from_bytes(bytes);
  if (!cid.is_ok()) return refuse(cid.status().message());
  if (cid->version == 1 && cid->hash_code == kHashIdentity && cid->digest.size() > kMaxBlockBytes) {
    return refuse("an identity CID of more than " + std::to_string(kMaxBlockBytes) + " bytes");
  }
  return cid;
}

Status check_block(const Cid& cid, std::span<const uint8_t> block) {
  if (cid.hash_code == kHashIdentity) {
    if (block.size() == cid.digest.size() &&
        (block.empty() || std::memcmp(block.data(), cid.digest.data(), block.size()) == 0)) {
      return Status::ok();
    }
    return Status::io_error("the block is not the content inlined in its identity CID " +
                            cid.to_string());
  }
  const EVP_MD* md = digest_of(cid.hash_code);
  if (md == nullptr) {
    return Status::unsupported(cid.to_string() + ": its hash function " + hash_name(cid.hash_code) +
                               " is not one odf-hash checks (sha2-256, sha2-512, sha3-256, "
                               "sha3-512, identity)");
  }
  const auto full = static_cast<size_t>(EVP_MD_get_size(md));
  if (cid.digest.size() != full) {
    return Status::unsupported(cid.to_string() + ": a " + hash_name(cid.hash_code) + " digest of " +
                               std::to_string(cid.digest.size()) +
                               " bytes (odf-hash checks full-length digests only, " +
                               std::to_string(full) + " bytes)");
  }
  uint8_t out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(block.data(), block.size(), out, &len, md, nullptr) != 1 || len != full) {
    return Status::internal("OpenSSL could not compute " + hash_name(cid.hash_code));
  }
  if (std::memcmp(out, cid.digest.data(), full) != 0) {
    return Status::io_error("the block of " + std::to_string(block.size()) +
                            " bytes does not hash to " + cid.to_string() + " (its " +
                            hash_name(cid.hash_code) +
                            " differs): not the content "
                            "this CID names");
  }
  return Status::ok();
}

}  // namespace odf_hash::remote::ipfs
