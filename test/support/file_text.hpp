#pragma once
// What a file holds, whole (empty if it cannot be read).

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

inline std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}
