#include "help_format.h"

#include <cctype>
#include <sstream>

namespace odf_hash::cli {

std::string value_name(const CLI::Option* opt) {
  std::string type = opt->get_type_name();
  if (size_t colon = type.find(':'); colon != std::string::npos) type.resize(colon);
  if (type == "UINT" || type == "INT" || type == "FLOAT") return "N";
  if (type == "TEXT") {
    if (opt->get_positional() || opt->get_lnames().empty()) return "";
    std::string name = opt->get_lnames().front();
    for (char& c : name) c = c == '-' ? '_' : static_cast<char>(std::toupper(c));
    return name;
  }
  return type;
}

std::string HelpFormatter::make_option_opts(const CLI::Option* opt) const {
  std::ostringstream out;
  if (opt->get_type_size() != 0) {
    if (std::string type = value_name(opt); !type.empty()) out << " " << type;
    if (!opt->get_default_str().empty()) out << "=" << opt->get_default_str();
    if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) out << " ...";
    if (opt->get_required()) out << " " << get_label("REQUIRED");
  }
  if (!opt->get_needs().empty()) {
    out << " " << get_label("Needs") << ":";
    for (const CLI::Option* other : opt->get_needs()) out << " " << other->get_name();
  }
  if (!opt->get_excludes().empty()) {
    out << " " << get_label("Excludes") << ":";
    for (const CLI::Option* other : opt->get_excludes()) out << " " << other->get_name();
  }
  return out.str();
}

}  // namespace odf_hash::cli
