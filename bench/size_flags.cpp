#include "size_flags.hpp"

#include <algorithm>
#include <cstring>
#include <iostream>

#include "decimal_number.hpp"

namespace bench {

namespace {

// The whole numbers of a comma-separated list, each in [least, most]; empty,
// with `error` naming the first bad item, on bad input.
std::vector<int> whole_numbers(const std::string& list, long least, long most, const std::string& what,
                               std::string& error) {
  std::vector<int> numbers;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = list.find(',', start);
    const std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto d = graphsolve::decimal_number::read_decimal<long>(item);
    if (!d.whole || d.out_of_range || d.value < least || d.value > most) {
      error = "'" + item + "' is not " + what + " from " + std::to_string(least) + " to " + std::to_string(most);
      return {};
    }
    numbers.push_back(static_cast<int>(d.value));
    if (comma == std::string::npos) return numbers;
    start = comma + 1;
  }
}

}  // namespace

std::vector<int> parse_block_sizes(const std::string& list, std::string& error) {
  std::vector<int> sizes = whole_numbers(list, 1, kLargestBlock, "a block size", error);
  if (sizes.empty()) error = "--block-sizes: " + error;
  return sizes;
}

bool add_family_sizes(const std::string& spec, const std::vector<SizeRange>& ranges, FamilySizes& sizes,
                      std::string& error) {
  const std::size_t colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  const SizeRange* range = nullptr;
  std::string known;
  for (const SizeRange& r : ranges) {
    if (name == r.family) range = &r;
    known += std::string(known.empty() ? "" : ", ") + r.family;
  }
  if (!range || colon == std::string::npos) {
    error = "--sizes=" + spec + ": expected FAMILY:N1,N2,... with FAMILY one of " + known;
    return false;
  }
  if (sizes.count(name)) {
    error = "--sizes: " + name + " is given twice; list all its sizes in one --sizes=" + name + ":...";
    return false;
  }
  std::vector<int> list = whole_numbers(spec.substr(colon + 1), range->least, range->most,
                                        std::string(range->parameter) + " for " + name, error);
  if (list.empty()) {
    error = "--sizes=" + spec + ": " + error;
    return false;
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string n = std::to_string(list[i]);
    if (std::find(list.begin(), list.begin() + i, list[i]) != list.begin() + i) {
      error = "--sizes=" + spec + ": " + n + " is given twice";
      return false;
    }
    if (range->even && list[i] % 2 != 0) {
      error = "--sizes=" + spec + ": " + name + " sizes are even: " + n + " is odd";
      return false;
    }
  }
  sizes[name] = list;
  return true;
}

bool take_size_flags(int argc, char** argv, const std::vector<SizeRange>& ranges, const char* program,
                     FamilySizes& sizes, std::vector<char*>& rest) {
  const std::string flag = "--sizes=";
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], flag.c_str(), flag.size()) != 0) {
      rest.push_back(argv[i]);
    } else if (std::string error; !add_family_sizes(argv[i] + flag.size(), ranges, sizes, error)) {
      std::cerr << program << ": " << error << "\n";
      return false;
    }
  }
  return true;
}

std::vector<int> sizes_of(const FamilySizes& chosen, const std::string& family, const std::vector<int>& otherwise) {
  const auto it = chosen.find(family);
  return it != chosen.end() ? it->second : otherwise;
}

const std::vector<SizeRange>& graph_size_ranges() {
  // 3162^2 and 215^3 are the largest nets and crystals within 10 million nodes.
  static const std::vector<SizeRange> ranges = {
      {"chain", "a node count", 1, 10000000, false},  {"tree", "a node count", 1, 10000000, false},
      {"ladder", "a node count", 2, 10000000, true},  {"random", "a node count", 1, 10000000, false},
      {"net", "a side", 1, 3162, false},              {"crystal", "a side", 1, 215, false}};
  return ranges;
}

}  // namespace bench
