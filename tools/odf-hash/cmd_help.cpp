// `odf-hash help [COMMAND]`, and what a mistyped command gets: the nearest command's name
// rather than CLI11's "A subcommand is required".
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli_reference.h"
#include "commands.h"
#include "odf_hash/core/text.h"
#include "output.h"
#include "store_flags.h"

namespace odf_hash::cli {
namespace {

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
// neighbours ("logcal" -> "logical" is 1, "pyhsical" -> "physical" is 1).
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::vector<std::string> command_names(const CLI::App& root) {
  std::vector<std::string> names;
  for (const CLI::App* sub : root.get_subcommands([](const CLI::App* s) {
         return !s->get_group().empty();  // hidden commands have no group
       })) {
    names.push_back(sub->get_name());
  }
  return names;
}

std::string listing(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The root's help as --help prints it. (App::help() would print the help of the command
// parsed, `help` itself.)
std::string root_help(const CLI::App& root) {
  return root.get_formatter()->make_help(&root, root.get_name(), CLI::AppFormatMode::Normal);
}

}  // namespace

std::string nearest_command(const CLI::App& root, const std::string& typed) {
  std::string best;
  size_t best_distance = 3;  // at most 2 edits away
  for (const std::string& name : command_names(root)) {
    size_t dist = edit_distance(typed, name);
    if (typed.size() >= 2 && name.starts_with(typed)) dist = std::min<size_t>(dist, 1);
    if (dist < best_distance) {
      best_distance = dist;
      best = name;
    }
  }
  return best;
}

std::optional<int> refuse_unknown_command(const CLI::App& root,
                                          const std::vector<std::string>& args_reversed) {
  if (args_reversed.empty()) {
    // No command at all: the overview, on stderr, and a usage error.
    std::fputs(root_help(root).c_str(), stderr);
    return kExitError;
  }
  const std::string& first = args_reversed.back();
  if (first.empty() || first[0] == '-') return std::nullopt;  // --help, --version, errors
  for (const CLI::App* sub : root.get_subcommands({})) {
    if (sub->check_name(first)) return std::nullopt;
  }
  const std::vector<std::string> names = command_names(root);
  if (std::string near = nearest_command(root, first); !near.empty()) {
    print_error("unknown command '" + escape_text(first) + "'; did you mean '" + near + "'?");
  } else {
    print_error("unknown command '" + escape_text(first) + "'; the commands are " + listing(names) +
                " (odf-hash --help)");
  }
  return kExitError;
}

namespace {

// The nearest of `sub`'s option names (--long, -s) to `typed`, at most two edits away, or "".
std::string nearest_option(const CLI::App& sub, const std::string& typed) {
  const std::string name = typed.substr(0, typed.find('='));  // "--rows=5"
  std::string best;
  size_t best_distance = 3;
  for (const CLI::Option* o : sub.get_options()) {
    std::vector<std::string> names;
    for (const auto& l : o->get_lnames()) names.push_back("--" + l);
    for (const auto& n : o->get_snames()) names.push_back("-" + n);
    for (const auto& n : names) {
      const size_t dist = edit_distance(name, n);
      if (dist < best_distance) {
        best_distance = dist;
        best = n;
      }
    }
  }
  return best;
}

}  // namespace

int report_parse_error(CLI::App& root, const CLI::ParseError& e) {
  if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
    return root.exit(e) == 0 ? kExitOk : kExitError;  // --help, --version
  }
  const CLI::App* sub = nullptr;
  for (const CLI::App* s : root.get_subcommands({})) {
    if (s->parsed()) sub = s;
  }
  const std::string who = sub != nullptr ? "odf-hash " + sub->get_name() : "odf-hash";
  std::string message = e.what();
  // "The following argument(s) was/were not expected: -b x": each named, an option with the
  // nearest one the command has.
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    const size_t colon = message.find(": ");
    std::vector<std::string> extras;
    if (colon != std::string::npos) {
      std::string rest = message.substr(colon + 2);
      for (size_t at = 0; at <= rest.size();) {
        const size_t end = std::min(rest.find(' ', at), rest.size());
        if (end > at) extras.push_back(rest.substr(at, end - at));
        at = end + 1;
      }
    }
    // An option named first: it is what made the operands after it unexpected.
    const auto option = std::find_if(extras.begin(), extras.end(),
                                     [](const std::string& x) { return x.starts_with("-"); });
    if (option != extras.end()) {
      message = "unknown option '" + *option + "'";
      // Only a long option has a name to be near (any short one is one letter away).
      const CLI::App& scope = sub != nullptr ? *sub : root;
      if (std::string near = nearest_option(scope, *option);
          option->starts_with("--") && near.starts_with("--")) {
        message += "; did you mean '" + near + "'?";
      }
    } else if (!extras.empty()) {
      // CLI11 is given the arguments in reverse order (main.cpp): listed back in command-line
      // order.
      std::string list;
      for (auto it = extras.rbegin(); it != extras.rend(); ++it) {
        list += (list.empty() ? "'" : ", '") + *it + "'";
      }
      message = (extras.size() == 1 ? "unexpected argument " : "unexpected arguments ") + list;
    }
  }
  // CLI11's NonNegativeNumber says "Value x not in range 0.000000 to 1797...(309 digits)".
  if (const size_t at = message.find(" not in range 0.000000 to 17976931348623157");
      at != std::string::npos && message.find("Value ") != std::string::npos) {
    const size_t v = message.find("Value ");
    message =
        message.substr(0, v) + "'" + message.substr(v + 6, at - v - 6) + "' is not a number >= 0";
  }
  if (sub == nullptr && message == "A subcommand is required") {
    message = "a command is required (physical, logical, verify, compare, ...)";
  }
  std::fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", who.c_str(),
               escape_text(message).c_str(), who.c_str());
  return kExitError;
}

Command add_help_command(CLI::App& root) {
  auto topic = std::make_shared<std::string>();
  CLI::App* app =
      root.add_subcommand("help", "Show the help of odf-hash, or of one COMMAND (as --help)");
  app->add_option("COMMAND", *topic,
                  "The command to explain, or 'stores': the options and URLs of remote stores");
  CLI::App* root_ptr = &root;
  return {app, [root_ptr, topic] {
            if (topic->empty()) {
              std::fputs(root_help(*root_ptr).c_str(), stdout);
              return kExitOk;
            }
            if (*topic == "stores") {
              std::fputs(store_help().c_str(), stdout);
              return kExitOk;
            }
            for (const CLI::App* sub : root_ptr->get_subcommands({})) {
              if (sub->check_name(*topic)) {
                std::fputs(sub->get_formatter()
                               ->make_help(sub, root_ptr->get_name() + " " + sub->get_name(),
                                           CLI::AppFormatMode::Normal)
                               .c_str(),
                           stdout);
                return kExitOk;
              }
            }
            std::string near = nearest_command(*root_ptr, *topic);
            print_error("help: unknown command '" + escape_text(*topic) + "'" +
                        (near.empty() ? "" : "; did you mean '" + near + "'?"));
            return kExitError;
          }};
}

Command add_completions_command(CLI::App& root) {
  auto shell = std::make_shared<std::string>();
  CLI::App* app = root.add_subcommand(
      "completions",
      "Print the completion script of a shell (bash, zsh, fish), or the man page (man)");
  app->add_option("SHELL", *shell, "bash, zsh, fish or man")->required();
  app->footer(
      "bash: source <(odf-hash completions bash); zsh: odf-hash completions zsh > "
      "\"${fpath[1]}/_odf-hash\"; fish: odf-hash completions fish > "
      "~/.config/fish/completions/odf-hash.fish. 'cmake --install' installs all three and the "
      "man page.");
  const CLI::App* root_ptr = &root;
  return {app, [root_ptr, shell] {
            std::string text = cli_reference(*root_ptr, *shell);
            if (text.empty()) {
              print_error("completions: unknown shell '" + escape_text(*shell) +
                          "'; one of bash, zsh, fish, man");
              return kExitError;
            }
            std::fwrite(text.data(), 1, text.size(), stdout);
            return kExitOk;
          }};
}

}  // namespace odf_hash::cli
