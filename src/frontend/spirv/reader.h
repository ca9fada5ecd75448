// Reading structured SPIR-V into Sluice's IR (the block tree).
//
//   auto m = spirv_in::read_bytes(file_bytes, {"shader.spv"});
//   if (!m) print(m.error());   // "shader.spv: error: %12 (name) OpFoo: message"
//
// The input is a Shader-capability module as glslang, DXC or spirv-opt
// writes it for one vertex, fragment, compute, geometry or tessellation
// entry point. Control flow is
// rebuilt from the merge instructions (reader_control.cpp says how); values
// OpPhi merges and values used outside the block that defines them travel
// through Function-storage variables, which the SPIR-V output promotes back
// to SSA values. Anything the reader cannot express is an error value naming
// the SPIR-V id and instruction; it never aborts.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "frontend/spirv/module.h"
#include "ir/module.h"
#include "ir/result.h"

namespace sluice::spirv_in {

struct ReadOptions {
  ReadOptions(std::string file = "<spirv>", std::optional<spv_target_env> env = std::nullopt)
      : file_name(std::move(file)), validate_for(env) {}

  std::string file_name;  // for messages
  // When set, the input must pass spirv-val for this environment first
  // (spirv_in::validate: a newer module is checked in its version's
  // environment of the same family). The reader expects valid SPIR-V, as
  // Tint's reader does: what spirv-val rejects for the target (a Location on
  // a built-in, a store to a Uniform block, …) would otherwise come out as
  // output that fails validation. Left unset, the reader still never
  // crashes on any bytes, but reads what it can.
  std::optional<spv_target_env> validate_for;
};

Result<ir::Module> read(const Module& module, const ReadOptions& options = {});
// Binary or assembly text (parse_bytes), then read().
Result<ir::Module> read_bytes(std::string_view bytes, const ReadOptions& options = {});

}  // namespace sluice::spirv_in
