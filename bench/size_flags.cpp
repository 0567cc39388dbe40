#include "size_flags.hpp"

#include <algorithm>

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

struct Family {
  const char* name;
  const char* parameter;  // what a size counts
  int dimensions;         // nodes = size^dimensions
  long least;
};
constexpr Family kFamilies[] = {{"chain", "a node count", 1, 1},  {"tree", "a node count", 1, 1},
                                {"ladder", "a node count", 1, 2}, {"random", "a node count", 1, 1},
                                {"net", "a side", 2, 1},          {"crystal", "a side", 3, 1}};

// The largest size whose system has at most kMostNodes nodes.
long largest_size(int dimensions) {
  if (dimensions == 1) return kMostNodes;
  long side = 1;
  while ((dimensions == 2 ? (side + 1) * (side + 1) : (side + 1) * (side + 1) * (side + 1)) <= kMostNodes) ++side;
  return side;
}

}  // namespace

std::vector<int> parse_block_sizes(const std::string& list, std::string& error) {
  std::vector<int> sizes = whole_numbers(list, 1, kLargestBlock, "a block size", error);
  if (sizes.empty()) error = "--block-sizes: " + error;
  return sizes;
}

bool add_family_sizes(const std::string& spec, FamilySizes& sizes, std::string& error) {
  const std::size_t colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  const Family* family = nullptr;
  std::string known;
  for (const Family& f : kFamilies) {
    if (name == f.name) family = &f;
    known += std::string(known.empty() ? "" : ", ") + f.name;
  }
  if (!family || colon == std::string::npos) {
    error = "--sizes=" + spec + ": expected FAMILY:N1,N2,... with FAMILY one of " + known;
    return false;
  }
  if (sizes.count(name)) {
    error = "--sizes: " + name + " is given twice; list all its sizes in one --sizes=" + name + ":...";
    return false;
  }
  std::vector<int> list = whole_numbers(spec.substr(colon + 1), family->least, largest_size(family->dimensions),
                                        std::string(family->parameter) + " of a " + name, error);
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
    if (name == "ladder" && list[i] % 2 != 0) {  // named by node count, two per rung
      error = "--sizes=" + spec + ": a ladder has two nodes per rung: " + n + " is odd";
      return false;
    }
  }
  sizes[name] = list;
  return true;
}

}  // namespace bench
