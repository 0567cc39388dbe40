#pragma once
// The hint an error gives for a name it does not know (a model, a parameter,
// a joint): the known name the user most likely meant, if one stands out.
// Header-only: the library and the command-line program both use it.

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace dynamics::detail {

// Case, '_' and ' ' for '-' do not tell names apart here ("Double_Pendulum").
inline std::string folded_name(const std::string& name) {
  std::string f = name;
  for (char& c : f) c = c == '_' || c == ' ' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return f;
}

// Insertions, deletions, substitutions and swaps of neighbours that turn a
// into b (optimal string alignment distance: "lenght" is one edit from "length").
inline int edit_distance(const std::string& a, const std::string& b) {
  const std::size_t m = a.size(), n = b.size();
  std::vector<int> d((m + 1) * (n + 1));
  auto at = [&](std::size_t i, std::size_t j) -> int& { return d[i * (n + 1) + j]; };
  for (std::size_t i = 0; i <= m; ++i) at(i, 0) = static_cast<int>(i);
  for (std::size_t j = 0; j <= n; ++j) at(0, j) = static_cast<int>(j);
  for (std::size_t i = 1; i <= m; ++i)
    for (std::size_t j = 1; j <= n; ++j) {
      at(i, j) = std::min({at(i - 1, j - 1) + (a[i - 1] == b[j - 1] ? 0 : 1), at(i - 1, j) + 1, at(i, j - 1) + 1});
      const bool swapped = i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1];
      if (swapped) at(i, j) = std::min(at(i, j), at(i - 2, j - 2) + 1);
    }
  return at(m, n);
}

// ", did you mean 'x'?" for the one known name nearest to `name` (by folded
// name, then by at most two edits, and fewer than a third of its letters),
// or "" when none is that near or two are equally near.
inline std::string did_you_mean(const std::string& name, const std::vector<std::string>& known) {
  constexpr int kMostEdits = 2;
  const std::string wanted = folded_name(name);
  int best = kMostEdits + 1;
  const std::string* choice = nullptr;
  bool tied = false;
  for (const std::string& candidate : known) {
    const std::string folded = folded_name(candidate);
    if (folded.size() > wanted.size() + kMostEdits || wanted.size() > folded.size() + kMostEdits) continue;
    const int edits = folded == wanted ? 0 : edit_distance(wanted, folded);
    if (edits > kMostEdits || 3 * edits >= static_cast<int>(folded.size())) continue;
    if (edits < best) {
      best = edits;
      choice = &candidate;
      tied = false;
    } else if (edits == best && candidate != *choice) {
      tied = true;
    }
  }
  return choice && !tied ? ", did you mean '" + *choice + "'?" : "";
}

}  // namespace dynamics::detail
