// Tying a query answer's input datasets to verified copies (verify_query.h, step 4), through
// the verify API only.
#pragma once

#include "odf_hash/core/status.h"
#include "odf_hash/query/verify_query.h"

namespace odf_hash::query::detail {

// Matches options.datasets against the input datasets of every query of `report` (by id, or
// by alias), verifies each copy once per block hash, and fills in the ties. Errors
// (kInvalidArgument): a name that names no input dataset, a dataset named by two names; a
// copy that could not be verified at all (verify_dataset's error, with the name in front).
Status tie_datasets(QueryReport& report, const QueryVerifyOptions& options);

}  // namespace odf_hash::query::detail
