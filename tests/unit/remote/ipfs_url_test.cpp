// ipfs:// and ipns:// URLs (src/remote/ipfs/ipfs_url.h): what is refused before any request
// (dot segments, also percent-encoded; names that are no CID), and the path a trusted
// gateway is asked for.
#include <gtest/gtest.h>

#include <string>

#include "../../../src/remote/ipfs/ipfs_url.h"

namespace {

using namespace odf_hash::remote::ipfs;
using odf_hash::StatusCode;

constexpr const char* kCid = "bafybeigqea73oaz3g7s5aivtk52kjatz56g3jryawyfrxyqikxewytkz2u";

std::string refused(const std::string& url) {
  auto parsed = parse_ipfs_url(url);
  if (parsed.is_ok()) return "accepted";
  EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument) << url;
  return parsed.status().message();
}

TEST(IpfsUrl, ComponentsDecoded) {
  auto u = parse_ipfs_url(std::string("ipfs://") + kCid + "/a%20b//c/");
  ASSERT_TRUE(u.is_ok()) << u.status().message();
  EXPECT_FALSE(u->ipns);
  EXPECT_EQ(u->name, kCid);
  EXPECT_EQ(u->components, (std::vector<std::string>{"a b", "c"}));
  EXPECT_EQ(gateway_path(*u), std::string("/ipfs/") + kCid + "/a%20b/c");
  auto v0 = parse_ipfs_url("IPFS://QmaFDZRb5q7ZTc7pmSjn2zx2coWftaQ2nRPh962Nqq59Go");
  ASSERT_TRUE(v0.is_ok());
  EXPECT_TRUE(v0->components.empty());
  auto n = parse_ipfs_url("ipns://example.org/ds");
  ASSERT_TRUE(n.is_ok());
  EXPECT_TRUE(n->ipns);
  EXPECT_EQ(gateway_path(*n), "/ipns/example.org/ds");
}

TEST(IpfsUrl, DotSegmentsRefused) {
  const std::string cid = kCid;
  for (const std::string path : {"/..", "/../../x", "/a/./b", "/%2e%2E/x", "/%2E", "/a/.%2e",
                                 "/a%2Fb", "/a%00", "/%zz", "/%2"}) {
    const std::string message = refused("ipfs://" + cid + path);
    EXPECT_NE(message.find("its path holds"), std::string::npos) << path << ": " << message;
  }
  EXPECT_NE(refused("ipfs://" + cid + "/../x").find("dot segment \"..\""), std::string::npos);
  EXPECT_NE(refused("ipns://example.org/%2e%2e/x").find("dot segment"), std::string::npos);
  EXPECT_EQ(refused("ipfs://" + cid + "/..x/.y"), "accepted");  // names, not dot segments
}

TEST(IpfsUrl, NamesThatAreNoCidRefused) {
  EXPECT_NE(refused("ipfs://bafyok/x").find("\"bafyok\" is not a CID"), std::string::npos);
  EXPECT_NE(refused("ipfs://hello").find("is not a CID"), std::string::npos);
  EXPECT_NE(refused("ipfs:///data").find("not an ipfs://NAME/path URL"), std::string::npos);
  EXPECT_NE(refused("ipfs://a:b@cid/x").find("not an ipfs://NAME/path URL"), std::string::npos);
  EXPECT_EQ(refused("ipfs://a:b@cid/x").find("a:b"), std::string::npos);  // redacted
  EXPECT_NE(refused(std::string("ipfs://") + kCid + "?format=car").find("no query or fragment"),
            std::string::npos);
  EXPECT_NE(refused("ipns://exa$mple/x").find("is not an IPNS name"), std::string::npos);
}

}  // namespace
