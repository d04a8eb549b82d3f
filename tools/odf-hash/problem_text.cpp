#include "problem_text.h"

#include "output.h"

namespace odf_hash::cli {

std::string block_label(const std::optional<Multihash>& block, std::optional<uint64_t> seq) {
  std::string s;
  if (seq) s += "block " + std::to_string(*seq);
  if (block) s += (s.empty() ? "block " : " ") + block->to_string();
  return s;
}

std::string problem_text(const odf::Problem& p, size_t number, const std::string& indent) {
  std::string out =
      indent + "problem " + std::to_string(number) + ": " + odf::problem_kind_name(p.kind);
  std::string label = block_label(p.block, p.sequence_number);
  if (!label.empty()) out += ": " + label;
  out += "\n";
  const std::string detail = indent + "    ";
  if (!p.file.empty()) out += detail + "file      " + escape_text(p.file) + "\n";
  if (!p.expected.empty()) out += detail + "expected  " + p.expected.to_string(p.unit) + "\n";
  if (!p.actual.empty()) out += detail + "actual    " + p.actual.to_string(p.unit) + "\n";
  if (p.link) {
    out += detail + "linked    from " + escape_text(p.link->data_file) + " column " +
           escape_text(p.link->column) + " row " + std::to_string(p.link->row) + "\n";
  }
  out += detail + escape_text(p.message) + "\n";
  return out;
}

}  // namespace odf_hash::cli
