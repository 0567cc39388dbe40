#pragma once
// CLI11's parse errors in the programs' own words, with the option or command
// a mistyped one most likely meant (as git does): "--stpes 3" gave "The
// following arguments were not expected: 3 --stpes" (its list reversed), a
// repeated --dt "At Most 1 required but received 2", and an unknown command
// "A subcommand is required". Header-only, for the two programs.

#include <algorithm>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace graphsolve::cli_errors {

// Edits (insertions, deletions, substitutions, swaps of neighbours) that turn a into b.
inline std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// The candidate nearest to `word` if it is near enough to be a typo (at most
// a third of its letters off), else "".
inline std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = word.size() / 3 + 1;
  for (const std::string& c : candidates)
    if (const std::size_t distance = edit_distance(word, c); distance < best_distance) {
      best = c;
      best_distance = distance;
    }
  return best;
}

// The options of the command that was parsed (the subcommand given, else the
// program itself), as written on a command line.
inline std::vector<std::string> option_names(const CLI::App& app) {
  const CLI::App* command = app.get_subcommands().empty() ? &app : app.get_subcommands().front();
  std::vector<std::string> names;
  for (const CLI::Option* option : command->get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
  }
  return names;
}

inline std::string explain_parse_error(const CLI::App& app, const CLI::ParseError& error) {
  const std::vector<std::string> extras = app.remaining(true);
  const std::string what = error.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&error)) {
    // An unknown option explains the words after it (its values); without
    // one, the words themselves are the surplus.
    const std::vector<std::string> options = option_names(app);
    std::string message;
    for (const std::string& word : extras) {
      if (word.size() < 2 || word[0] != '-') continue;
      const std::string name = word.substr(0, word.find('='));
      message += (message.empty() ? "unknown option " : "; unknown option ") + name;
      if (const std::string meant = nearest(name, options); !meant.empty()) message += " (did you mean " + meant + "?)";
    }
    if (!message.empty()) return message;
    message = extras.size() > 1 ? "unexpected arguments:" : "unexpected argument:";
    for (const std::string& word : extras) message += " '" + word + "'";
    return message;
  }
  if (dynamic_cast<const CLI::RequiredError*>(&error) && app.get_subcommands().empty() && !extras.empty() &&
      !app.get_subcommands({}).empty()) {
    std::vector<std::string> commands;
    std::string list;
    for (const CLI::App* sub : app.get_subcommands({})) {
      commands.push_back(sub->get_name());
      list += (list.empty() ? "" : ", ") + sub->get_name();
    }
    std::string message = "unknown command '" + extras.front() + "'";
    if (const std::string meant = nearest(extras.front(), commands); !meant.empty())
      message += " (did you mean " + meant + "?)";
    return message + "; the commands are " + list;
  }
  const std::string at_most = ": At Most 1 required but received ";
  if (const std::size_t at = what.find(at_most); at != std::string::npos)
    return what.substr(0, at) + " is given " + what.substr(at + at_most.size()) + " times; give it once";
  // "--steps: 1 required INT:NONNEGATIVE missing": the option ended the line.
  const std::string one_required = ": 1 required ";
  const std::size_t at = what.find(one_required);
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) && at != std::string::npos && what.size() > 8 &&
      what.compare(what.size() - 8, 8, " missing") == 0) {
    const std::string type = what.substr(at + one_required.size(), what.size() - 8 - at - one_required.size());
    return what.substr(0, at) + " needs a value (" + type + ")";
  }
  return what;
}

}  // namespace graphsolve::cli_errors
