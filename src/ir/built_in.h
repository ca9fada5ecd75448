// The built-in variables the IR knows, in one table: each one's IR name
// (SPIR-V's BuiltIn enumerant, as Decorations::built_in and
// StructMember::built_in spell it), its SPIR-V number (SPIR-V spec §3.21)
// and the gl_ variable GLSL declares for it, with the extension GLSL needs.
// The SPIR-V reader, the SPIR-V output, the GLSL output and the validator
// read it; the GLSL front end maps glslang's built-in enumerants to these
// names (frontend/glsl/interface.cpp).
#pragma once

#include <cstdint>
#include <span>
#include <optional>
#include <string>
#include <string_view>

#include "ir/module.h"

namespace sluice::ir {

// The type each built-in variable must have, as the SPIR-V environment of
// Vulkan states them (Vulkan spec §15.9 "Built-In Variables": e.g.
// LocalInvocationId "must be declared as a three-component vector of 32-bit
// integer values", VUID-LocalInvocationId-LocalInvocationId-04283), so that
// IR the validator accepts gives SPIR-V spirv-val accepts.
struct BuiltInType {
  enum class Kind : std::uint8_t { None, Float, Integer, Bool };  // None: no rule; Integer: int or uint, 32-bit
  Kind kind = Kind::None;
  std::uint32_t components = 1;  // 1 for a scalar
  bool array = false;            // an array of those (any length)
  std::uint32_t length = 0;      // when an array: its length, 0 = any
};

struct BuiltInInfo {
  std::string_view name;   // "Position"
  std::uint32_t spirv;     // spv::BuiltIn::Position
  std::string_view glsl;   // "gl_Position": the usual spelling; the GLSL output
                           // spells a few by stage and storage (gl_PrimitiveIDIn, ...)
  // The GLSL extension that declares it in every GLSL flavour ("" = core).
  std::string_view extension;
  // GLSL ES: whether ES 3.10 has it, else the extension that gives it
  // there ("" = ES cannot express it).
  bool in_es310;
  std::string_view es_extension;
  BuiltInType type = {};
};

std::span<const BuiltInInfo> built_ins();

// nullptr when the IR does not know the built-in.
const BuiltInInfo* find_built_in(std::string_view name);
const BuiltInInfo* find_built_in_spirv(std::uint32_t spirv);

// Whether `t` can hold the built-in `name` (BuiltInType). Per-vertex
// arrays (ir/stage_interface.h) are checked by their element. Returns why
// `t` cannot hold the built-in `name` ("a 3-component vector of 32-bit
// integers"), or nothing when it can or the built-in has no rule here.
std::optional<std::string> built_in_type_problem(const Module& m, std::string_view name, TypeId t);

}  // namespace sluice::ir
