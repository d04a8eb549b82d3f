// The run-time choice of Keccak kernels: CPU detection, the process-wide default level
// (detected, or named by ODF_HASH_KECCAK_LEVEL, or forced by set_multi_lane_level) and the
// kernels each level runs.
#include "keccak_dispatch.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace odf_hash {
namespace {

// Each check is made once. __builtin_cpu_supports also checks that the OS saves the vector
// registers the instructions use (XGETBV), not only the CPUID bits; __builtin_cpu_init makes
// the checks safe from static constructors too.
bool cpu_has_bmi2() noexcept {
#if defined(ODF_HASH_HAVE_X86_KERNELS)
  static const bool yes = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
  }();
  return yes;
#else
  return false;
#endif
}

bool cpu_has_avx2() noexcept {
#if defined(ODF_HASH_HAVE_X86_KERNELS)
  static const bool yes = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return yes;
#else
  return false;
#endif
}

bool cpu_has_avx512() noexcept {
#if defined(ODF_HASH_HAVE_X86_KERNELS)
  static const bool yes = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx2");
  }();
  return yes;
#else
  return false;
#endif
}

// Levels are cumulative, except on (rare, virtual) CPUs with AVX2 but without BMI2: kAvx2 is
// still offered there and its one-lane work falls back to the portable kernel.
KeccakLevel detect_level() noexcept {
  if (cpu_has_avx512()) return KeccakLevel::kAvx512;
  if (cpu_has_avx2()) return KeccakLevel::kAvx2;
  if (cpu_has_bmi2()) return KeccakLevel::kBmi2;
  return KeccakLevel::kPortable;
}

KeccakLevel detected() noexcept {
  static const KeccakLevel level = detect_level();
  return level;
}

// The default level: ODF_HASH_KECCAK_LEVEL if set to a level this CPU runs, else the detected
// one. A bad value is not an error anyone could handle at this point (the first hasher of the
// process is being built), so it is reported once on stderr and ignored.
KeccakLevel default_level() noexcept {
  static const KeccakLevel level = [] {
    const char* value = std::getenv(kKeccakLevelEnv);
    Result<KeccakLevel> chosen = keccak_level_from_env_value(value);
    if (chosen.is_ok()) return chosen.value();
    std::fprintf(stderr, "odf-hash: ignoring %s=%s: %s; using the detected level '%s'\n",
                 kKeccakLevelEnv, value, chosen.status().message().c_str(),
                 keccak_level_name(detected()));
    return detected();
  }();
  return level;
}

constexpr int kNotForced = -1;
std::atomic<int> g_forced_level{kNotForced};

}  // namespace

namespace keccak {

KeccakLevel single_level_for(KeccakLevel level) noexcept {
  if (level >= KeccakLevel::kAvx512 && cpu_has_avx512()) return KeccakLevel::kAvx512;
  if (level >= KeccakLevel::kBmi2 && cpu_has_bmi2()) return KeccakLevel::kBmi2;
  return KeccakLevel::kPortable;
}

Kernels kernels_for(KeccakLevel level) noexcept {
  Kernels k{absorb_portable, nullptr, nullptr};
  if (!keccak_level_supported(level)) return k;
#if defined(ODF_HASH_HAVE_X86_KERNELS)
  switch (single_level_for(level)) {
    case KeccakLevel::kAvx512: k.one = absorb_avx512; break;
    case KeccakLevel::kBmi2: k.one = absorb_bmi2; break;
    default: break;
  }
  if (level >= KeccakLevel::kAvx2) k.four = absorb_x4_avx2;
  if (level >= KeccakLevel::kAvx512) k.eight = absorb_x8_avx512;
#endif
  return k;
}

Kernels lane_kernels_for(KeccakLevel level) noexcept {
  Kernels k = kernels_for(level);
#if defined(ODF_HASH_HAVE_X86_KERNELS)
  if (k.one == absorb_avx512 && cpu_has_bmi2() && !avx512_single_is_faster()) {
    k.one = absorb_bmi2;
  }
#endif
  return k;
}

Status unsupported_level(KeccakLevel level) {
  return Status::unsupported(std::string("Keccak level '") + keccak_level_name(level) +
                             "' is not supported by this CPU or build");
}

}  // namespace keccak

const char* keccak_level_name(KeccakLevel level) noexcept {
  switch (level) {
    case KeccakLevel::kPortable: return "portable";
    case KeccakLevel::kBmi2: return "bmi2";
    case KeccakLevel::kAvx2: return "avx2";
    case KeccakLevel::kAvx512: return "avx512";
  }
  return "unknown";
}

Result<KeccakLevel> parse_keccak_level(std::string_view name) {
  for (KeccakLevel level : kKeccakLevels) {
    if (name == keccak_level_name(level)) return level;
  }
  return Status::invalid_argument("unknown Keccak level '" + std::string(name) +
                                  "' (expected portable, bmi2, avx2 or avx512)");
}

Result<KeccakLevel> keccak_level_from_env_value(const char* value) {
  if (value == nullptr || *value == '\0') return detected();
  ODF_HASH_ASSIGN_OR_RETURN(KeccakLevel level, parse_keccak_level(value));
  if (!keccak_level_supported(level)) return keccak::unsupported_level(level);
  return level;
}

bool keccak_level_supported(KeccakLevel level) noexcept {
  switch (level) {
    case KeccakLevel::kPortable: return true;
    case KeccakLevel::kBmi2: return cpu_has_bmi2();
    case KeccakLevel::kAvx2: return cpu_has_avx2();
    case KeccakLevel::kAvx512: return cpu_has_avx512();
  }
  return false;
}

KeccakLevel detected_multi_lane_level() noexcept {
  return detected();
}

KeccakLevel multi_lane_level() noexcept {
  const int forced = g_forced_level.load(std::memory_order_relaxed);
  return forced == kNotForced ? default_level() : static_cast<KeccakLevel>(forced);
}

Status set_multi_lane_level(KeccakLevel level) {
  if (!keccak_level_supported(level)) return keccak::unsupported_level(level);
  g_forced_level.store(static_cast<int>(level), std::memory_order_relaxed);
  return Status::ok();
}

void reset_multi_lane_level() noexcept {
  g_forced_level.store(kNotForced, std::memory_order_relaxed);
}

}  // namespace odf_hash
