#include "cost_estimate.h"

#include "array_check.h"

namespace odf_hash::logical {

double estimate_bytes(const TypeNode& node, const ArrowArray& a, int64_t pos, int64_t len) {
  if (len <= 0) return 0;
  const double n = static_cast<double>(len);
  const int64_t first = a.offset + pos;
  switch (node.kind) {
    case Kind::kNull:
    case Kind::kBool: return n;
    case Kind::kFixed: return n * static_cast<double>(node.width);
    case Kind::kFixedBinary: return n * static_cast<double>(8 + node.width);
    case Kind::kBinary:
    case Kind::kLargeBinary: {
      const bool large = node.kind == Kind::kLargeBinary;
      return 8 * n + static_cast<double>(read_offset(a.buffers[1], large, first + len) -
                                         read_offset(a.buffers[1], large, first));
    }
    case Kind::kBinaryView: return 24 * n;  // sizes are spread over the views
    case Kind::kList:
    case Kind::kLargeList: {
      const bool large = node.kind == Kind::kLargeList;
      const int64_t begin = read_offset(a.buffers[1], large, first);
      const int64_t end = read_offset(a.buffers[1], large, first + len);
      return 8 * n + estimate_bytes(node.children[0], *a.children[0], begin, end - begin);
    }
    case Kind::kListView:
    case Kind::kLargeListView:  // items may be anywhere in the child: a flat guess
      return 16 * n;
    case Kind::kFixedList:
      return 8 * n +
             estimate_bytes(node.children[0], *a.children[0], first * node.width, len * node.width);
    case Kind::kDictionary: {
      const ArrowArray& dict = *a.dictionary;
      if (dict.length <= 0) return n;
      return n * estimate_bytes(node.children[0], dict, 0, dict.length) /
             static_cast<double>(dict.length);
    }
    case Kind::kRunEnd: return 8 * n;  // only the runs reached were checked: a flat guess
    case Kind::kStruct: break;
  }
  return n;
}

}  // namespace odf_hash::logical
