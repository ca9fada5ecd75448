// Module-level output: the declarations that precede the functions (mode
// layouts, specialization constants, structs, interface and other globals)
// and the header.
#pragma once

#include <string>

#include "output/glsl/context.h"

namespace sluice::glsl_out {

// Everything between the version/extension lines and the first function.
std::string emit_declarations(EmitContext& ctx);

// "#version ...", the #extension lines, and ES default precisions; called
// last, when every extension the text needs is known.
std::string emit_header(const EmitContext& ctx);

}  // namespace sluice::glsl_out
