// The shared corpus, ../shared/corpus relative to the repository root
// (INDEX.md there). A test that reads it fails, saying so, when it is
// missing: an absent corpus must never pass as 0 == 0.
#pragma once

#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

namespace sluice::testing {

// SLUICE_CORPUS_DIR/sub, which must be a directory.
inline std::string corpus_dir(const std::string& sub = "") {
  const std::filesystem::path dir = sub.empty() ? std::filesystem::path(SLUICE_CORPUS_DIR)
                                                : std::filesystem::path(SLUICE_CORPUS_DIR) / sub;
  if (!std::filesystem::is_directory(dir))
    FAIL("the shared corpus is missing: " << dir.string() << " (tests read ../shared/corpus; docs/testing.md)");
  return dir.string();
}

// SLUICE_CORPUS_DIR/relative, which must be a file.
inline std::string corpus_file(const std::string& relative) {
  const std::filesystem::path file = std::filesystem::path(SLUICE_CORPUS_DIR) / relative;
  if (!std::filesystem::is_regular_file(file))
    FAIL("the shared corpus is missing: " << file.string() << " (tests read ../shared/corpus; docs/testing.md)");
  return file.string();
}

}  // namespace sluice::testing
