// odf-hash verify-query ANSWER: a kamu node's signed query answer checked offline
// (include/odf_hash/query/verify_query.h): each hash, the signature, whose key, and with
// --dataset the blocks it was computed over. Report on stdout; exit 0 all valid and the key
// trusted, 1 something does not match, 2 malformed / unreadable / not checkable, 3 valid but
// signed by a key not in your trusted keys.
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "odf_hash/core/parallel.h"
#include "odf_hash/core/text.h"
#include "odf_hash/query/query_json.h"
#include "odf_hash/query/verify_query.h"
#include "output.h"
#include "problem_text.h"
#include "store_flags.h"

namespace odf_hash::cli {

namespace {

using query::CheckStatus;
using query::QueryCheck;
using query::QueryReport;
using query::QueryVerdict;

struct QueryArgs {
  std::string answer;
  bool json = false;
  bool verbose = false;
  query::QueryVerifyArgs request;
  unsigned jobs = 0;
  std::string max_size;
  StoreOptions store;
};

// The longest query text shown without -v.
constexpr size_t kQueryShown = 300;

std::string line(const std::string& label, const std::string& text) {
  std::string l = label;
  if (l.size() < 13) l.resize(13, ' ');
  return l + text + "\n";
}

std::string hash_text(const query::HashCheck& h, const char* part) {
  switch (h.status) {
    case CheckStatus::kValid: return "valid     " + h.computed->to_string();
    case CheckStatus::kMismatch:
      return std::string("MISMATCH  the commitment says ") + h.committed.to_string() + ", the " +
             part + " hashes to " + h.computed->to_string();
    default: return "not checked (a sub-query carries no output)";
  }
}

std::string signature_text(const query::SignatureCheck& s) {
  const std::string key = escape_text(s.key);
  switch (s.status) {
    case CheckStatus::kValid: return "valid     " + escape_text(s.type) + " by " + key;
    case CheckStatus::kMismatch:
      return "MISMATCH  " + escape_text(s.type) + " by " + key + ": " + escape_text(s.message);
    default: return "UNSUPPORTED " + escape_text(s.type) + ": " + escape_text(s.message);
  }
}

std::string key_text(const query::SignatureCheck& s) {
  if (s.status != CheckStatus::kValid) return "(no valid signature: signed by no one)";
  if (!s.trusted) return "NOT TRUSTED: not in your trusted keys (--trust DID, --trust-file FILE)";
  std::string out = "trusted";
  if (!s.trusted_name.empty()) out += " as \"" + escape_text(s.trusted_name) + "\"";
  return out + " (" + escape_text(s.trusted_source) + ")";
}

std::string tie_text(const query::DatasetTie& t, bool verbose) {
  std::string out = line("dataset", escape_text(t.alias) + " (" + t.id + ")");
  out += line("  block", t.block_hash ? t.block_hash->to_string() : "(none given)");
  switch (t.status) {
    case query::TieStatus::kNotTied:
      return out + line("  tie", "not tied (--dataset " + escape_text(t.alias) +
                                     "=LOCATION checks it against a copy)");
    case query::TieStatus::kOnChain:
      out += line("  tie", "ON CHAIN: " + escape_text(t.message));
      break;
    default:
      out += line("  tie", std::string(t.status == query::TieStatus::kNotOnChain ? "NOT ON CHAIN"
                                                                                 : "FAILED") +
                               ": " + escape_text(t.message));
  }
  if (!t.report) return out;
  size_t n = 0;
  for (const odf::Problem& p : t.report->problems) {
    out += problem_text(p, ++n, "    ");
    if (!verbose && n == 5 && t.report->problems.size() > 5) {
      out += "    ... and " + std::to_string(t.report->problems.size() - 5) +
             " more problems (-v lists all)\n";
      break;
    }
  }
  return out;
}

std::string query_text(const QueryCheck& q, bool verbose) {
  std::string out;
  if (!q.path.empty()) out += "-- " + q.path + "\n";
  std::string shown =
      q.query.size() > kQueryShown && !verbose ? q.query.substr(0, kQueryShown) + "…" : q.query;
  out += line("query", escape_text(shown));
  for (const query::DatasetTie& t : q.datasets) out += tie_text(t, verbose);
  out += line("input hash", hash_text(q.input, "input"));
  out += line("output hash", hash_text(q.output, "output"));
  out += line("subqueries", hash_text(q.sub_queries, "subQueries array") + " (" +
                                std::to_string(q.sub_query_count) +
                                (q.sub_query_count == 1 ? " sub-query)" : " sub-queries)"));
  out += line("signature", signature_text(q.signature));
  out += line("key", key_text(q.signature));
  return out;
}

int exit_code(QueryVerdict v) {
  switch (v) {
    case QueryVerdict::kValid: return kExitOk;
    case QueryVerdict::kMismatch: return kExitMismatch;
    case QueryVerdict::kUnsupported: return kExitError;
    case QueryVerdict::kUntrusted: return kExitUntrustedKey;
  }
  return kExitError;
}

int run_verify_query(QueryArgs& args) {
  auto options = query::query_verify_options(args.request);
  if (!options.is_ok()) {
    print_error(options.status().message());
    return kExitError;
  }
  if (!args.max_size.empty()) {
    auto bytes = parse_byte_size(args.max_size);
    if (!bytes.is_ok()) {
      print_error("--max-size: " + bytes.status().message());
      return kExitError;
    }
    options->max_bytes = *bytes;
  }
  options->verify.jobs = args.jobs != 0 ? args.jobs : resolve_threads(0);
  options->verify.store = args.store;
  auto report = query::verify_query_file(args.answer, *options);
  if (!report.is_ok()) {
    print_error(args.answer == "-" ? "standard input: " + report.status().message()
                                   : report.status().message());
    return kExitError;
  }
  if (args.json) {
    print_json(nlohmann::json::parse(query::query_report_json(*report)), JsonDoc::kVerifyQuery);
  } else {
    std::string out =
        line("answer", escape_text(args.answer == "-" ? "(standard input)" : args.answer));
    for (const QueryCheck& q : report->queries) out += query_text(q, args.verbose);
    out += line("result", escape_text(report->summary()));
    std::fputs(out.c_str(), stdout);
  }
  return exit_code(report->verdict());
}

}  // namespace

Command add_verify_query_command(CLI::App& root) {
  auto args = std::make_shared<QueryArgs>();
  CLI::App* cmd = root.add_subcommand(
      "verify-query",
      "Check a kamu node's signed query answer offline: its input, output and sub-queries "
      "hashes, its signature, whose key signed it, and with --dataset the blocks it read");
  cmd->add_option("ANSWER", args->answer,
                  "The node's answer to a query with \"include\": [\"proof\"], as it sent it "
                  "(a file, or - for standard input)")
      ->required();
  cmd->add_flag("--json", args->json, "Print the report as JSON");
  cmd->add_flag("-v,--verbose", args->verbose, "Show the whole query text and every problem");
  cmd->add_option("--trust", args->request.trust,
                  "Trust this key (a did:key:z6Mk... of an Ed25519 key; repeatable)")
      ->type_name("DID");
  cmd->add_option("--trust-file", args->request.trust_files,
                  "Trust the keys this file lists: one did:key per line, optionally followed "
                  "by spaces and a name; '#' starts a comment (repeatable)")
      ->type_name("FILE");
  cmd->add_option("--dataset", args->request.datasets,
                  "Check that the block the answer names for this input dataset (its id or "
                  "alias) is on the verified chain of the copy at LOCATION, a folder or URL "
                  "(repeatable)")
      ->type_name("NAME=LOCATION");
  cmd->add_option("-j,--jobs", args->jobs,
                  "Files hashed at once when verifying a --dataset copy (default: the CPU count)")
      ->type_name("N");
  cmd->add_option("--max-size", args->max_size,
                  "The largest answer read, e.g. 1G (default 256M); memory stays within a few "
                  "times it")
      ->type_name("SIZE");
  add_store_flags(cmd, args->store);
  cmd->footer(std::string(store_help_footer()) +
              "\nExit status: 0 every hash, signature and --dataset tie is valid and every "
              "signing key is trusted; 1 something does not match (the report names it); 2 the "
              "answer is malformed or unreadable, a usage error, or a signature odf-hash cannot "
              "check (EcdsaSecp256k1Signature2019: reported as unsupported, never valid); 3 all "
              "valid, but signed by a key not in your trusted keys.");
  return {cmd, [args] { return run_verify_query(*args); }};
}

}  // namespace odf_hash::cli
