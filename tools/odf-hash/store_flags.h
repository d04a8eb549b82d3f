// The options every command that reads paths takes for URLs (open_store.h): the AWS CLI's
// names for S3, and the timeouts and attempts of remote reads.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "odf_hash/io/physical.h"
#include "odf_hash/io/store_options.h"

namespace odf_hash::cli {

// The group of the options below: each command's --help names them on one line (the
// HelpFormatter), `odf-hash help stores` explains them (store_help).
inline constexpr const char* kStoreGroup =
    "Remote stores (s3://, http://, https://, ipfs://, ipns://)";

// Adds --endpoint-url, --region, --no-sign-request, --connect-timeout, --read-timeout,
// --max-attempts, --ipfs-gateway and --trust-gateway to `app`, in kStoreGroup.
void add_store_flags(CLI::App* app, StoreOptions& options);

// The footer line about URLs shared by the commands' --help (pointing to `help stores`).
const char* store_help_footer();

// `odf-hash help stores`: every store option explained, and what a URL can be.
std::string store_help();

}  // namespace odf_hash::cli
