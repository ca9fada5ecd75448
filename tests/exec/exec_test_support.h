// Helpers shared by the runner tests: one Runner per test process (creating
// a Vulkan device per test case would dominate the run time) and GLSL
// compilation that fails the test on error.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "exec/glsl_compiler/glsl_compile.h"
#include "exec/compare.h"
#include "exec/data_pattern.h"
#include "exec/runner.h"
#include "exec/shader_interface.h"

namespace sluice::exec::test {

inline Runner& shared_runner() {
  static Runner runner = [] {
    auto r = Runner::create(DeviceChoice{});
    if (!r) FAIL("cannot create the CPU runner: " << r.error());
    return std::move(*r);
  }();
  return runner;
}

template <class T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

inline std::vector<uint32_t> compile(const std::string& glsl, ShaderStage stage = ShaderStage::Fragment) {
  auto words = compile_glsl(glsl, stage);
  if (!words) FAIL("GLSL did not compile: " << words.error());
  return *words;
}

}  // namespace sluice::exec::test

namespace sluice::exec::test {

// Replaces every ordered/signed/unsigned "less than" comparison with its
// negation ("greater than or equal"), returning how many it changed: the
// "deliberately wrong SPIR-V" that xcheck must catch.
inline size_t flip_less_than(std::vector<uint32_t>& words) {
  struct Pair {
    uint32_t from, to;
  };
  // OpSLessThan -> OpSGreaterThanEqual, OpULessThan -> OpUGreaterThanEqual,
  // OpFOrdLessThan -> OpFOrdGreaterThanEqual (spirv.hpp numbering).
  const Pair pairs[] = {{177, 175}, {176, 174}, {184, 190}};
  size_t flipped = 0;
  for (size_t i = 5; i < words.size();) {
    const uint32_t opcode = words[i] & 0xffff, count = words[i] >> 16;
    for (const auto& p : pairs)
      if (opcode == p.from) {
        words[i] = (count << 16) | p.to;
        ++flipped;
        break;
      }
    i += count ? count : 1;
  }
  return flipped;
}

}  // namespace sluice::exec::test
