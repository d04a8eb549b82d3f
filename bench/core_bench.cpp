// Core layer: SHA3-256 of short messages (where per-message set-up dominates) against
// OpenSSL's one-shot EVP_Digest, and multihash parsing/formatting in the bases ODF uses.
// Run: build/bench/core_bench
#include <benchmark/benchmark.h>
#include <openssl/evp.h>

#include <string>
#include <vector>

#include "odf_hash/core/multihash.h"
#include "odf_hash/core/sha3.h"

namespace {

using odf_hash::Multihash;
using odf_hash::Sha3_256;

std::vector<uint8_t> message(size_t n) {
  std::vector<uint8_t> m(n);
  for (size_t i = 0; i < n; ++i) m[i] = static_cast<uint8_t>(i * 167 + 7);
  return m;
}

// odf-hash: one hasher reused across messages (finalize resets it).
void BM_Sha3Reused(benchmark::State& state) {
  const auto m = message(static_cast<size_t>(state.range(0)));
  Sha3_256 h;
  for (auto _ : state) {
    h.update(m);
    benchmark::DoNotOptimize(h.finalize());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * m.size()));
}

// odf-hash: one-shot helper (a new hasher per message).
void BM_Sha3OneShot(benchmark::State& state) {
  const auto m = message(static_cast<size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(Sha3_256::digest(m));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * m.size()));
}

// Peer: OpenSSL's own one-shot, EVP_Digest with EVP_sha3_256() (implicit fetch each call).
void BM_OpenSslEvpDigest(benchmark::State& state) {
  const auto m = message(static_cast<size_t>(state.range(0)));
  unsigned char out[32];
  unsigned int len = 0;
  for (auto _ : state) {
    EVP_Digest(m.data(), m.size(), out, &len, EVP_sha3_256(), nullptr);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * m.size()));
}

// Peer: a reused EVP_MD_CTX re-initialised with EVP_sha3_256() (implicit fetch per init).
void BM_OpenSslCtxImplicitFetch(benchmark::State& state) {
  const auto m = message(static_cast<size_t>(state.range(0)));
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  unsigned char out[32];
  unsigned int len = 0;
  for (auto _ : state) {
    EVP_DigestInit_ex(ctx, EVP_sha3_256(), nullptr);
    EVP_DigestUpdate(ctx, m.data(), m.size());
    EVP_DigestFinal_ex(ctx, out, &len);
    benchmark::DoNotOptimize(out);
  }
  EVP_MD_CTX_free(ctx);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * m.size()));
}

#define SMALL_SIZES Arg(0)->Arg(32)->Arg(135)->Arg(1024)
BENCHMARK(BM_Sha3Reused)->SMALL_SIZES;
BENCHMARK(BM_Sha3OneShot)->SMALL_SIZES;
BENCHMARK(BM_OpenSslEvpDigest)->SMALL_SIZES;
BENCHMARK(BM_OpenSslCtxImplicitFetch)->SMALL_SIZES;

const Multihash kHash = Multihash::arrow0_sha3_256(Sha3_256::digest("multihash"));

void BM_MultihashParse(benchmark::State& state) {
  const auto base = static_cast<odf_hash::multibase::Base>(state.range(0));
  const std::string text = kHash.to_string(base);
  state.SetLabel(odf_hash::multibase::base_name(base));
  for (auto _ : state) benchmark::DoNotOptimize(Multihash::parse(text));
}
BENCHMARK(BM_MultihashParse)->Arg('f')->Arg('z')->Arg('u')->Arg('b');

void BM_MultihashToString(benchmark::State& state) {
  const auto base = static_cast<odf_hash::multibase::Base>(state.range(0));
  state.SetLabel(odf_hash::multibase::base_name(base));
  for (auto _ : state) benchmark::DoNotOptimize(kHash.to_string(base));
}
BENCHMARK(BM_MultihashToString)->Arg('f')->Arg('z')->Arg('u')->Arg('b');

}  // namespace

BENCHMARK_MAIN();
