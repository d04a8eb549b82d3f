// The verify modes as a user gives them (include/odf_hash/odf/verify_args.h).
#include "odf_hash/odf/verify_args.h"

#include <cerrno>
#include <cstdlib>
#include <random>
#include <string>

#include "odf_hash/core/text.h"
#include "odf_hash/io/store.h"

namespace odf_hash::odf {

namespace {

std::string name_of(const char* key, ArgSpelling spelling) {
  std::string s = key;
  if (spelling == ArgSpelling::kKeywords) return s;
  for (char& c : s) c = c == '_' ? '-' : c;
  return "--" + s;
}

// The value of a given option, refused when empty.
Result<std::optional<std::string>> given(const std::optional<std::string>& value, const char* key,
                                         ArgSpelling spelling) {
  if (value && value->empty()) return empty_value_status(name_of(key, spelling));
  return value;
}

Result<std::optional<Multihash>> hash_of(const std::optional<std::string>& text, const char* key,
                                         ArgSpelling spelling) {
  if (!text) return std::optional<Multihash>();
  auto h = Multihash::parse(*text);
  if (!h.is_ok()) {
    return Status::invalid_argument(name_of(key, spelling) + " \"" + escape_untrusted(*text, 100) +
                                    "\": not a multihash: " + h.status().message());
  }
  return std::optional<Multihash>(*h);
}

Status parse_sample(const std::string& t, const std::string& name, VerifyModes& m) {
  const Status bad = Status::invalid_argument(
      name + " \"" + escape_untrusted(t, 40) +
      "\": expected a fraction in (0, 1] (0.01, 1%) or a count of files (25)");
  char* end = nullptr;
  errno = 0;
  if (t.find_first_of(".eE%") != std::string::npos) {
    const bool percent = t.back() == '%';
    const std::string number = percent ? t.substr(0, t.size() - 1) : t;
    double v = std::strtod(number.c_str(), &end);
    if (percent) v /= 100;
    if (end == number.c_str() || *end != '\0' || errno != 0 || !(v > 0 && v <= 1)) return bad;
    m.sample_fraction = v;
  } else {
    const unsigned long long v = std::strtoull(t.c_str(), &end, 10);
    if (end == t.c_str() || *end != '\0' || errno != 0 || v == 0 || t[0] == '-') return bad;
    m.sample_count = v;
  }
  m.sample_spec = t;
  return Status::ok();
}

Result<uint64_t> parse_seed(const std::string& t, const std::string& name) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(t.c_str(), &end, 10);
  if (end == t.c_str() || *end != '\0' || errno != 0 || t[0] == '-' || t[0] == '+' || t[0] == ' ') {
    return Status::invalid_argument(name + " \"" + escape_untrusted(t, 40) +
                                    "\": expected a non-negative integer below 2^64");
  }
  return static_cast<uint64_t>(v);
}

}  // namespace

Status empty_value_status(const std::string& option) {
  return Status::invalid_argument(option + ": " + kEmptyValueRefused);
}

void VerifyModes::apply(VerifyOptions& options) const {
  options.expect_head = expect_head;
  options.since = since;
  options.sample_fraction = sample_fraction;
  options.sample_count = sample_count;
  options.sample_seed = sample_seed;
  options.sample_spec = sample_spec;
}

Result<VerifyModes> parse_verify_modes(const VerifyModeArgs& args, ArgSpelling spelling) {
  VerifyModes m;
  ODF_HASH_ASSIGN_OR_RETURN(auto expect_head, given(args.expect_head, "expect_head", spelling));
  ODF_HASH_ASSIGN_OR_RETURN(auto since, given(args.since, "since", spelling));
  ODF_HASH_ASSIGN_OR_RETURN(auto sample, given(args.sample, "sample", spelling));
  ODF_HASH_ASSIGN_OR_RETURN(auto seed, given(args.seed, "seed", spelling));
  ODF_HASH_ASSIGN_OR_RETURN(auto pins, given(args.pins, "pins", spelling));
  ODF_HASH_ASSIGN_OR_RETURN(auto write_pins, given(args.write_pins, "write_pins", spelling));
  ODF_HASH_ASSIGN_OR_RETURN(m.expect_head, hash_of(expect_head, "expect_head", spelling));
  ODF_HASH_ASSIGN_OR_RETURN(m.since, hash_of(since, "since", spelling));
  if (sample) {
    ODF_HASH_RETURN_IF_ERROR(parse_sample(*sample, name_of("sample", spelling), m));
    if (seed) {
      ODF_HASH_ASSIGN_OR_RETURN(m.sample_seed, parse_seed(*seed, name_of("seed", spelling)));
    } else {
      // A seed of this run, shown in the report so that the sample can be redone.
      m.sample_seed = (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
    }
  } else if (seed) {
    return Status::invalid_argument(name_of("seed", spelling) + " is used with " +
                                    name_of("sample", spelling) + " only");
  }
  if (since && write_pins && !expect_head && !pins) {
    return Status::invalid_argument(
        name_of("since", spelling) + " with " + name_of("write_pins", spelling) +
        " pins heads whose chain below the " + name_of("since", spelling) +
        " block was not checked: anchor it with " + name_of("expect_head", spelling) +
        " (the head trusted before) or " + name_of("pins", spelling) +
        " (datasets the pin file names; the others are verified but not pinned)");
  }
  if (pins) {
    ODF_HASH_ASSIGN_OR_RETURN(m.pins, read_pin_file(*pins));
  }
  if (write_pins) {
    ODF_HASH_RETURN_IF_ERROR(check_pin_file_target(*write_pins));
    m.write_pins = *write_pins;
  }
  return m;
}

}  // namespace odf_hash::odf
