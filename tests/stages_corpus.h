// The geometry and tessellation shaders of ../shared/corpus/glsl-stages/ with
// the glslang options INDEX.md section (d) gives each one (--aml --amb, a
// --target-env): the options that make glslang's own SPIR-V valid, which the
// corpus tests give the GLSL front end and the SPIR-V output too.
#pragma once

#include <regex>
#include <string>
#include <vector>

#include "golden_file.h"

namespace sluice::testing {

struct StageShader {
  std::string path;      // absolute
  std::string file;      // e.g. "spv.400.tesc"
  bool automap = false;  // --aml --amb
  std::string target_env = "vulkan1.0";
};

// Every row of INDEX.md's glsl-stages table, in its order; empty when the
// corpus is missing (the callers REQUIRE the count they expect).
inline std::vector<StageShader> stage_shaders(const std::string& corpus) {
  std::vector<StageShader> out;
  const std::string index = read_file(corpus + "/INDEX.md");
  static const std::regex row(R"(\| glsl-stages/([^ |]+) \|[^|]*\|[^|]*\|[^|]*\| `glslangValidator ([^`]*)` \|)");
  for (auto it = std::sregex_iterator(index.begin(), index.end(), row); it != std::sregex_iterator(); ++it) {
    StageShader s;
    s.file = (*it)[1].str();
    s.path = corpus + "/glsl-stages/" + s.file;
    const std::string options = (*it)[2].str();
    s.automap = options.find("--aml") != std::string::npos;
    static const std::regex env("--target-env (\\S+)");
    std::smatch m;
    if (std::regex_search(options, m, env)) s.target_env = m[1].str();
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace sluice::testing
