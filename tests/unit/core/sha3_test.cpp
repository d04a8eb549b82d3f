// SHA3-256: published NIST examples, Python hashlib vectors (tests/conformance/), and
// streaming-vs-one-shot splits. Expected digests never come from odf-hash itself.
#include "odf_hash/core/sha3.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace odf_hash {
namespace {

std::string hex(const Digest256& d) {
  return to_hex(d);
}

// The message patterns of tests/conformance/gen_sha3_vectors.py.
std::vector<uint8_t> make_message(const std::string& pattern, size_t n) {
  std::vector<uint8_t> m(n);
  for (size_t i = 0; i < n; ++i) {
    if (pattern == "mix") {
      m[i] = static_cast<uint8_t>((i * 167 + n * 13 + 7) % 256);
    } else if (pattern == "zeros") {
      m[i] = 0x00;
    } else if (pattern == "ones") {
      m[i] = 0xff;
    } else {
      ADD_FAILURE() << "unknown pattern " << pattern;
    }
  }
  return m;
}

struct Vector {
  std::string pattern;
  size_t length;
  std::string sha3_256;
};

const std::vector<Vector>& hashlib_vectors() {
  static const std::vector<Vector> vectors = [] {
    std::vector<Vector> out;
    const std::string path = ODF_HASH_SOURCE_DIR "/tests/conformance/sha3_vectors.json";
    std::ifstream in(path);
    if (!in) {
      ADD_FAILURE() << "cannot open " << path;
      return out;
    }
    const auto doc = nlohmann::json::parse(in);
    for (const auto& v : doc.at("vectors")) {
      out.push_back({v.at("pattern").get<std::string>(), v.at("length").get<size_t>(),
                     v.at("sha3_256").get<std::string>()});
    }
    return out;
  }();
  return vectors;
}

const Vector* find_vector(const std::string& pattern, size_t length) {
  for (const auto& v : hashlib_vectors()) {
    if (v.pattern == pattern && v.length == length) return &v;
  }
  return nullptr;
}

// FIPS 202 examples published by NIST (csrc.nist.gov, "SHA3-256" example values).
TEST(Sha3Nist, EmptyMessage) {
  EXPECT_EQ(hex(Sha3_256::digest(std::string_view())),
            "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a");
}

TEST(Sha3Nist, Abc) {
  EXPECT_EQ(hex(Sha3_256::digest("abc")),
            "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
}

TEST(Sha3Nist, Message448Bits) {
  EXPECT_EQ(hex(Sha3_256::digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "41c0dba2a9d6240849100376a8235e2c82e1b9998a999e21db32dd97496d3376");
}

TEST(Sha3Nist, Message896Bits) {
  EXPECT_EQ(hex(Sha3_256::digest("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                                 "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu")),
            "916f6061fe879741ca6469b43971dfdb28b1a32dc36cb3254e812be27aad1d18");
}

TEST(Sha3Nist, OneMillionA) {
  const std::string a(1000000, 'a');
  EXPECT_EQ(hex(Sha3_256::digest(a)),
            "5c8875ae474a3634ba4fd55ec85bffd661f32aca75c6d699d0cdcb6c115891c1");
  // The same million bytes streamed in uneven pieces.
  Sha3_256 h;
  size_t done = 0;
  for (size_t piece = 1; done < a.size(); piece = piece * 3 + 1) {
    const size_t n = std::min(piece % 10007, a.size() - done);
    h.update(a.data() + done, n);
    done += n;
  }
  EXPECT_EQ(hex(h.finalize()), "5c8875ae474a3634ba4fd55ec85bffd661f32aca75c6d699d0cdcb6c115891c1");
}

TEST(Sha3Hashlib, VectorFileIsComplete) {
  // lengths 0..300 and the multi-block sizes the generator promises
  EXPECT_GE(hashlib_vectors().size(), 340u);
  for (size_t n = 0; n <= 300; ++n) EXPECT_NE(find_vector("mix", n), nullptr) << n;
}

TEST(Sha3Hashlib, EveryVectorOneShot) {
  for (const auto& v : hashlib_vectors()) {
    const auto m = make_message(v.pattern, v.length);
    EXPECT_EQ(hex(Sha3_256::digest(m)), v.sha3_256) << v.pattern << " length " << v.length;
  }
}

TEST(Sha3Hashlib, EveryVectorStreamedInRateSizedAndOddPieces) {
  for (const auto& v : hashlib_vectors()) {
    const auto m = make_message(v.pattern, v.length);
    for (size_t piece : {size_t{1}, size_t{7}, kSha3_256Rate, kSha3_256Rate + 1}) {
      if (piece == 1 && v.length > 5000) continue;  // byte-at-a-time over 1 MiB is just slow
      Sha3_256 h;
      for (size_t off = 0; off < m.size(); off += piece) {
        h.update(m.data() + off, std::min(piece, m.size() - off));
      }
      EXPECT_EQ(hex(h.finalize()), v.sha3_256)
          << v.pattern << " length " << v.length << " piece " << piece;
    }
  }
}

TEST(Sha3Hashlib, ShortAndRateBoundaryLengths) {
  for (size_t n : {0, 1, 2, 3, 4, 5, 6, 7, 8, 135, 136, 137, 271, 272, 273}) {
    const Vector* v = find_vector("mix", n);
    ASSERT_NE(v, nullptr) << n;
    EXPECT_EQ(hex(Sha3_256::digest(make_message("mix", n))), v->sha3_256) << n;
  }
  for (size_t n : {135, 136, 137}) {
    for (const char* pattern : {"zeros", "ones"}) {
      const Vector* v = find_vector(pattern, n);
      ASSERT_NE(v, nullptr) << pattern << n;
      EXPECT_EQ(hex(Sha3_256::digest(make_message(pattern, n))), v->sha3_256) << pattern << n;
    }
  }
}

TEST(Sha3Streaming, EveryTwoWaySplitOf300BytesMatchesHashlib) {
  const auto m = make_message("mix", 300);
  const Vector* v = find_vector("mix", 300);
  ASSERT_NE(v, nullptr);
  for (size_t split = 0; split <= m.size(); ++split) {
    Sha3_256 h;
    h.update(m.data(), split);
    h.update(m.data() + split, m.size() - split);
    EXPECT_EQ(hex(h.finalize()), v->sha3_256) << "split at " << split;
  }
}

TEST(Sha3Streaming, ThreeWaySplitsAroundTheRate) {
  const auto m = make_message("mix", 300);
  const Vector* v = find_vector("mix", 300);
  ASSERT_NE(v, nullptr);
  for (size_t a = 130; a <= 142; ++a) {
    for (size_t b = a; b <= 280; b += 3) {
      Sha3_256 h;
      h.update(std::span<const uint8_t>(m).subspan(0, a));
      h.update(std::span<const uint8_t>(m).subspan(a, b - a));
      h.update(std::span<const uint8_t>(m).subspan(b));
      EXPECT_EQ(hex(h.finalize()), v->sha3_256) << a << "," << b;
    }
  }
}

TEST(Sha3Streaming, FinalizeResetsForTheNextMessage) {
  Sha3_256 h;
  h.update("abc");
  EXPECT_EQ(hex(h.finalize()), "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
  EXPECT_EQ(hex(h.finalize()), "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a");
  h.update("ab");
  h.update(std::string_view("c"));
  EXPECT_EQ(hex(h.finalize()), "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
}

TEST(Sha3Streaming, EmptyUpdatesAndNullDataAreNoOps) {
  Sha3_256 h;
  h.update(nullptr, 0);
  h.update("a");
  h.update(nullptr, 0);
  h.update(std::span<const uint8_t>());
  h.update("bc");
  EXPECT_EQ(hex(h.finalize()), "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
}

TEST(Sha3Streaming, MovedHasherKeepsItsState) {
  Sha3_256 a;
  a.update("a");
  Sha3_256 b(std::move(a));
  b.update("b");
  Sha3_256 c;
  c = std::move(b);
  c.update("c");
  EXPECT_EQ(hex(c.finalize()), "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
}

// The OpenSSL reference itself (what the kernel tests compare against), on the published
// values and the hashlib vectors.
TEST(Sha3OpenSsl, MatchesNistAndHashlib) {
  EXPECT_EQ(hex(Sha3_256OpenSsl::digest("abc")),
            "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
  for (const auto& v : hashlib_vectors()) {
    Sha3_256OpenSsl h;
    const auto m = make_message(v.pattern, v.length);
    h.update(std::span<const uint8_t>(m).subspan(0, m.size() / 3));
    h.update(std::span<const uint8_t>(m).subspan(m.size() / 3));
    EXPECT_EQ(hex(h.finalize()), v.sha3_256) << v.pattern << " length " << v.length;
  }
}

TEST(Hex, LowerCaseTwoDigitsPerByte) {
  const uint8_t bytes[] = {0x00, 0x01, 0x7f, 0x80, 0xab, 0xff};
  EXPECT_EQ(to_hex(bytes), "00017f80abff");
  EXPECT_EQ(to_hex({}), "");
}

}  // namespace
}  // namespace odf_hash
