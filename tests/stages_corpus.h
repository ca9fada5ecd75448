// The geometry and tessellation shaders of ../shared/corpus/glsl-stages/ with
// the glslang options INDEX.md section (d) gives each one (--aml --amb, a
// --target-env): the options that make glslang's own SPIR-V valid, which the
// corpus tests give the GLSL front end and the SPIR-V output too.
#pragma once

#include <map>
#include <regex>
#include <string>
#include <vector>

#include "corpus.h"
#include "golden_file.h"

namespace sluice::testing {

struct StageShader {
  std::string path;      // absolute
  std::string file;      // e.g. "spv.400.tesc"
  bool automap = false;  // --aml --amb
  std::string target_env = "vulkan1.0";
};

// The shaders the GLSL front end refuses, each with its reason
// (docs/testing.md, "Geometry and tessellation shaders").
inline const std::map<std::string, std::string>& refused_stage_shaders() {
  static const std::map<std::string, std::string> list{
  };
  return list;
}

// Every row of INDEX.md's glsl-stages table, in its order; the test fails
// when the corpus is missing.
inline std::vector<StageShader> stage_shaders() {
  std::vector<StageShader> out;
  const std::string corpus = corpus_dir();
  corpus_dir("glsl-stages");
  const std::string index = read_file(corpus_file("INDEX.md"));
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
