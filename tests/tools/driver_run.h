// Running the `sluice` binary from a test: a scratch directory, shell
// quoting, and the exit code, stdout and stderr of one run.
#pragma once

#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "golden_file.h"

namespace sluice::testing {

struct Run {
  int code = -1;
  std::string out;
  std::string err;
};

// A scratch directory per test, removed afterwards.
struct Scratch {
  std::filesystem::path dir;
  Scratch() {
    std::random_device rd;
    dir = std::filesystem::temp_directory_path() / ("sluice_driver_test_" + std::to_string(rd()));
    std::filesystem::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name, std::ios::binary) << text;
    return dir / name;
  }
};

inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `sluice ARGS` (ARGS already quoted), stdin from `input` if given.
inline Run run_sluice(const Scratch& s, const std::string& args, const std::string& input = "") {
  const std::filesystem::path out = s.dir / "stdout.txt", err = s.dir / "stderr.txt";
  std::string cmd = quote(std::string(SLUICE_TOOLS_DIR) + "/sluice") + " " + args;
  cmd += input.empty() ? " </dev/null" : " <" + quote(input);
  cmd += " >" + quote(out.string()) + " 2>" + quote(err.string());
  const int status = std::system(cmd.c_str());
  Run r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(out.string());
  r.err = read_file(err.string());
  return r;
}

inline std::string example(const std::string& name) { return std::string(SLUICE_EXAMPLES_DIR) + "/" + name; }
inline std::string golden(const std::string& name) { return read_file(sluice::testing::golden_path(name)); }

}  // namespace sluice::testing
