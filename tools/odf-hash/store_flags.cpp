// Remote store options of the CLI (store_flags.h).
#include "store_flags.h"

#include <cmath>

namespace odf_hash::cli {

namespace {

// CLI::Range compares, and every comparison with NaN is false: "nan" would pass it and then
// never fire. Seconds must be a finite number in range.
CLI::Validator seconds_in(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(text, v) || !std::isfinite(v) || v < lo || v > hi) {
          return "Value " + text + " is not a number of seconds from " +
                 CLI::detail::to_string(lo) + " to " + CLI::detail::to_string(hi);
        }
        return std::string();
      },
      "SECONDS");
}

}  // namespace

void add_store_flags(CLI::App* app, StoreOptions& options) {
  const std::string group = kStoreGroup;
  app->add_option("--endpoint-url", options.endpoint_url,
                  "S3: send requests to this endpoint (http(s)://host[:port]); default "
                  "$AWS_ENDPOINT_URL_S3, $AWS_ENDPOINT_URL, else AWS")
      ->type_name("URL")
      ->group(group);
  app->add_option("--region", options.region,
                  "S3: the bucket's region; default $AWS_REGION, $AWS_DEFAULT_REGION, else "
                  "asked of S3")
      ->type_name("REGION")
      ->group(group);
  app->add_flag("--no-sign-request", options.no_sign_request,
                "S3: anonymous requests (public buckets); no credentials are looked for")
      ->group(group);
  app->add_option("--connect-timeout", options.connect_timeout_s,
                  "Seconds to connect before an attempt fails (default 10)")
      ->type_name("SECONDS")
      ->check(seconds_in(0.1, 3600.0))
      ->group(group);
  app->add_option("--read-timeout", options.read_timeout_s,
                  "Seconds without a byte before an attempt fails (default 30)")
      ->type_name("SECONDS")
      ->check(seconds_in(0.1, 3600.0))
      ->group(group);
  app->add_option("--max-attempts", options.max_attempts,
                  "Attempts per request, in all, on timeouts, resets and 5xx answers "
                  "(default 4; waits 0.25 s, 0.5 s, 1 s... in between)")
      ->type_name("N")
      ->check(CLI::Range(1u, 20u))
      ->group(group);
  app->add_option("--ipfs-gateway", options.ipfs_gateway,
                  "IPFS: the HTTP gateway ipfs://CID/path and ipns://NAME/path are read through "
                  "(each block as GATEWAY/ipfs/CID?format=raw, checked; with --trust-gateway "
                  "GATEWAY/ipfs/CID/path); default $ODF_HASH_IPFS_GATEWAY, kamu's "
                  "$KAMU_CONFIG__protocol__ipfs__httpGateway, else http://localhost:8080")
      ->type_name("URL")
      ->group(group);
  app->add_flag("--trust-gateway", options.trust_gateway,
                "IPFS: read GATEWAY/ipfs/CID/path as plain HTTP, trusting the gateway to serve "
                "what the CID names (needed for ipns:// and for gateways without verifiable "
                "responses); without it every block is checked against the CID")
      ->group(group);
}

const char* store_help_footer() {
  return "Paths may be URLs (s3://, http(s)://, ipfs://, ipns://): 'odf-hash help stores'\n"
         "says what each kind reads and what the options above do.";
}

std::string store_help() {
  // The options as a command shows them, without the compact group line of its --help.
  CLI::App app("stores");
  StoreOptions options;
  add_store_flags(&app, options);
  std::vector<const CLI::Option*> opts;
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_group() == kStoreGroup) opts.push_back(o);
  }
  CLI::Formatter plain;
  std::string out = plain.make_group(kStoreGroup, false, opts);
  out +=
      "\nPaths may be URLs: s3://bucket/prefix (the AWS credential chain: environment,\n"
      "~/.aws/credentials and config, web identity, instance metadata; or\n"
      "--no-sign-request), http://host/path or https://host/path (objects at\n"
      "{url}/refs/head, {url}/blocks/{hash}, ... as the ODF Simple Transfer Protocol\n"
      "lays them out; an HTTP server cannot be listed, so unreferenced files are not\n"
      "looked for), ipfs://CID/path (through an HTTP gateway, --ipfs-gateway, anchored\n"
      "by the CID: every block is asked for as a verifiable response and checked against\n"
      "it, folders are listed) or ipns://NAME/path (only with --trust-gateway, which reads\n"
      "through the gateway without checking). Objects are streamed and hashed as they\n"
      "arrive; one whose size the server does not announce, or without Range support, is\n"
      "read whole into temporary storage when random access needs it. Nothing is ever\n"
      "written. The commands that read paths (physical, logical, verify, compare, slice)\n"
      "take these options.\n";
  return out;
}

}  // namespace odf_hash::cli
