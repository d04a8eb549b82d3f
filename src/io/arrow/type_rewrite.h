// Rebuilding an Arrow type with some of its nodes replaced (internal to io).
#pragma once

#include <functional>
#include <memory>

#include <arrow/type.h>

namespace odf_hash::io_internal {

using TypeRewrite =
    std::function<std::shared_ptr<arrow::DataType>(const std::shared_ptr<arrow::DataType>&)>;

// `type` with `fn` applied to every node, children first (fn sees the node with its children
// already rewritten and returns it or its replacement). Unchanged subtrees are returned as
// they are. nullptr when a node whose children changed cannot be rebuilt (maps, unions).
std::shared_ptr<arrow::DataType> rewrite_type(const std::shared_ptr<arrow::DataType>& type,
                                              const TypeRewrite& fn);

}  // namespace odf_hash::io_internal
