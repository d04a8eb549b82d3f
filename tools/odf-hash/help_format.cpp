#include "help_format.h"

#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "store_flags.h"

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

std::string HelpFormatter::make_group(std::string group, bool is_positional,
                                      std::vector<const CLI::Option*> opts) const {
  if (group != kStoreGroup) return CLI::Formatter::make_group(group, is_positional, opts);
  std::string line = "\n" + group + ":\n ";
  size_t width = 1;
  for (const CLI::Option* o : opts) {
    std::string name = o->get_lnames().empty() ? o->get_name() : "--" + o->get_lnames().front();
    if (const std::string v = value_name(o); !v.empty() && o->get_type_size() != 0) {
      name += " " + v;
    }
    if (width + name.size() + 2 > 78) {
      line += "\n ";
      width = 1;
    }
    line += " " + name + (o == opts.back() ? "" : ",");
    width += name.size() + 2;
  }
  return line + "\n  ('odf-hash help stores' explains them)\n";
}

}  // namespace odf_hash::cli
