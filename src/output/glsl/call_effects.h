// What a call may change that its caller can see besides its pointer
// arguments (which the caller counts itself): memory other than the
// Function-storage variables (outputs, Private variables, buffers, shared
// memory, images) or other effects (barriers). A pending expression that
// reads such memory may then be spelled after a call to a function that
// writes none (`Color = face1 * v + foo();`), where the front end reads it
// again in the same order.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/module.h"

namespace sluice::glsl_out {

// By FunctionId: 1 where the function, or a function it calls, may write
// such memory. `callees[f]` lists the functions f calls.
std::vector<std::uint8_t> functions_writing_memory(const ir::Module& m,
                                                   const std::vector<std::vector<ir::FunctionId>>& callees);

}  // namespace sluice::glsl_out
