#pragma once
// An output file the programs write whole or not at all, wherever its name
// points:
// - "-" is standard output;
// - a device, FIFO or socket (/dev/null, /dev/stdout, a named pipe) is written
//   in place: a temporary file renamed over it would put a regular file where
//   the device was (as root, over /dev/null itself);
// - a symbolic link keeps pointing where it did: the file it names is replaced;
// - any other file is written to a temporary file beside it, which commit()
//   renames over it, keeping the old file's permissions; a run that fails
//   before commit() leaves the old file (or none) and no temporary behind.
// Header-only and not installed: the programs include it privately.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace graphsolve::output_file {

// Whether writing `out` would replace the input file `input`, however either
// path is spelt. Only a regular file can be replaced: /dev/stdin and
// /dev/stdout may be one terminal without the output touching the input.
inline bool replaces_input(const std::string& out, const std::string& input) {
  std::error_code error;
  return !input.empty() && std::filesystem::is_regular_file(out, error) &&
         std::filesystem::equivalent(out, input, error);
}

class OutputFile {
 public:
  // `path` as the user gave it (messages name it so); `option` names where it
  // came from ("--out").
  OutputFile(const std::string& path, const std::string& option) : path_(path), option_(option) {
    namespace fs = std::filesystem;
    if (path == "-") {
      mode_ = Mode::StandardOutput;
      return;
    }
    std::error_code error;
    const fs::file_status status = fs::status(path, error);  // follows links
    if (fs::is_directory(status)) fail(std::strerror(EISDIR));
    if (fs::exists(status) && !fs::is_regular_file(status)) {
      mode_ = Mode::InPlace;
      file_.open(path, std::ios::binary);
      if (!file_) fail(std::strerror(errno));
      return;
    }
    if (fs::is_symlink(fs::symlink_status(path, error))) {
      std::error_code resolved;
      target_ = fs::weakly_canonical(path, resolved).string();
      if (resolved) fail(resolved.message());
    } else {
      target_ = path;
    }
    std::vector<char> name(target_.begin(), target_.end());
    const std::string suffix = ".tmp.XXXXXX";
    name.insert(name.end(), suffix.begin(), suffix.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) fail(std::strerror(errno));
    temporary_ = name.data();
    // mkstemp makes it private (0600): give it the old file's permissions, or
    // a new file's.
    struct stat old {};
    const mode_t mask = ::umask(0);
    ::umask(mask);
    const mode_t permissions = ::stat(target_.c_str(), &old) == 0 ? old.st_mode & 07777 : 0666 & ~mask;
    const bool permitted = ::fchmod(fd, permissions) == 0;
    ::close(fd);
    if (!permitted) abandon(std::strerror(errno));
    file_.open(temporary_, std::ios::binary | std::ios::trunc);
    if (!file_) abandon(std::strerror(errno));
  }
  ~OutputFile() {
    if (!temporary_.empty()) {
      file_.close();
      std::remove(temporary_.c_str());
    }
  }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream() { return mode_ == Mode::StandardOutput ? std::cout : file_; }
  bool is_standard_output() const { return mode_ == Mode::StandardOutput; }

  // Everything written reaches the file (or the stream), or this throws
  // naming the path and the system's reason (a full disk, a closed pipe).
  void commit() {
    errno = 0;
    if (mode_ == Mode::StandardOutput) {
      if (!std::cout.flush()) fail(reason());
      return;
    }
    file_.close();
    if (!file_) abandon(reason());
    if (mode_ == Mode::InPlace) return;
    if (std::rename(temporary_.c_str(), target_.c_str()) != 0) abandon(std::strerror(errno));
    temporary_.clear();
  }

 private:
  enum class Mode { Replace, InPlace, StandardOutput };

  static std::string reason() { return errno != 0 ? std::strerror(errno) : "write failed"; }
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error(option_ + " " + path_ + ": cannot write: " + why);
  }
  [[noreturn]] void abandon(const std::string& why) {
    if (!temporary_.empty()) {
      file_.close();
      std::remove(temporary_.c_str());
      temporary_.clear();
    }
    fail(why);
  }

  std::string path_, option_, target_, temporary_;
  Mode mode_ = Mode::Replace;
  std::ofstream file_;
};

// After a program's last output: throws if what it wrote to standard output
// did not all get there (a full disk; a shell's > to /dev/full), which would
// otherwise pass unseen with exit status 0.
inline void check_standard_output() {
  errno = 0;
  std::cout.flush();
  if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout)
    throw std::runtime_error(std::string("cannot write standard output: ") +
                             (errno != 0 ? std::strerror(errno) : "write failed"));
}

}  // namespace graphsolve::output_file
