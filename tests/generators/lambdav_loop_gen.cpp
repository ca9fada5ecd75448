// lambdav-loop-gen DIR [COUNT] [FIRST_SEED]: writes the generated λV loop
// nests of tests/generators/lambdav_loop_nests.h as DIR/loop-nest-SEED.lv, each
// with its `; expect X Y:` lines, for `sluice xcheck DIR` on lavapipe (a
// ctest) or on a GPU (docs/testing.md).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "lambdav_loop_nests.h"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: lambdav-loop-gen DIR [COUNT (200)] [FIRST_SEED (1)]\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const unsigned long count = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 200;
  const unsigned long first = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 1;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  for (unsigned long seed = first; seed < first + count; ++seed) {
    const auto nest = sluice::lambdav::generate::loop_nest(static_cast<std::uint32_t>(seed));
    std::ofstream out(dir / ("loop-nest-" + std::to_string(seed) + ".lv"));
    out << nest.source;
    if (!out) {
      std::fprintf(stderr, "lambdav-loop-gen: cannot write in %s\n", dir.c_str());
      return 1;
    }
  }
  return 0;
}
