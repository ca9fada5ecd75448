// What the benchmarks count a module's size in: IR instructions over every
// block of every function.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ir/module.h"

namespace sluice::bench {

inline std::size_t instruction_count(const ir::Module& m) {
  std::size_t n = 0;
  for (std::uint32_t f = 0; f < m.function_count(); ++f)
    for (const auto& block : m.function(ir::FunctionId(f)).blocks) n += block.instructions.size();
  return n;
}

}  // namespace sluice::bench
