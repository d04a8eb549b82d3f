// verify_query (verify_query.h) over the answers recorded from kamu 0.265 nodes and kamu's
// published answer: every hash and signature the nodes made verifies, and each change an
// attacker could make fails naming its part. Changes are made on the answers' text, so that
// numbers keep the text the node hashed.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "odf_hash/query/query_json.h"
#include "odf_hash/query/verify_query.h"
#include "query_vectors.h"

namespace {

using nlohmann::json;
using odf_hash::StatusCode;
using odf_hash::query::CheckStatus;
using odf_hash::query::QueryReport;
using odf_hash::query::QueryVerdict;
using odf_hash::query::QueryVerifyOptions;
using odf_hash::query::verify_query;
using query_test::answer;
using query_test::manifest;
using query_test::replaced;

std::string did(const std::string& key) {
  return manifest()["keys"][key]["did"];
}

QueryVerifyOptions trusting(const std::string& key) {
  QueryVerifyOptions o;
  EXPECT_TRUE(o.trusted.add(did(key), "--trust").is_ok());
  return o;
}

// The did:keys of every proof in a query and its sub-queries.
std::vector<std::string> signer_dids(const json& query) {
  std::vector<std::string> out = {query["proof"]["verificationMethod"].get<std::string>()};
  for (const json& sub : query["subQueries"]) {
    for (auto& d : signer_dids(sub)) out.push_back(d);
  }
  return out;
}

QueryReport checked(const std::string& text, const QueryVerifyOptions& options = {}) {
  auto r = verify_query(text, options);
  EXPECT_TRUE(r.is_ok()) << r.status().to_string();
  return r.is_ok() ? std::move(*r) : QueryReport{};
}

// Every part of every recorded answer: the hashes the node committed to are those computed
// here, its signature verifies, its key is trusted only when given.
TEST(VerifyQuery, EveryRecordedAnswerOfAKamuNode) {
  for (const auto& entry : manifest()["answers"]) {
    const std::string name = entry["name"];
    SCOPED_TRACE(name);
    const std::string text = answer(name);
    const json doc = json::parse(text);
    // Trust every key that signed a part (a composed answer holds a sub-query by key B).
    QueryVerifyOptions signers;
    for (const std::string& k : signer_dids(doc)) {
      ASSERT_TRUE(signers.trusted.add(k, "--trust").is_ok());
    }
    const QueryReport r = checked(text, signers);
    ASSERT_FALSE(r.queries.empty());
    EXPECT_EQ(r.verdict(), QueryVerdict::kValid) << r.summary();
    EXPECT_TRUE(r.findings().empty());
    EXPECT_EQ(r.queries[0].input.committed.to_string(), doc["commitment"]["inputHash"]);
    EXPECT_EQ(r.queries[0].output.committed.to_string(), doc["commitment"]["outputHash"]);
    EXPECT_EQ(r.queries[0].query, doc["input"]["query"]);
    EXPECT_EQ(r.queries[0].datasets.size(), entry["datasets"].size());
    for (const auto& q : r.queries) {
      EXPECT_EQ(q.input.status, CheckStatus::kValid) << q.path;
      EXPECT_EQ(q.output.status, q.path.empty() ? CheckStatus::kValid : CheckStatus::kNotChecked);
      EXPECT_EQ(q.sub_queries.status, CheckStatus::kValid) << q.path;
      EXPECT_EQ(q.signature.status, CheckStatus::kValid) << q.path;
    }
    // Nobody trusted: the signatures are still valid, the verdict says whose key.
    const QueryReport untrusted = checked(text);
    EXPECT_EQ(untrusted.verdict(), QueryVerdict::kUntrusted);
    EXPECT_NE(untrusted.summary().find(entry["key"] == "A" ? did("A") : did("B")),
              std::string::npos);
  }
}

TEST(VerifyQuery, SubQueriesCheckedRecursively) {
  const QueryReport r = checked(answer("sub-queries"), trusting("A"));
  ASSERT_EQ(r.queries.size(), 4u);
  EXPECT_EQ(r.queries[0].sub_query_count, 2u);
  EXPECT_EQ(r.queries[1].path, "subQueries[0]");
  EXPECT_EQ(r.queries[2].path, "subQueries[1]");
  EXPECT_EQ(r.queries[3].path, "subQueries[1].subQueries[0]");
  EXPECT_EQ(r.queries[3].signature.key, did("B"));
  // B's sub-query is valid but B is not trusted: all valid, a key untrusted.
  EXPECT_EQ(r.verdict(), QueryVerdict::kUntrusted);
  EXPECT_EQ(r.findings(), std::vector<std::string>{"subQueries[1].subQueries[0]: key " + did("B")});
  QueryVerifyOptions both = trusting("A");
  ASSERT_TRUE(both.trusted.add(did("B"), "--trust").is_ok());
  EXPECT_EQ(checked(answer("sub-queries"), both).verdict(), QueryVerdict::kValid);
}

TEST(VerifyQuery, KamuPublishedAnswer) {
  const json& p = query_test::published();
  const std::string text = p["test_data_verify_handler"]["answer"].dump();
  QueryVerifyOptions o;
  ASSERT_TRUE(o.trusted.add(p["key"]["did"].get<std::string>(), "--trust").is_ok());
  const QueryReport r = checked(text, o);
  EXPECT_EQ(r.verdict(), QueryVerdict::kValid) << r.summary();
  const std::string bad =
      replaced(text, p["test_data_verify_handler"]["answer"]["proof"]["proofValue"],
               p["test_data_verify_handler"]["bad_proof_value"]);
  const QueryReport b = checked(bad, o);
  EXPECT_EQ(b.verdict(), QueryVerdict::kMismatch);
  EXPECT_EQ(b.findings(), std::vector<std::string>{"signature"});
  EXPECT_EQ(b.summary(), "INVALID: signature");
}

// Each change names its part (and only its part).
TEST(VerifyQuery, EachChangeFailsNamingItsPart) {
  const std::string aos = answer("aos");
  const json aos_doc = json::parse(aos);
  const std::string join = answer("join");
  const json join_doc = json::parse(join);
  const std::string other_sig = json::parse(answer("aoa"))["proof"]["proofValue"];
  const std::string other_output_hash = json::parse(answer("aoa"))["commitment"]["outputHash"];
  struct Case {
    std::string name, text;
    std::vector<std::string> findings;
  };
  // The second dataset as the node wrote it (its members in the node's order).
  const std::string mix_id = join_doc["input"]["datasets"][1]["id"];
  const size_t mix_at = join.rfind("{", join.find(mix_id));
  const std::string second_dataset = "," + join.substr(mix_at, join.find('}', mix_at) + 1 - mix_at);
  const std::vector<Case> cases = {
      {"a changed value", replaced(aos, "\"B\xC3\xA9\"", "\"Be\""), {"output hash"}},
      {"a number's text (same double)", replaced(aos, "1e+21", "1e21"), {"output hash"}},
      {"a changed query", replaced(aos, "desc", "asc"), {"input hash"}},
      {"a dropped dataset", replaced(join, second_dataset, ""), {"input hash"}},
      {"a swapped signature",
       replaced(aos, aos_doc["proof"]["proofValue"], other_sig),
       {"signature"}},
      {"a swapped key", replaced(aos, did("A"), did("B")), {"signature"}},
      {"a committed hash changed",
       replaced(aos, aos_doc["commitment"]["outputHash"], other_output_hash),
       {"output hash", "signature"}},
  };
  for (const Case& c : cases) {
    const QueryReport r = checked(c.text, trusting("A"));
    EXPECT_EQ(r.verdict(), QueryVerdict::kMismatch) << c.name;
    EXPECT_EQ(r.findings(), c.findings) << c.name;
  }
}

TEST(VerifyQuery, AChangedSubQueryIsNamed) {
  const std::string text = answer("sub-queries");
  const json doc = json::parse(text);
  const std::string q = doc["subQueries"][0]["input"]["query"];
  const std::string changed = replaced(text, json(q).dump(), json(q + " ").dump());
  const QueryReport r = checked(changed, trusting("A"));
  EXPECT_EQ(r.verdict(), QueryVerdict::kMismatch);
  EXPECT_EQ(r.findings(),
            (std::vector<std::string>{"sub-queries hash", "subQueries[0]: input hash",
                                      "subQueries[1].subQueries[0]: key " + did("B")}));
}

TEST(VerifyQuery, SignatureTypesNotCheckedAreUnsupportedNeverValid) {
  const std::string get = answer("get");
  const std::string ecdsa = replaced(get, "Ed25519Signature2020", "EcdsaSecp256k1Signature2019");
  const QueryReport r = checked(ecdsa, trusting("A"));
  EXPECT_EQ(r.verdict(), QueryVerdict::kUnsupported);
  EXPECT_EQ(r.queries[0].signature.status, CheckStatus::kUnsupported);
  EXPECT_EQ(r.queries[0].input.status, CheckStatus::kValid);  // the hashes are still checked
  EXPECT_EQ(r.summary(), "UNSUPPORTED: signature (EcdsaSecp256k1Signature2019) not checked");
  EXPECT_EQ(
      checked(replaced(get, "Ed25519Signature2020", "RsaSignature2018"), trusting("A")).verdict(),
      QueryVerdict::kUnsupported);
  // A secp256k1 did:key with an Ed25519 proof: unsupported too.
  const std::string secp =
      replaced(get, did("A"), "did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme");
  EXPECT_EQ(checked(secp).queries[0].signature.status, CheckStatus::kUnsupported);
  // A mismatch elsewhere wins.
  EXPECT_EQ(checked(replaced(ecdsa, "\"Москва\"", "\"Moskva\"")).verdict(),
            QueryVerdict::kMismatch);
}

TEST(VerifyQuery, MalformedAnswersAreErrorsNamingThePart) {
  const json get = json::parse(answer("get"));
  auto with = [&](auto change) {
    json doc = get;
    change(doc);
    return doc.dump();
  };
  struct Case {
    std::string text, expected;
  };
  const std::vector<Case> cases = {
      {"[]", "the answer: an array, not an object"},
      {"{\"input\":1", "malformed JSON (byte 11)"},
      {with([](json& d) { d.erase("proof"); }), "proof: missing"},
      {with([](json& d) { d["note"] = "trust me"; }), "a member \"note\" that kamu does not write"},
      {with([](json& d) { d["commitment"]["extra"] = 1; }), "commitment: a member \"extra\""},
      {with([](json& d) { d["proof"]["proofValue"] = "m" + std::string(86, 'A'); }),
       "proof.proofValue: kamu writes a signature in"},
      {with([](json& d) { d["proof"]["proofValue"] = "uAAAA"; }),
       "proof.proofValue: an Ed25519 signature is 64 bytes, this one 3"},
      {with([](json& d) { d["proof"]["verificationMethod"] = "did:web:example.com"; }),
       "proof.verificationMethod: not an Ed25519 did:key"},
      {with([](json& d) { d["input"]["datasets"][0]["id"] = "cities"; }), "input.datasets[0].id:"},
      {with([](json& d) { d["input"]["datasets"][0]["blockHash"] = "f1620"; }),
       "input.datasets[0].blockHash:"},
      {with([](json& d) { d["input"]["query"] = 1; }), "input.query: a number, not a string"},
      {with([](json& d) { d["subQueries"] = json::object(); }),
       "subQueries: an object, not an array"},
      {with([](json& d) { d["commitment"]["inputHash"] = "not a hash"; }), "commitment.inputHash:"},
      {with([](json& d) { d["subQueries"] = json::array({d}); }),
       "subQueries[0]: a member \"output\" that kamu does not write"},
  };
  for (const Case& c : cases) {
    auto r = verify_query(c.text, {});
    ASSERT_FALSE(r.is_ok()) << c.expected;
    EXPECT_EQ(r.status().code(), StatusCode::kParseError) << c.expected;
    EXPECT_NE(r.status().message().find(c.expected), std::string::npos) << r.status().message();
  }
}

TEST(VerifyQuery, SubQueriesNestedTooDeepAreRefused) {
  json doc = json::parse(answer("get"));
  json sub = {{"input", doc["input"]},
              {"subQueries", json::array()},
              {"commitment", doc["commitment"]},
              {"proof", doc["proof"]}};
  for (int i = 0; i < 17; ++i)
    sub = {{"input", doc["input"]},
           {"subQueries", json::array({sub})},
           {"commitment", doc["commitment"]},
           {"proof", doc["proof"]}};
  doc["subQueries"] = json::array({sub});
  auto r = verify_query(doc.dump(), {});
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("nested deeper than 16 levels"), std::string::npos)
      << r.status().message();
}

TEST(VerifyQuery, LargerThanTheBoundIsRefusedBeforeParsing) {
  QueryVerifyOptions o;
  o.max_bytes = 100;
  auto r = verify_query(answer("get"), o);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
}

TEST(VerifyQuery, JsonFormNamesEveryPart) {
  const json j = json::parse(odf_hash::query::query_report_json(checked(answer("join"))));
  EXPECT_EQ(j["verdict"], "untrusted");
  EXPECT_EQ(j["queries"][0]["input"]["status"], "valid");
  EXPECT_EQ(j["queries"][0]["output"]["computed"],
            json::parse(answer("join"))["commitment"]["outputHash"]);
  EXPECT_EQ(j["queries"][0]["signature"]["key"], did("A"));
  EXPECT_EQ(j["queries"][0]["signature"]["trusted"], false);
  EXPECT_EQ(j["queries"][0]["datasets"].size(), 2u);
  EXPECT_EQ(j["queries"][0]["datasets"][0]["tie"], "not-tied");
  EXPECT_EQ(j["findings"], json::array({"key " + did("A")}));
}

TEST(VerifyQuery, OptionsFromArguments) {
  odf_hash::query::QueryVerifyArgs args;
  args.trust = {did("B")};
  args.datasets = {"mix=/a", "cities=/b=c"};
  auto o = odf_hash::query::query_verify_options(args);
  ASSERT_TRUE(o.is_ok()) << o.status().to_string();
  EXPECT_EQ(o->trusted.keys().size(), 1u);
  EXPECT_EQ(o->datasets[1].location, "/b=c");
  for (auto bad : {std::vector<std::string>{"mix"}, {"=x"}, {"mix="}, {"mix=/a", "mix=/b"}}) {
    args.datasets = bad;
    EXPECT_FALSE(odf_hash::query::query_verify_options(args).is_ok()) << bad[0];
  }
  args.datasets = {};
  args.trust = {"did:key:z"};
  EXPECT_FALSE(odf_hash::query::query_verify_options(args).is_ok());
}

}  // namespace
