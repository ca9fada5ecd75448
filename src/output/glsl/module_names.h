// Names for module-level entities: globals, block and struct types and
// their members, functions and specialization constants.
#pragma once

#include <string>

#include "output/glsl/context.h"

namespace sluice::glsl_out {

// Chooses every module-level name. Interface names (NameSource::Interface
// variables, block names and the members of anonymous blocks) are kept
// exactly and reserved first; everything else is sanitized and made unique
// around them. Also fills the member names of structs and blocks.
void name_module(EmitContext& ctx);

// The member name for AccessStructField/ExtractStructField on `struct_type`.
const std::string& member_name(const EmitContext& ctx, ir::TypeId struct_type, std::uint32_t index);

}  // namespace sluice::glsl_out
