#pragma once
// A fixture that runs a command line program in a fresh directory per test,
// as a user would, and captures its exit code, stdout and stderr.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "file_text.hpp"

struct CliResult {
  int code;
  std::string out, err;
};

class CliFixture : public ::testing::Test {
 protected:
  CliFixture(std::string program, std::string prefix) : program_(std::move(program)), prefix_(std::move(prefix)) {}

  // The process id keeps the directory apart from the same test run at the
  // same time by another process (CTest runs the suite twice, once as
  // portable.*).
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           (prefix_ + ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
            std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // shell_first runs in the same shell just before the program (e.g. a
  // ulimit); standard output goes to `stdout_to` (then not captured).
  CliResult run(const std::string& args, const std::string& shell_first = "", const std::string& stdout_to = "stdout.txt") {
    const std::string command = "cd '" + dir_.string() + "' && " + (shell_first.empty() ? "" : shell_first + " && ") +
                                "'" + program_ + "' " + args + " > " + stdout_to + " 2> stderr.txt";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir_ / "stdout.txt"), slurp(dir_ / "stderr.txt")};
  }
  // Runs the program with `fifo` (in the directory) made a named pipe and held
  // open for reading, so that the program's open for writing returns; `out`
  // gets what it wrote there (at most 64 KiB).
  CliResult run_writing_to_fifo(const std::string& args, const std::string& fifo, std::string& out) {
    const std::filesystem::path path = dir_ / fifo;
    out.clear();
    if (::mkfifo(path.c_str(), 0600) != 0) return {-1, "", "mkfifo failed"};
    const int reader = ::open(path.c_str(), O_RDWR | O_NONBLOCK);
    if (reader < 0) return {-1, "", "cannot open the fifo"};
    const CliResult result = run(args);
    out.resize(1 << 16);
    const ssize_t got = ::read(reader, out.data(), out.size());
    ::close(reader);
    out.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
    return result;
  }
  // A file `target` holding "old" that only its owner may write and its group
  // read (rw-r-----), and a symbolic link `link` to it.
  static constexpr std::filesystem::perms kOwnerWriteGroupRead =
      std::filesystem::perms::owner_read | std::filesystem::perms::owner_write | std::filesystem::perms::group_read;
  void link_to_private_file(const std::string& link, const std::string& target) {
    write(target, "old");
    std::filesystem::permissions(dir_ / target, kOwnerWriteGroupRead);
    std::filesystem::create_symlink(target, dir_ / link);
  }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return name;
  }
  static std::string slurp(const std::filesystem::path& p) { return file_text(p); }

  std::filesystem::path dir_;

 private:
  std::string program_, prefix_;
};
