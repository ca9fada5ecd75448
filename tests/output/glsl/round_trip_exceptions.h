// The corpus shaders whose IR differs after GLSL → IR → GLSL → IR, each
// with the reason (docs/testing.md, "GLSL output"). glsl_round_trip_test
// fails for any other shader that differs, and warns about a listed one
// that no longer does (so the list only shrinks).
#pragma once

#include <map>
#include <string>

namespace sluice::testing {

inline const std::map<std::string, std::string>& round_trip_exceptions() {
  // Information the IR does not hold, so no output can write it back.
  static const std::string precision =
      "precision the IR does not record (of uniform-block members and of gl_FragColor/gl_Position, or of "
      "operations on constants only): the output's default precision, chosen from the module's variables, "
      "gives them another one";
  static const std::string unused_type =
      "types nothing uses (a block type, the array types of folded constants), which the text does not make again";
  static const std::string location = "an output without location that glslang's automatic mapping places elsewhere";
  static const std::string xfb = "xfb_stride of built-in outputs (the xfb work in progress changes it)";
  // What the output writes through a temporary, which the front end then makes a variable.
  static const std::string reused = "a value the IR uses several times (a matrix constructor's columns, a "
                                    "vector read twice), which the text names once";
  static const std::string struct_select =
      "?: on a struct a global holds or on an array, written as an if with a temporary (glslang's ?: copies "
      "between layouts wrongly, spv.structCopy.comp)";
  static const std::string sampler_select =
      "?: beside sampler2D(t, s), named first (glslang puts OpSampledImage in the wrong block otherwise)";
  static const std::string converted_out =
      "an out argument converted on its way back (int to float), written through a named temporary";
  static const std::string deep = "an expression deeper than 12 operations, split into temporaries";
  static const std::string extract = "Extract from a constant or loaded struct/array (an rvalue chain), which "
                                     "the text spells as an access through a variable";
  static const std::string step = "a for step that is a ?: (a continue chain of several blocks), written "
                                  "before each continue instead of as the step";
  static const std::map<std::string, std::string> list{
      {"cov-apfloat-mod-zero.frag", precision},
      {"max-mix-conditional-discard.frag", precision},
      {"switch-inside-while-always-return.frag", precision},
      {"spv.structAssignment.frag", precision},
      {"spv.glFragColor.frag", precision},
      {"spv.dataOutIndirect.vert", precision},
      {"spv.specConst.vert", precision},
      {"enhanced.7.frag", unused_type},
      {"vulkan.ast.vert", unused_type},
      {"spv.430.vert", location},
      {"spv.builtInXFB.vert", xfb},
      {"spv.xfb3.vert", xfb},
      {"cov-function-switch-case-constant-clamp-transpose-identity-matrices.frag", reused},
      {"cov-min-vec2-transpose-mat2-identity.frag", reused},
      {"transpose-rectangular-matrix.frag", reused},
      {"spv.vecMatConstruct.frag", reused},
      {"spv.100ops.frag", reused},
      {"web.texture.frag", reused},
      {"spv.functionSemantics.frag", converted_out},
      {"spv.structCopy.comp", struct_select},
      {"spv.1.4.OpSelect.frag", struct_select},
      {"spv.sampledImageBlock.frag", sampler_select},
      {"spv.conversion.frag", deep},
      {"spv.types.frag", deep},
      {"spv.deepRvalue.frag", extract},
      {"cov-loop-global-counter-increment-iterator-select-uniform.frag", step},
  };
  return list;
}

}  // namespace sluice::testing
