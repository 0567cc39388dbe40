#pragma once
// What a file that should hold text holds instead: a compressed file, a tar
// archive, UTF-16 text or binary data. Read as text, each fails on its first
// bytes with a message about syntax (tinyxml: "Error document empty" at line
// 0; the Matrix Market header: a line of binary bytes). The readers of both
// libraries (Matrix Market, URDF) name it instead. Header-only and not
// installed: the libraries include it privately.

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace graphsolve::file_contents {

// The formats matrices and robot descriptions are shipped in (the Matrix
// Market site's .mtx.gz, the SuiteSparse collection's .tar.gz, zipped robot
// packages), by their first bytes.
struct Compression {
  std::string_view magic;
  const char* name;
  const char* tool;  // the command that decompresses it
};

inline const Compression* compression_of(std::string_view head) {
  using namespace std::string_view_literals;
  static const Compression kFormats[] = {{"\x1f\x8b"sv, "gzip", "gunzip -k"},
                                         {"BZh"sv, "bzip2", "bunzip2 -k"},
                                         {"\xfd" "7zXZ"sv, "xz", "unxz -k"},
                                         {"\x28\xb5\x2f\xfd"sv, "zstd", "unzstd"},
                                         {"PK\x03\x04"sv, "zip", "unzip"}};
  for (const Compression& c : kFormats)
    if (head.substr(0, c.magic.size()) == c.magic) return &c;
  return nullptr;
}

// A tar header holds "ustar" at byte 257.
inline bool is_tar(std::string_view head) { return head.size() >= 262 && head.substr(257, 5) == "ustar"; }

// UTF-16 text: a byte order mark, or ASCII text whose every other byte is
// zero (which one tells the byte order).
inline bool is_utf16(std::string_view head) {
  if (head.size() < 2) return false;
  const unsigned char a = static_cast<unsigned char>(head[0]), b = static_cast<unsigned char>(head[1]);
  if ((a == 0xff && b == 0xfe) || (a == 0xfe && b == 0xff)) return true;
  return (a != 0 && b == 0 && a < 0x80) || (a == 0 && b != 0 && b < 0x80);
}

// Why `head`, the first bytes of the file `path` (the whole first line, or
// more), is not the text `expected` names ("Matrix Market text", "URDF
// XML"), with the command that makes it so where there is one; empty when
// it may be text. A NUL byte anywhere in `head` makes it binary.
inline std::string not_text(std::string_view head, const std::string& path, const std::string& expected) {
  if (const Compression* c = compression_of(head))
    return std::string("compressed with ") + c->name + ", not " + expected + ": decompress it first (" + c->tool +
           " " + path + ")";
  if (is_tar(head))
    return "a tar archive, not " + expected + ": extract the file from it first (tar xf " + path + ")";
  if (is_utf16(head))
    return "UTF-16 text, not " + expected + " in UTF-8: convert it first (iconv -f UTF-16 -t UTF-8 " + path + ")";
  if (const std::size_t nul = head.find('\0'); nul != std::string_view::npos)
    return "binary data (a NUL byte at offset " + std::to_string(nul) + "), not " + expected;
  return {};
}

// Drops a UTF-8 byte order mark from the start of `first_line`: some
// editors write one, and it is no part of what the line says.
inline void skip_utf8_bom(std::string& first_line) {
  if (first_line.rfind("\xEF\xBB\xBF", 0) == 0) first_line.erase(0, 3);
}

// Text from a file for a message: control and non-ASCII bytes as \xHH, cut
// after 80 characters of the message.
inline std::string printable(std::string_view text) {
  constexpr std::size_t kShown = 80;
  std::string out;
  std::size_t i = 0;
  for (; i < text.size() && out.size() < kShown; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  if (i < text.size()) out += "...";
  return out;
}

}  // namespace graphsolve::file_contents
