// Golden-file comparison. SLUICE_UPDATE_GOLDEN=1 rewrites the file instead
// of comparing (see docs/testing.md); review every such diff before commit.
#pragma once

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

namespace sluice::testing {

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string golden_path(const std::string& name) { return std::string(SLUICE_GOLDEN_DIR) + "/" + name; }

inline void check_golden(const std::string& name, const std::string& actual) {
  const std::string path = golden_path(name);
  const char* update = std::getenv("SLUICE_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    SUCCEED("updated " << path);
    return;
  }
  std::ifstream probe(path);
  INFO("golden file " << path << " (regenerate with SLUICE_UPDATE_GOLDEN=1)");
  REQUIRE(probe.good());
  CHECK(read_file(path) == actual);
}

}  // namespace sluice::testing
