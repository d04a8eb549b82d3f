// Checking a query answer (include/odf_hash/query/verify_query.h): hashes, signature, key;
// the dataset ties are in dataset_ties.cpp.
#include "odf_hash/query/verify_query.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "answer.h"
#include "dataset_ties.h"
#include "odf_hash/core/text.h"
#include "odf_hash/internal/io/text_file.h"
#include "odf_hash/io/store.h"
#include "odf_hash/query/did_key.h"

namespace odf_hash::query {

const char* check_status_name(CheckStatus s) {
  switch (s) {
    case CheckStatus::kValid: return "valid";
    case CheckStatus::kMismatch: return "mismatch";
    case CheckStatus::kUnsupported: return "unsupported";
    case CheckStatus::kNotChecked: return "not-checked";
  }
  return "unknown";
}

const char* tie_status_name(TieStatus s) {
  switch (s) {
    case TieStatus::kNotTied: return "not-tied";
    case TieStatus::kNoBlockHash: return "no-block-hash";
    case TieStatus::kOnChain: return "on-chain";
    case TieStatus::kNotOnChain: return "not-on-chain";
    case TieStatus::kCopyInvalid: return "copy-invalid";
  }
  return "unknown";
}

const char* query_verdict_name(QueryVerdict v) {
  switch (v) {
    case QueryVerdict::kValid: return "valid";
    case QueryVerdict::kUntrusted: return "untrusted";
    case QueryVerdict::kUnsupported: return "unsupported";
    case QueryVerdict::kMismatch: return "mismatch";
  }
  return "unknown";
}

namespace {

// The signature types kamu can name (its ProofType) that odf-hash does not check.
constexpr std::string_view kEcdsaSecp256k1Signature2019 = "EcdsaSecp256k1Signature2019";

HashCheck check_hash(const Multihash& committed, const std::optional<Digest256>& digest) {
  HashCheck h;
  h.committed = committed;
  if (!digest) return h;  // kNotChecked
  h.computed = Multihash::sha3_256(*digest);
  h.status = *h.computed == committed ? CheckStatus::kValid : CheckStatus::kMismatch;
  return h;
}

Result<SignatureCheck> check_signature(const detail::QueryEnvelope& q, const TrustedKeys& trusted) {
  SignatureCheck s;
  s.type = q.proof_type;
  s.key = q.key;
  if (q.proof_type != detail::kEd25519Signature2020) {
    s.status = CheckStatus::kUnsupported;
    s.message = q.proof_type == kEcdsaSecp256k1Signature2019
                    ? "kamu names this signature type but does not serve it; odf-hash checks "
                      "Ed25519Signature2020 only"
                    : "an unknown signature type; odf-hash checks Ed25519Signature2020 only";
    return s;
  }
  auto key = DidKey::parse(q.key);
  if (!key.is_ok()) {
    if (key.status().code() != StatusCode::kUnsupported) {
      const std::string where = q.path.empty() ? "" : q.path + ".";
      return Status::parse_error("malformed answer: " + where +
                                 "proof.verificationMethod: " + key.status().message());
    }
    s.status = CheckStatus::kUnsupported;
    s.message = key.status().message();
    return s;
  }
  const std::string& m = q.commitment_message;
  auto ok = verify_ed25519(
      *key, {reinterpret_cast<const uint8_t*>(m.data()), m.size()},
      std::span<const uint8_t, kEd25519SignatureSize>(q.signature.data(), kEd25519SignatureSize));
  if (!ok.is_ok()) return ok.status();
  if (!*ok) {
    s.status = CheckStatus::kMismatch;
    s.message = "not a signature of this commitment by this key";
    return s;
  }
  s.status = CheckStatus::kValid;
  if (const TrustedKey* t = trusted.find(*key)) {
    s.trusted = true;
    s.trusted_name = t->name;
    s.trusted_source = t->source;
  }
  return s;
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

// The findings of one kind (see QueryReport::findings).
std::vector<std::string> findings_of(const QueryReport& r, CheckStatus kind, bool untrusted) {
  std::vector<std::string> out;
  for (const QueryCheck& q : r.queries) {
    const std::string at = q.path.empty() ? "" : q.path + ": ";
    if (untrusted) {
      if (q.signature.status == CheckStatus::kValid && !q.signature.trusted) {
        out.push_back(at + "key " + q.signature.key);
      }
      continue;
    }
    if (q.input.status == kind) out.push_back(at + "input hash");
    if (q.output.status == kind) out.push_back(at + "output hash");
    if (q.sub_queries.status == kind) out.push_back(at + "sub-queries hash");
    if (q.signature.status == kind) {
      out.push_back(at + "signature" +
                    (kind == CheckStatus::kUnsupported ? " (" + q.signature.type + ")" : ""));
    }
    if (kind != CheckStatus::kMismatch) continue;
    for (const DatasetTie& t : q.datasets) {
      if (t.status != TieStatus::kNotTied && t.status != TieStatus::kOnChain) {
        out.push_back(at + "dataset " + t.alias + " (" + t.id + ")");
      }
    }
  }
  return out;
}

}  // namespace

QueryVerdict QueryReport::verdict() const {
  if (!findings_of(*this, CheckStatus::kMismatch, false).empty()) return QueryVerdict::kMismatch;
  if (!findings_of(*this, CheckStatus::kUnsupported, false).empty()) {
    return QueryVerdict::kUnsupported;
  }
  if (!findings_of(*this, CheckStatus::kValid, true).empty()) return QueryVerdict::kUntrusted;
  return QueryVerdict::kValid;
}

std::vector<std::string> QueryReport::findings() const {
  std::vector<std::string> out = findings_of(*this, CheckStatus::kMismatch, false);
  for (auto& f : findings_of(*this, CheckStatus::kUnsupported, false)) out.push_back(f);
  for (auto& f : findings_of(*this, CheckStatus::kValid, true)) out.push_back(f);
  return out;
}

std::string QueryReport::summary() const {
  switch (verdict()) {
    case QueryVerdict::kMismatch:
      return "INVALID: " + join(findings_of(*this, CheckStatus::kMismatch, false));
    case QueryVerdict::kUnsupported:
      return "UNSUPPORTED: " + join(findings_of(*this, CheckStatus::kUnsupported, false)) +
             " not checked";
    case QueryVerdict::kUntrusted: {
      std::vector<std::string> keys;
      for (const QueryCheck& q : queries) {
        const std::string& k = q.signature.key;
        if (!q.signature.trusted && std::find(keys.begin(), keys.end(), k) == keys.end()) {
          keys.push_back(k);
        }
      }
      return "UNTRUSTED KEY: all valid, signed by " + join(keys) + " (not in your trusted keys)";
    }
    case QueryVerdict::kValid: break;
  }
  size_t datasets = 0, tied = 0;
  for (const QueryCheck& q : queries) {
    datasets += q.datasets.size();
    for (const DatasetTie& t : q.datasets) tied += t.status == TieStatus::kOnChain ? 1 : 0;
  }
  std::string out = "VALID (signed by a trusted key";
  if (datasets != 0) {
    out += "; " + std::to_string(tied) + " of " + std::to_string(datasets) +
           (datasets == 1 ? " input dataset" : " input datasets") + " tied to a verified copy";
  }
  return out + ")";
}

Result<QueryVerifyOptions> query_verify_options(const QueryVerifyArgs& args) {
  QueryVerifyOptions o;
  for (const std::string& path : args.trust_files) {
    auto keys = read_trust_file(path);
    if (!keys.is_ok()) return keys.status();
    o.trusted.merge(*keys);
  }
  for (const std::string& did : args.trust) {
    ODF_HASH_RETURN_IF_ERROR(o.trusted.add(did, "--trust").with_context("--trust"));
  }
  for (const std::string& spec : args.datasets) {
    auto d = parse_dataset_location(spec);
    if (!d.is_ok()) return d.status();
    for (const DatasetLocation& seen : o.datasets) {
      if (seen.name == d->name) {
        return Status::invalid_argument("--dataset " + escape_untrusted(d->name, 100) +
                                        " is given twice");
      }
    }
    o.datasets.push_back(std::move(*d));
  }
  return o;
}

Result<QueryReport> verify_query(std::string_view text, const QueryVerifyOptions& options) {
  if (text.size() > options.max_bytes) {
    return Status::invalid_argument("the answer is " + std::to_string(text.size()) +
                                    " bytes, more than the " + std::to_string(options.max_bytes) +
                                    " read");
  }
  auto envelopes = detail::read_answer(text);
  if (!envelopes.is_ok()) return envelopes.status();
  QueryReport report;
  for (const detail::QueryEnvelope& q : *envelopes) {
    QueryCheck c;
    c.path = q.path;
    c.query = q.query;
    c.input = check_hash(q.committed_input, q.input_digest);
    c.output = check_hash(q.committed_output, q.output_digest);
    c.sub_queries = check_hash(q.committed_sub_queries, q.sub_queries_digest);
    c.sub_query_count = q.sub_query_count;
    ODF_HASH_ASSIGN_OR_RETURN(c.signature, check_signature(q, options.trusted));
    for (const detail::DatasetRef& d : q.datasets) {
      c.datasets.push_back(DatasetTie{d.id, d.alias, d.block_hash});
    }
    report.queries.push_back(std::move(c));
  }
  ODF_HASH_RETURN_IF_ERROR(detail::tie_datasets(report, options));
  return report;
}

Result<QueryReport> verify_query_file(const std::string& path, const QueryVerifyOptions& options) {
  auto text = read_text_file(path == "-" ? "/dev/stdin" : path, "query answer", options.max_bytes);
  if (!text.is_ok()) return text.status();
  return verify_query(*text, options);
}

}  // namespace odf_hash::query
