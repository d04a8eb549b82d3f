// redact_url (text.h): the user information of every URL in a text becomes "***", and
// nothing else changes; the stores and the factory never put it in a message.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmath>

#include "odf_hash/core/text.h"
#include "odf_hash/io/physical.h"
#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/remote/hash_path_or_url.h"
#include "odf_hash/remote/open_store.h"

namespace {

using odf_hash::redact_url;

TEST(RedactUrl, UserInformationOfEveryUrl) {
  EXPECT_EQ(redact_url("https://user:secret@host/ds"), "https://***@host/ds");
  EXPECT_EQ(redact_url("http://user@host:8080/a/b"), "http://***@host:8080/a/b");
  EXPECT_EQ(redact_url("HTTPS://u:p@h"), "HTTPS://***@h");
  EXPECT_EQ(redact_url("s3://AKIA:secret@bucket/p"), "s3://***@bucket/p");
  // A password holding '@' (the last '@' of the authority ends the user information).
  EXPECT_EQ(redact_url("https://u:p@ss@host/x"), "https://***@host/x");
  EXPECT_EQ(redact_url("https://u:p@host?q=a@b"), "https://***@host?q=a@b");
  // Several URLs in a message, quoted or not.
  EXPECT_EQ(redact_url("https://a:b@h1/k: moved to \"http://c:d@h2/k\" (x)"),
            "https://***@h1/k: moved to \"http://***@h2/k\" (x)");
}

// Issue 23: passwords holding characters that used to end the authority early. Curl takes
// ' " < > in a password; '/', '?', '#' and a space make the URL one curl refuses, but its
// message must not show the password either.
TEST(RedactUrl, PasswordsHoldingQuotesSlashesSpaces) {
  EXPECT_EQ(redact_url("http://user:it's-s3cr3t@host/ds"), "http://***@host/ds");
  EXPECT_EQ(redact_url("http://user:a\"b<c>d@host:8080/ds"), "http://***@host:8080/ds");
  EXPECT_EQ(redact_url("http://user:pa/ss@host/ds"), "http://***@host/ds");
  EXPECT_EQ(redact_url("http://user:pa#ss@host/ds"), "http://***@host/ds");
  EXPECT_EQ(redact_url("http://user:pa?ss@host/ds"), "http://***@host/ds");
  EXPECT_EQ(redact_url("http://user:my pass@host/ds: not found"), "http://***@host/ds: not found");
  // No '@' anywhere on the line: the whole would-be authority is hidden.
  EXPECT_EQ(redact_url("http://user:secret/ds\nnext@line"), "http://***/ds\nnext@line");
  // In a message, with a quote right after the host.
  EXPECT_EQ(redact_url("cannot open \"http://u:p'q@h\": refused"),
            "cannot open \"http://***@h\": refused");
  // Ports, IPv6 hosts: kept.
  for (const char* text :
       {"http://[::1]:8080/ds", "http://[::1]/ds", "http://h:443", "ipfs://bafy/x"}) {
    EXPECT_EQ(redact_url(text), text);
  }
}

TEST(RedactUrl, EverythingElseUnchanged) {
  for (const char* text :
       {"", "/data/ds", "./p@th/ds", "https://host/a@b", "https://host:1/ds", "s3://bucket/a@b",
        "no url here: a@b", "https://", "https://***@host/ds"}) {
    EXPECT_EQ(redact_url(text), text);
  }
}

// An s3:// URL never carries credentials (the AWS credential chain does): refused, without
// showing them.
TEST(RedactUrl, S3UrlWithCredentialsRefused) {
  auto store = odf_hash::open_store("s3://AKIAEXAMPLE:s3cr3t@bucket/ds");
  ASSERT_FALSE(store.is_ok());
  EXPECT_EQ(store.status().code(), odf_hash::StatusCode::kInvalidArgument);
  EXPECT_EQ(store.status().message().find("s3cr3t"), std::string::npos);
  EXPECT_EQ(store.status().message().find("AKIAEXAMPLE"), std::string::npos);
  EXPECT_NE(store.status().message().find("s3://***@bucket/ds"), std::string::npos);
}

// A port of 127.0.0.1 nothing listens on: bound, never listened to, so connecting is refused.
class ClosedPort : public ::testing::Test {
 protected:
  void SetUp() override {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(fd_, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    socklen_t len = sizeof a;
    ASSERT_EQ(::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len), 0);
    port_ = ntohs(a.sin_port);
  }
  void TearDown() override {
    if (fd_ >= 0) ::close(fd_);
  }
  int fd_ = -1;
  unsigned port_ = 0;
};

TEST_F(ClosedPort, HttpErrorsNameTheUrlWithoutCredentials) {
  odf_hash::StoreOptions o;
  o.max_attempts = 1;
  const std::string root = "http://reader:s3cr3t@127.0.0.1:" + std::to_string(port_) + "/ds";
  auto store = odf_hash::open_store(root, o);
  ASSERT_TRUE(store.is_ok()) << store.status().to_string();  // nothing is asked yet
  EXPECT_EQ((*store)->location(""), "http://***@127.0.0.1:" + std::to_string(port_) + "/ds");
  auto info = (*store)->stat("refs/head");
  ASSERT_FALSE(info.is_ok());
  EXPECT_EQ(info.status().code(), odf_hash::StatusCode::kIoError);
  const std::string m = info.status().message();
  EXPECT_NE(m.find("http://***@127.0.0.1:" + std::to_string(port_) + "/ds/refs/head"),
            std::string::npos)
      << m;
  EXPECT_EQ(m.find("s3cr3t"), std::string::npos) << m;
  EXPECT_EQ(m.find("reader"), std::string::npos) << m;

  auto object = odf_hash::open_object(root + "/data/x", o);
  ASSERT_FALSE(object.is_ok());
  EXPECT_EQ(object.status().message().find("s3cr3t"), std::string::npos)
      << object.status().message();
}

}  // namespace

// Every entry point that takes a path or URL refuses a NUL byte: the operating system and
// libcurl would read the name up to it ("/etc/passwd\0.txt" opens /etc/passwd).
TEST(RefuseNul, EveryPathAndUrlEntryPoint) {
  using namespace std::string_literals;
  const std::string file = "/etc/passwd\0.txt"s;
  const std::string dir = "/etc\0/x"s;
  const std::string url = "http://127.0.0.1:1/ds\0/x"s;
  auto refused = [](const odf_hash::Status& s) {
    return s.code() == odf_hash::StatusCode::kInvalidArgument &&
           s.message().find("NUL byte") != std::string::npos;
  };
  EXPECT_TRUE(refused(odf_hash::physical_hash_path_or_url(file).status()));
  EXPECT_TRUE(refused(odf_hash::physical_hash_file(file).status()));
  EXPECT_TRUE(refused(odf_hash::open_object(file).status()));
  EXPECT_TRUE(refused(odf_hash::open_object(url).status()));
  EXPECT_TRUE(refused(odf_hash::open_store(dir).status()));
  EXPECT_TRUE(refused(odf_hash::open_store(url).status()));
  EXPECT_TRUE(refused(odf_hash::logical_hash_path_or_url(file, {}).status()));
  EXPECT_TRUE(odf_hash::refuse_nul("/etc/passwd").is_ok());
}

// A NaN timeout compares false with every bound: refused by name, as is infinity.
TEST(StoreOptions, TimeoutsMustBeFiniteSecondsInRange) {
  for (double bad : {std::nan(""), 1.0 / 0.0, -1.0, 0.0, 0.05, 3601.0}) {
    odf_hash::StoreOptions o;
    o.read_timeout_s = bad;
    EXPECT_EQ(odf_hash::check_store_options(o).code(), odf_hash::StatusCode::kInvalidArgument);
    EXPECT_EQ(odf_hash::open_store("http://127.0.0.1:1/ds", o).status().code(),
              odf_hash::StatusCode::kInvalidArgument);
    o = {};
    o.connect_timeout_s = bad;
    EXPECT_EQ(odf_hash::check_store_options(o).code(), odf_hash::StatusCode::kInvalidArgument);
  }
  EXPECT_TRUE(odf_hash::check_store_options({}).is_ok());
}
