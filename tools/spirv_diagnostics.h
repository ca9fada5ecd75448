// A SPIR-V parse error on stderr as `FILE:line:col: error: message` with the
// line and a caret for assembly text, or `FILE: error: message` (shared by
// `sluice cfg` and `sluice flesh --import`).
#pragma once

#include <string>

#include "frontend/spirv/module.h"

namespace sluice::tools {

void print_spirv_parse_error(const std::string& file, const spirv_in::ParseError& e);

}  // namespace sluice::tools
