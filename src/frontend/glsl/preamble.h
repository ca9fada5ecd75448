// The preamble glslang reads before the shader: Options::macros as
// #define/#undef lines (command_line.cpp).
#pragma once

#include <string>

#include "frontend/glsl/glsl_frontend.h"

namespace sluice::glsl_in::detail {

std::string preamble(const Options& options);

}  // namespace sluice::glsl_in::detail
