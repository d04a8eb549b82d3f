// Multibase: known answers from the multibase spec's test vectors (multiformats/multibase,
// tests/*.csv and rfcs/Base10.md, rfcs/Base36.md), random round trips over every base, and
// every kind of malformed input.
#include "odf_hash/core/multibase.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace odf_hash::multibase {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes bytes_of(std::string_view s) {
  return Bytes(s.begin(), s.end());
}

struct Known {
  Base base;
  const char* text;
};

// tests/basic.csv: "yes mani !"
const Known kBasic[] = {
    {Base::kBase2,
     "001111001011001010111001100100000011011010110000101101110011010010010000000100001"},
    {Base::kBase8, "7362625631006654133464440102"},
    {Base::kBase10, "9573277761329450583662625"},
    {Base::kBase16, "f796573206d616e692021"},
    {Base::kBase16Upper, "F796573206D616E692021"},
    {Base::kBase32, "bpfsxgidnmfxgsibb"},
    {Base::kBase32Upper, "BPFSXGIDNMFXGSIBB"},
    {Base::kBase32Hex, "vf5in683dc5n6i811"},
    {Base::kBase32HexUpper, "VF5IN683DC5N6I811"},
    {Base::kBase32Pad, "cpfsxgidnmfxgsibb"},
    {Base::kBase32PadUpper, "CPFSXGIDNMFXGSIBB"},
    {Base::kBase32HexPad, "tf5in683dc5n6i811"},
    {Base::kBase32HexPadUpper, "TF5IN683DC5N6I811"},
    {Base::kBase36, "k2lcpzo5yikidynfl"},
    {Base::kBase36Upper, "K2LCPZO5YIKIDYNFL"},
    {Base::kBase58Btc, "z7paNL19xttacUY"},
    {Base::kBase64, "meWVzIG1hbmkgIQ"},
    {Base::kBase64Pad, "MeWVzIG1hbmkgIQ=="},
    {Base::kBase64Url, "ueWVzIG1hbmkgIQ"},
    {Base::kBase64UrlPad, "UeWVzIG1hbmkgIQ=="},
};

// tests/leading_zero.csv: "\x00yes mani !"
const Known kLeadingZero[] = {
    {Base::kBase2,
     "00000000001111001011001010111001100100000011011010110000101101110011010010010000000100001"},
    {Base::kBase8, "7000745453462015530267151100204"},
    {Base::kBase10, "90573277761329450583662625"},
    {Base::kBase16, "f00796573206d616e692021"},
    {Base::kBase16Upper, "F00796573206D616E692021"},
    {Base::kBase32, "bab4wk4zanvqw42jaee"},
    {Base::kBase32Upper, "BAB4WK4ZANVQW42JAEE"},
    {Base::kBase32Hex, "v01smasp0dlgmsq9044"},
    {Base::kBase32HexUpper, "V01SMASP0DLGMSQ9044"},
    {Base::kBase32Pad, "cab4wk4zanvqw42jaee======"},
    {Base::kBase32PadUpper, "CAB4WK4ZANVQW42JAEE======"},
    {Base::kBase32HexPad, "t01smasp0dlgmsq9044======"},
    {Base::kBase32HexPadUpper, "T01SMASP0DLGMSQ9044======"},
    {Base::kBase36, "k02lcpzo5yikidynfl"},
    {Base::kBase36Upper, "K02LCPZO5YIKIDYNFL"},
    {Base::kBase58Btc, "z17paNL19xttacUY"},
    {Base::kBase64, "mAHllcyBtYW5pICE"},
    {Base::kBase64Pad, "MAHllcyBtYW5pICE="},
    {Base::kBase64Url, "uAHllcyBtYW5pICE"},
    {Base::kBase64UrlPad, "UAHllcyBtYW5pICE="},
};

// tests/two_leading_zeros.csv: "\x00\x00yes mani !"
const Known kTwoLeadingZeros[] = {
    {Base::kBase2,
     "0000000000000000001111001011001010111001100100000011011010110000101101110011010010010000000"
     "100001"},
    {Base::kBase8, "700000171312714403326055632220041"},
    {Base::kBase10, "900573277761329450583662625"},
    {Base::kBase16, "f0000796573206d616e692021"},
    {Base::kBase16Upper, "F0000796573206D616E692021"},
    {Base::kBase32, "baaahszltebwwc3tjeaqq"},
    {Base::kBase32Upper, "BAAAHSZLTEBWWC3TJEAQQ"},
    {Base::kBase32Hex, "v0007ipbj41mm2rj940gg"},
    {Base::kBase32HexUpper, "V0007IPBJ41MM2RJ940GG"},
    {Base::kBase32Pad, "caaahszltebwwc3tjeaqq===="},
    {Base::kBase32PadUpper, "CAAAHSZLTEBWWC3TJEAQQ===="},
    {Base::kBase32HexPad, "t0007ipbj41mm2rj940gg===="},
    {Base::kBase32HexPadUpper, "T0007IPBJ41MM2RJ940GG===="},
    {Base::kBase36, "k002lcpzo5yikidynfl"},
    {Base::kBase36Upper, "K002LCPZO5YIKIDYNFL"},
    {Base::kBase58Btc, "z117paNL19xttacUY"},
    {Base::kBase64, "mAAB5ZXMgbWFuaSAh"},
    {Base::kBase64Pad, "MAAB5ZXMgbWFuaSAh"},
    {Base::kBase64Url, "uAAB5ZXMgbWFuaSAh"},
    {Base::kBase64UrlPad, "UAAB5ZXMgbWFuaSAh"},
};

void check_known(const Known (&table)[20], std::string_view plain) {
  const Bytes input = bytes_of(plain);
  for (const Known& k : table) {
    SCOPED_TRACE(base_name(k.base));
    EXPECT_EQ(encode(k.base, input), k.text);
    auto d = decode(k.text);
    ASSERT_TRUE(d.is_ok()) << d.status().to_string();
    EXPECT_EQ(*d, input);
  }
}

TEST(MultibaseKnown, SpecBasicVectors) {
  check_known(kBasic, "yes mani !");
}
TEST(MultibaseKnown, SpecLeadingZeroVectors) {
  check_known(kLeadingZero, std::string_view("\0yes mani !", 11));
}
TEST(MultibaseKnown, SpecTwoLeadingZerosVectors) {
  check_known(kTwoLeadingZeros, std::string_view("\0\0yes mani !", 12));
}

TEST(MultibaseKnown, VectorTablesCoverEveryBase) {
  EXPECT_EQ(all_bases().size(), std::size(kBasic));
  for (Base b : all_bases()) {
    bool found = false;
    for (const Known& k : kBasic) found = found || k.base == b;
    EXPECT_TRUE(found) << base_name(b);
  }
}

// tests/case_insensitivity.csv: differently cased, must decode to "hello world".
TEST(MultibaseKnown, SpecCaseInsensitivityVectors) {
  for (const char* text :
       {"f68656c6c6f20776F726C64", "F68656c6c6f20776F726C64", "bnbswy3dpeB3W64TMMQ",
        "Bnbswy3dpeB3W64TMMQ", "vd1imor3f41RMUSJCCG", "Vd1imor3f41RMUSJCCG",
        "cnbswy3dpeB3W64TMMQ======", "Cnbswy3dpeB3W64TMMQ======", "td1imor3f41RMUSJCCG======",
        "Td1imor3f41RMUSJCCG======", "kfUvrsIvVnfRbjWaJo", "KfUVrSIVVnFRbJWAJo"}) {
    auto d = decode(text);
    ASSERT_TRUE(d.is_ok()) << text << ": " << d.status().to_string();
    EXPECT_EQ(*d, bytes_of("hello world")) << text;
  }
}

// rfcs/Base10.md and rfcs/Base36.md examples.
TEST(MultibaseKnown, SpecBigNumberExamples) {
  struct Case {
    Bytes bytes;
    const char* base10;
    const char* base36;
  };
  for (const Case& c :
       {Case{{0x00, 0x01}, "901", "k01"}, Case{{0x00, 0x00, 0xff}, "900255", "k0073"},
        Case{{0x01, 0x00}, "9256", "k74"}, Case{{0x00, 0x01, 0x00}, "90256", "k074"}}) {
    EXPECT_EQ(encode(Base::kBase10, c.bytes), c.base10);
    EXPECT_EQ(encode(Base::kBase36, c.bytes), c.base36);
    std::string upper = c.base36;
    upper[0] = 'K';
    EXPECT_EQ(encode(Base::kBase36Upper, c.bytes), upper);
    for (const std::string& s : {std::string(c.base10), std::string(c.base36), upper}) {
      auto d = decode(s);
      ASSERT_TRUE(d.is_ok()) << s;
      EXPECT_EQ(*d, c.bytes) << s;
    }
  }
}

// RFC 4648 section 10 test vectors ("", "f", "fo", ..., "foobar").
TEST(MultibaseKnown, Rfc4648Vectors) {
  const char* plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
  const char* b64pad[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
  const char* b32pad[] = {
      "", "MY======", "MZXQ====", "MZXW6===", "MZXW6YQ=", "MZXW6YTB", "MZXW6YTBOI======"};
  const char* b32hexpad[] = {
      "", "CO======", "CPNG====", "CPNMU===", "CPNMUOG=", "CPNMUOJ1", "CPNMUOJ1E8======"};
  for (size_t i = 0; i < std::size(plain); ++i) {
    const Bytes in = bytes_of(plain[i]);
    EXPECT_EQ(encode(Base::kBase64Pad, in), std::string("M") + b64pad[i]);
    EXPECT_EQ(encode(Base::kBase32PadUpper, in), std::string("C") + b32pad[i]);
    EXPECT_EQ(encode(Base::kBase32HexPadUpper, in), std::string("T") + b32hexpad[i]);
    std::string nopad = b64pad[i];
    nopad.erase(nopad.find_last_not_of('=') + 1);
    EXPECT_EQ(encode(Base::kBase64, in), "m" + nopad);
    EXPECT_EQ(*decode("m" + nopad), in);
    EXPECT_EQ(*decode(std::string("M") + b64pad[i]), in);
    EXPECT_EQ(*decode(std::string("C") + b32pad[i]), in);
    EXPECT_EQ(*decode(std::string("T") + b32hexpad[i]), in);
  }
}

TEST(MultibaseKnown, Base64UrlUsesDashAndUnderscore) {
  const Bytes b = {0xfb, 0xff, 0xbf};
  EXPECT_EQ(encode(Base::kBase64, b), "m+/+/");
  EXPECT_EQ(encode(Base::kBase64Url, b), "u-_-_");
  EXPECT_FALSE(decode("u+/+/").is_ok());
  EXPECT_FALSE(decode("m-_-_").is_ok());
}

TEST(MultibaseNames, EveryBaseHasItsSpecName) {
  EXPECT_STREQ(base_name(Base::kBase58Btc), "base58btc");
  EXPECT_STREQ(base_name(Base::kBase16), "base16");
  EXPECT_STREQ(base_name(Base::kBase32HexPadUpper), "base32hexpadupper");
  EXPECT_STREQ(base_name(Base::kBase64UrlPad), "base64urlpad");
  EXPECT_STREQ(base_name(static_cast<Base>('x')), "unknown");
}

TEST(MultibaseNames, ValueOutsideTheEnumEncodesAsBase16) {
  const Bytes b = {0xab, 0x01};
  EXPECT_EQ(encode(static_cast<Base>('x'), b), "fab01");
}

// ---- round trips ---------------------------------------------------------------------

std::vector<Bytes> sample_inputs() {
  std::vector<Bytes> out;
  std::mt19937 rng(20261202);
  for (size_t n = 0; n <= 80; ++n) {
    for (int rep = 0; rep < 4; ++rep) {
      Bytes b(n);
      for (auto& x : b) x = static_cast<uint8_t>(rng());
      out.push_back(b);
    }
  }
  for (size_t n = 0; n <= 40; ++n) {
    out.push_back(Bytes(n, 0x00));
    out.push_back(Bytes(n, 0xff));
    for (size_t zeros = 1; zeros <= 3 && zeros < n; ++zeros) {
      Bytes b(n, 0x5a);
      for (size_t i = 0; i < zeros; ++i) b[i] = 0;
      out.push_back(b);
    }
  }
  Bytes big(1000);
  for (auto& x : big) x = static_cast<uint8_t>(rng());
  out.push_back(big);
  return out;
}

TEST(MultibaseRoundTrip, EveryBaseOverRandomAndEdgeInputs) {
  const auto inputs = sample_inputs();
  for (Base base : all_bases()) {
    for (const Bytes& in : inputs) {
      const std::string text = encode(base, in);
      ASSERT_EQ(text[0], static_cast<char>(base));
      auto out = decode(text);
      ASSERT_TRUE(out.is_ok()) << base_name(base) << " " << text << ": "
                               << out.status().to_string();
      ASSERT_EQ(*out, in) << base_name(base) << " " << text;
    }
  }
}

TEST(MultibaseRoundTrip, LeadingZeroBytesAreLeadingZeroDigits) {
  const Bytes b = {0, 0, 0, 1};
  EXPECT_EQ(encode(Base::kBase58Btc, b), "z1112");
  EXPECT_EQ(encode(Base::kBase10, b), "90001");
  EXPECT_EQ(encode(Base::kBase36, b), "k0001");
  EXPECT_EQ(encode(Base::kBase58Btc, Bytes(3, 0)), "z111");
  EXPECT_EQ(*decode("z111"), Bytes(3, 0));
  EXPECT_EQ(*decode("9000"), Bytes(3, 0));
  EXPECT_EQ(*decode("K000"), Bytes(3, 0));
}

TEST(MultibaseRoundTrip, UpperPrefixesWriteUpperCase) {
  const Bytes b = {0xab, 0xcd, 0xef, 0x12, 0x34};
  EXPECT_EQ(encode(Base::kBase16, b), "fabcdef1234");
  EXPECT_EQ(encode(Base::kBase16Upper, b), "FABCDEF1234");
  for (Base upper : {Base::kBase16Upper, Base::kBase32Upper, Base::kBase32PadUpper,
                     Base::kBase32HexUpper, Base::kBase32HexPadUpper, Base::kBase36Upper}) {
    const std::string s = encode(upper, b);
    for (char c : s) EXPECT_FALSE(c >= 'a' && c <= 'z') << s;
  }
}

TEST(MultibaseRoundTrip, PrefixAloneIsTheEmptyByteString) {
  for (Base base : all_bases()) {
    const std::string prefix(1, static_cast<char>(base));
    EXPECT_EQ(encode(base, {}), prefix);
    auto d = decode(prefix);
    ASSERT_TRUE(d.is_ok()) << prefix;
    EXPECT_TRUE(d->empty());
  }
}

// ---- malformed input -----------------------------------------------------------------

// Expects an error whose message contains every fragment.
void expect_error(std::string_view text, std::initializer_list<const char*> fragments,
                  StatusCode code = StatusCode::kInvalidArgument) {
  auto d = decode(text);
  ASSERT_FALSE(d.is_ok()) << "'" << text << "' decoded";
  EXPECT_EQ(d.status().code(), code) << d.status().to_string();
  for (const char* f : fragments) {
    EXPECT_NE(d.status().message().find(f), std::string::npos)
        << "'" << text << "': message '" << d.status().message() << "' lacks '" << f << "'";
  }
}

TEST(MultibaseMalformed, EmptyString) {
  expect_error("", {"empty"});
}

TEST(MultibaseMalformed, UnknownPrefix) {
  expect_error("x1234", {"unknown prefix", "'x'"});
  expect_error("=", {"unknown prefix"});
  expect_error(std::string_view("\0abc", 4), {"unknown prefix", "0x00"});
  expect_error("\xff", {"unknown prefix", "0xff"});
  expect_error("1", {"unknown prefix"});  // reserved
}

TEST(MultibaseMalformed, RegisteredButUnsupportedBases) {
  expect_error("hxf1zgedpcfzg1ebb", {"base32z"}, StatusCode::kUnsupported);
  expect_error("Z7Pznk19XTTzBtx", {"base58flickr"}, StatusCode::kUnsupported);
  expect_error("\xF0\x9F\x9A\x80\xF0\x9F\x8F\x83", {"base256emoji"}, StatusCode::kUnsupported);
}

TEST(MultibaseMalformed, DigitOutsideTheAlphabetNamesIndexAndCharacter) {
  expect_error("f0g", {"'g'", "index 2", "base16"});
  expect_error("f00 0", {"' '", "index 3"});
  expect_error("z11O", {"'O'", "index 3", "base58btc"});
  expect_error("z0", {"'0'", "index 1"});
  expect_error("zIl", {"'I'", "index 1"});
  expect_error("9123a", {"'a'", "index 4", "base10"});
  expect_error("k12_", {"'_'", "index 3", "base36"});
  expect_error("00000000020000000", {"'2'", "index 9", "base2"});
  expect_error("70000000080000000", {"'8'", "index 9", "base8"});
  expect_error("bmz1a", {"'1'", "index 3", "base32"});
  expect_error("vmw", {"'w'", "index 2", "base32hex"});
  expect_error("mAB-C", {"'-'", "index 3", "base64"});
  expect_error("uAB+C", {"'+'", "index 3", "base64url"});
  expect_error("f0\xff", {"0xff", "index 2"});
  expect_error(std::string_view("z1\0", 3), {"0x00", "index 2"});
}

TEST(MultibaseMalformed, PaddingWhereNoneBelongs) {
  expect_error("mQQ==", {"'='", "index 3", "takes no padding"});
  expect_error("uQQ=", {"'='", "index 3", "takes no padding"});
  expect_error("bme=====", {"'='", "index 3", "takes no padding"});
  expect_error("vc4======", {"'='", "takes no padding"});
  expect_error("700=", {"'='", "index 3"});
  expect_error("f0=", {"'='", "index 2"});
}

TEST(MultibaseMalformed, MissingOrExtraPadding) {
  ASSERT_TRUE(decode("MQQ==").is_ok());  // "A"
  expect_error("MQQ", {"base64pad", "not a multiple of 4"});
  expect_error("MQQ=", {"not a multiple of 4"});
  expect_error("MQQ===", {"not a multiple of 4"});
  expect_error("MQUE==", {"not a multiple of 4"});
  expect_error("MQQ==QQ==", {"'='", "index 3", "padding may only end"});
  expect_error("MQUE=QUE=", {"'='", "index 4"});
  expect_error("UQQ", {"base64urlpad"});
  ASSERT_TRUE(decode("cme======").is_ok());  // "a"
  expect_error("cme", {"base32pad", "not a multiple of 8"});
  expect_error("cme=====", {"not a multiple of 8"});
  expect_error("cme=======", {"not a multiple of 8"});
  expect_error("cmfrgg====", {"not a multiple of 8"});
  ASSERT_TRUE(decode("cmfrgg===").is_ok());  // "abc"
  expect_error("Tc4=====", {"base32hexpadupper"});
  // Padding after a complete group, or a group of padding alone.
  expect_error("MQUJD====", {"4 padding characters where 4 digits need 0"});
  expect_error("M====", {"4 padding characters where 0 digits need 0"});
  expect_error("cmfrggzdf========", {"8 padding characters"});
  // One digit and three '=': the padding fits, but one digit is no whole byte.
  expect_error("MQ===", {"1 digits cannot encode"});
}

TEST(MultibaseMalformed, ImpossibleLengths) {
  expect_error("f0", {"base16", "1 digits cannot encode a whole number of bytes"});
  expect_error("F012", {"base16upper", "3 digits"});
  expect_error("bm", {"base32", "1 digits"});
  expect_error("bmfr", {"3 digits"});
  expect_error("bmfrggz", {"6 digits"});
  expect_error("mQ", {"base64", "1 digits"});
  expect_error("mQUJDR", {"5 digits"});
}

TEST(MultibaseMalformed, Base2AndBase8Lengths) {
  EXPECT_TRUE(decode("0").is_ok());
  expect_error("00101", {"base2", "4 digits"});  // non-canonical base2 is rejected
  expect_error("0010000010", {"base2", "9 digits"});
  EXPECT_EQ(*decode("001000001"), Bytes{0x41});
  // base8: 1 byte = 3 digits, 2 bytes = 6 digits, 3 bytes = 8 digits
  for (size_t n : {1, 2, 4, 5, 7, 9}) {
    expect_error("7" + std::string(n, '0'), {"base8", "cannot encode"});
  }
  for (size_t n : {0, 3, 6, 8, 11}) EXPECT_TRUE(decode("7" + std::string(n, '0')).is_ok()) << n;
}

TEST(MultibaseMalformed, NonZeroTrailingBits) {
  EXPECT_EQ(*decode("mQQ"), Bytes{'A'});
  expect_error("mQR", {"base64", "'R'", "index 2", "non-zero trailing bits"});
  expect_error("MQR==", {"base64pad", "non-zero trailing bits"});
  expect_error("uQUF", {"base64url", "'F'", "index 3", "trailing bits"});
  expect_error("bmf", {"base32", "'f'", "index 2", "trailing bits"});
  expect_error("cmf======", {"base32pad", "trailing bits"});
  expect_error("vc5", {"base32hex", "trailing bits"});
  expect_error("7001", {"base8", "'1'", "index 3", "trailing bits"});
  expect_error("7000003", {"base8", "index 6", "trailing bits"});
}

TEST(MultibaseMalformed, BigNumberInputIsBounded) {
  const std::string ok58 = "z" + std::string(kMaxBigNumberDigits, 'z');
  auto d = decode(ok58);
  ASSERT_TRUE(d.is_ok()) << d.status().to_string();
  EXPECT_EQ(encode(Base::kBase58Btc, *d), ok58);
  expect_error("z" + std::string(kMaxBigNumberDigits + 1, 'z'), {"base58btc", "too long", "4097"});
  expect_error("9" + std::string(kMaxBigNumberDigits + 1, '9'), {"base10", "too long"});
  expect_error("K" + std::string(100000, 'Z'), {"base36upper", "too long"});
  // Leading zero digits count toward the bound as well.
  expect_error("z" + std::string(kMaxBigNumberDigits + 1, '1'), {"too long"});
  EXPECT_EQ(decode("z" + std::string(kMaxBigNumberDigits, '1'))->size(), kMaxBigNumberDigits);
}

TEST(MultibaseMalformed, BitBasesHaveNoLengthCap) {
  const Bytes big(100000, 0xa5);
  for (Base base : {Base::kBase16, Base::kBase32, Base::kBase64Pad}) {
    auto d = decode(encode(base, big));
    ASSERT_TRUE(d.is_ok()) << base_name(base);
    EXPECT_EQ(*d, big);
  }
}

}  // namespace
}  // namespace odf_hash::multibase
