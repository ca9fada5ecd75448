// The corpus shaders whose IR differs after GLSL → IR → GLSL → IR, each
// with the reason (docs/testing.md, "GLSL output"). glsl_round_trip_test
// fails for any other shader that differs, and warns about a listed one
// that no longer does (so the list only shrinks).
#pragma once

#include <map>
#include <string>

namespace sluice::testing {

inline const std::map<std::string, std::string>& round_trip_exceptions() {
  // Text glslang miscompiles (its own SPIR-V of these sources fails
  // spirv-val too), so the output writes another form.
  static const std::string struct_select =
      "?: on a struct or array read from a buffer, uniform block or push constant, written as an if with a "
      "temporary (glslang's ?: stores the laid-out operand into a temporary without layout, which spirv-val "
      "rejects; so does glslang's own SPIR-V of spv.structCopy.comp)";
  static const std::string sampler_select =
      "a ?: that glslang branches for (an operand other than a name or constant) beside sampler2D(t, s), "
      "named first: in place glslang puts OpSampledImage before the branch and its use after it, which "
      "spirv-val rejects (as for the source); const names for the operands move their loads out of the If";
  // What no GLSL 4.50 text can say.
  static const std::string fragcolor_precision =
      "the precision of a ?: whose value gl_FragColor takes: none in the source's IR (a built-in without "
      "precision), highp from any 4.50 text (no gl_FragColor in core 4.50, no compatibility profile for SPIR-V; "
      "the output variable standing for it has the default highp, which glslang's assignment propagates into "
      "the ?: and its constants)";
  // What Vulkan GLSL cannot leave out.
  static const std::string unbound_block =
      "an unused uniform block array that glslang's --amb leaves without a binding: Vulkan GLSL needs one, so "
      "the output writes binding = 0, the binding the SPIR-V output gives it too";
  static const std::map<std::string, std::string> list{
      {"iomap.crossStage.vk.geom", unbound_block},
      {"spv.structCopy.comp", struct_select},
      {"spv.sampledImageBlock.frag", sampler_select},
      {"spv.conversion.frag", fragcolor_precision},
      {"spv.types.frag", fragcolor_precision},
  };
  return list;
}

}  // namespace sluice::testing
