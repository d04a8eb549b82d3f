// ipfs:// and ipns:// URLs (open_store.h): read through an HTTP gateway, the gateway from the
// option, else $ODF_HASH_IPFS_GATEWAY, else kamu's $KAMU_CONFIG__protocol__ipfs__httpGateway,
// else kamu's default http://localhost:8080; anchored by the CID, or with trust_gateway mapped
// onto the gateway as kamu maps them (its dataset factory joins "{scheme}/{cid}{path}" onto
// protocol.ipfs.httpGateway). Nothing is requested: a store is opened and asked for its
// location.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <optional>
#include <string>
#include <vector>

#include "odf_hash/io/store_options.h"
#include "odf_hash/remote/open_store.h"

namespace {

using odf_hash::open_store;
using odf_hash::resolve_ipfs_gateway;
using odf_hash::StoreOptions;

constexpr const char* kCid = "bafybeied7dmknq3asgjgoaihl4ilarhbxecrfu3gnse47l3vxshuwnbxmi";

// Sets or clears the two variables for one test, restoring them after.
class IpfsGateway : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v : kVars) {
      const char* old = getenv(v);
      saved_.push_back(old ? std::optional<std::string>(old) : std::nullopt);
      unsetenv(v);
    }
  }
  void TearDown() override {
    for (size_t i = 0; i < 2; ++i) {
      if (saved_[i]) {
        setenv(kVars[i], saved_[i]->c_str(), 1);
      } else {
        unsetenv(kVars[i]);
      }
    }
  }
  static constexpr const char* kVars[2] = {"ODF_HASH_IPFS_GATEWAY",
                                           "KAMU_CONFIG__protocol__ipfs__httpGateway"};
  std::vector<std::optional<std::string>> saved_;

  static std::string root_of(const std::string& url, const StoreOptions& o = {}) {
    auto store = open_store(url, o);
    if (!store.is_ok()) return "error: " + store.status().message();
    return (*store)->location("");
  }
};

TEST_F(IpfsGateway, OptionThenOursThenKamusThenDefault) {
  EXPECT_EQ(resolve_ipfs_gateway(""), "http://localhost:8080");
  setenv("KAMU_CONFIG__protocol__ipfs__httpGateway", "http://127.0.0.1:3", 1);
  EXPECT_EQ(resolve_ipfs_gateway(""), "http://127.0.0.1:3");
  setenv("ODF_HASH_IPFS_GATEWAY", "http://127.0.0.1:2", 1);
  EXPECT_EQ(resolve_ipfs_gateway(""), "http://127.0.0.1:2");
  EXPECT_EQ(resolve_ipfs_gateway("https://gw.example"), "https://gw.example");
}

TEST_F(IpfsGateway, PathGatewayLayoutWhenTrusted) {
  const std::string cid = kCid;
  StoreOptions o;
  o.trust_gateway = true;
  EXPECT_EQ(root_of("ipfs://" + cid, o), "http://localhost:8080/ipfs/" + cid);
  o.ipfs_gateway = "http://127.0.0.1:8080/";
  EXPECT_EQ(root_of("ipfs://" + cid + "/datasets/a", o),
            "http://127.0.0.1:8080/ipfs/" + cid + "/datasets/a");
  EXPECT_EQ(root_of("ipns://k51qzi5uqu5d/ds/", o), "http://127.0.0.1:8080/ipns/k51qzi5uqu5d/ds");
  EXPECT_EQ(root_of("IPFS://" + cid, o), "http://127.0.0.1:8080/ipfs/" + cid);
  EXPECT_EQ(root_of("ipfs://" + cid + "/a%20b", o), "http://127.0.0.1:8080/ipfs/" + cid + "/a%20b");
  o.ipfs_gateway = "https://user:secret@gw.example/base";
  EXPECT_EQ(root_of("ipfs://" + cid, o), "https://***@gw.example/base/ipfs/" + cid);
  EXPECT_TRUE(odf_hash::is_store_url("ipfs://" + cid));
  EXPECT_TRUE(odf_hash::is_store_url("ipns://name"));
  EXPECT_TRUE(odf_hash::is_ipfs_url("IPNS://name"));
  EXPECT_FALSE(odf_hash::is_ipfs_url("https://name"));
}

// Without trust_gateway an ipfs:// store is anchored by its CID: its location is the URL, and
// an ipns:// name (nothing to anchor it) is refused.
TEST_F(IpfsGateway, AnchoredByTheCid) {
  const std::string cid = kCid;
  EXPECT_EQ(root_of("ipfs://" + cid), "ipfs://" + cid);
  StoreOptions o;
  o.ipfs_gateway = "https://user:secret@gw.example/base";
  EXPECT_EQ(root_of("ipfs://" + cid + "/datasets/a/", o), "ipfs://" + cid + "/datasets/a");
  EXPECT_NE(root_of("ipns://k51qzi5uqu5d/ds", o).find("does not check IPNS records"),
            std::string::npos);
  auto store = open_store("ipfs://" + cid, o);
  ASSERT_TRUE(store.is_ok());
  EXPECT_TRUE((*store)->can_list());
  EXPECT_EQ((*store)->location("refs/head"), "ipfs://" + cid + "/refs/head");
}

TEST_F(IpfsGateway, Refused) {
  StoreOptions o;
  o.ipfs_gateway = "ftp://127.0.0.1";
  EXPECT_NE(root_of(std::string("ipfs://") + kCid, o).find("an IPFS gateway is an http"),
            std::string::npos);
  o.ipfs_gateway = "http://127.0.0.1:8080?x=1";
  EXPECT_NE(root_of(std::string("ipfs://") + kCid, o).find("no query or fragment"),
            std::string::npos);
  o.ipfs_gateway = "";
  EXPECT_NE(root_of("ipfs:///data").find("not an ipfs://NAME/path URL"), std::string::npos);
  EXPECT_NE(root_of("ipfs://a:b@cid/x").find("not an ipfs://NAME/path URL"), std::string::npos);
  EXPECT_EQ(root_of("ipfs://a:b@cid/x").find("a:b"), std::string::npos);
}

}  // namespace
