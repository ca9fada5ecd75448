// The shaders of tests/tools/ub_check and their `expect <check> <line>
// <invocations>` comments (worked out by hand from gl_FragCoord), shared by
// ub_check_test.cpp (GLSL, λV) and ub_check_spirv_test.cpp (their SPIR-V).
#pragma once

#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <tuple>

#include "golden_file.h"
#include "tools/driver_run.h"

namespace sluice::testing {

using UbExpect = std::tuple<std::string, unsigned, unsigned>;  // check, line, invocations

inline std::string ub_check_shader(const std::string& name) {
  return (std::filesystem::path(SLUICE_GOLDEN_DIR).parent_path() / "tools" / "ub_check" / name).string();
}

inline std::multiset<UbExpect> ub_check_expected(const std::string& path) {
  std::multiset<UbExpect> out;
  const std::string text = read_file(path);
  static const std::regex line(R"(expect ([a-z0-9-]+) ([0-9]+) ([0-9]+))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), line); it != std::sregex_iterator(); ++it)
    out.emplace((*it)[1].str(), std::stoul((*it)[2].str()), std::stoul((*it)[3].str()));
  return out;
}

// `sluice render --ub-check FILE` at 16x4, the findings as JSON in
// s.dir/findings.json.
inline Run ub_check_render(const Scratch& s, const std::string& file) {
  return run_sluice(s, "render --ub-check " + quote(file) + " --size 16x4 -o " + quote((s.dir / "out.png").string()) +
                           " --ub-report " + quote((s.dir / "findings.json").string()));
}

}  // namespace sluice::testing
