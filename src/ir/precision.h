// Precision qualifiers (GLSL's lowp/mediump/highp) as the ANGLE IR records
// them on variables, function returns, registers and struct members.
#pragma once

#include <cstdint>

namespace sluice::ir {

enum class Precision : std::uint8_t { None, Low, Medium, High };

const char* to_string(Precision p);

}  // namespace sluice::ir
