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
  // What the output writes through a temporary, which the front end then makes a variable.
  static const std::string struct_select =
      "?: on a struct a global holds or on an array, written as an if with a temporary (glslang's ?: copies "
      "between layouts wrongly, spv.structCopy.comp)";
  static const std::string sampler_select =
      "?: beside sampler2D(t, s), named first (glslang puts OpSampledImage in the wrong block otherwise)";
  static const std::string converted_out =
      "an out argument converted on its way back (int to float), written through a named temporary";
  static const std::string fragcolor_precision =
      "the precision of a ?: whose value gl_FragColor takes: none in the source's IR, highp once the text's "
      "output variable stands for gl_FragColor";
  static const std::map<std::string, std::string> list{
      {"spv.functionSemantics.frag", converted_out},
      {"spv.structCopy.comp", struct_select},
      {"spv.1.4.OpSelect.frag", struct_select},
      {"spv.sampledImageBlock.frag", sampler_select},
      {"spv.conversion.frag", fragcolor_precision},
      {"spv.types.frag", fragcolor_precision},
  };
  return list;
}

}  // namespace sluice::testing
