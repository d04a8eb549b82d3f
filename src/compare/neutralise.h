// Whether a schema difference changes the arrow0 hash, shown by neutralising it: one table's
// field hashed again as the other table types it (internal to compare).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "odf_hash/compare/compare.h"
#include "odf_hash/core/status.h"
#include "odf_hash/io/row_window.h"
#include "odf_hash/io/store.h"
#include "odf_hash/logical/logical.h"

namespace odf_hash::compare::detail {

// Whether a leaf column at or under `field` has another digest on each side, or is on one
// side only: what a schema difference changes when it is not neutralised (kEquivalent: none).
bool column_digests_differ(const std::string& field, const LogicalDigest& a,
                           const LogicalDigest& b);

// For `c` (both logical hashes computed, schema differences listed): every difference's
// SchemaDifference::changes_hash, and c.casts. A field on one side only or at another position
// changes the hash (arrow0 hashes the names in order). For the top-level fields holding a type
// or nullability difference, the reproduction's fields are cast to the original's types and
// nullability (Arrow's safe cast, one more read of those columns, all such fields at once) and
// hashed: a difference changes the hash when the cast columns' digests are not the
// reproduction's own, and the values are equal after the cast when they are the original's.
// A field with both a type and a nullability difference has its nullability neutralised
// alone first (one more read of such fields), so each is judged by itself. A field the safe cast
// refuses that way is cast the other way (the original's to the reproduction's types); when neither
// way casts, its difference counts as changing the hash when the column digests differ
// (CastCheck::cast false, `error` says why). When the values differ after the cast,
// options.locate_rows and both sides have as many rows: the rows where (CastCheck::rows, one
// more read of the field on both sides). kCancelled and errors reading a table are returned.
Status neutralise_schema_differences(FileComparison& c,
                                     const std::vector<std::shared_ptr<ObjectReader>>& original,
                                     const std::vector<std::shared_ptr<ObjectReader>>& reproduced,
                                     RowWindow wa, RowWindow wb, const LogicalHashOptions& logical,
                                     const CompareOptions& options);

}  // namespace odf_hash::compare::detail
