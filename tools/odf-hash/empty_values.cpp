// No option takes an empty value (commands.h, refuse_empty_values). `--expect-head "$PIN"`
// with PIN unset, `--pins ''`, `--endpoint-url ''`: each used to mean "not given", so a
// script lost its trust anchor, or its endpoint, without a word.
#include "commands.h"
#include "odf_hash/odf/verify_args.h"

namespace odf_hash::cli {

void refuse_empty_values(CLI::App& root) {
  const CLI::Validator non_empty(
      [](std::string& value) {
        return value.empty() ? std::string(odf::kEmptyValueRefused) : std::string();
      },
      "", "NONEMPTY");
  for (CLI::Option* option : root.get_options()) {
    if (option->get_type_size() != 0 && !option->get_positional()) option->check(non_empty);
  }
  for (CLI::App* sub : root.get_subcommands([](CLI::App*) { return true; })) {
    refuse_empty_values(*sub);
  }
}

}  // namespace odf_hash::cli
