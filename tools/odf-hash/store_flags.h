// The options every command that reads paths takes for URLs (open_store.h): the AWS CLI's
// names for S3, and the timeouts and attempts of remote reads.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "odf_hash/io/physical.h"
#include "odf_hash/io/store_options.h"

namespace odf_hash::cli {

// Adds --endpoint-url, --region, --no-sign-request, --connect-timeout, --read-timeout,
// --max-attempts, --ipfs-gateway and --trust-gateway to `app`, in the group "Remote stores
// (s3://, http://, https://, ipfs://, ipns://)".
void add_store_flags(CLI::App* app, StoreOptions& options);

// The footer lines about URLs shared by the commands' --help.
const char* store_help_footer();

}  // namespace odf_hash::cli
