// Helpers for the structured-control-flow tests: reading a .spvasm file,
// its `; key: value` expectation comments, and the constructs of a
// FunctionCfg as "kind N" -> block ids.
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/spirv/cfg/analysis.h"

namespace sluice::spirv_in::test {

inline std::filesystem::path cfg_test_dir() { return SLUICE_SPIRV_TEST_DIR; }

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The values of every `; key: value` comment line with the given key.
inline std::vector<std::string> comments(const std::string& text, const std::string& key) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const std::string prefix = "; " + key + ":";
    if (line.rfind(prefix, 0) == 0) out.push_back(line.substr(prefix.size()));
  }
  return out;
}

inline std::set<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::set<std::string> out;
  for (std::string w; in >> w;) out.insert(w);
  return out;
}

// "loop 2" -> {"2", "3", ...} from the expectation lines "loop 2: 2 3 ...".
inline std::map<std::string, std::set<std::string>> expected_constructs(const std::vector<std::string>& lines) {
  std::map<std::string, std::set<std::string>> out;
  for (const std::string& l : lines) {
    const auto colon = l.find(':');
    std::istringstream head(l.substr(0, colon));
    std::string kind, entry;
    head >> kind >> entry;
    out[kind + " " + entry] = words(l.substr(colon + 1));
  }
  return out;
}

inline std::map<std::string, std::set<std::string>> computed_constructs(const cfg::FunctionCfg& f) {
  std::map<std::string, std::set<std::string>> out;
  const auto label = [&](BlockIndex b) { return std::to_string(f.function().blocks[b].label); };
  for (cfg::ConstructIndex c = 0; c < f.constructs().size(); ++c) {
    auto& set = out[std::string(to_string(f.constructs()[c].kind)) + " " + label(f.constructs()[c].entry)];
    for (BlockIndex b : f.blocks(c)) set.insert(label(b));
  }
  return out;
}

inline std::set<std::string> rule_ids(const cfg::FunctionCfg& f) {
  std::set<std::string> out;
  for (const auto& v : f.violations()) out.insert(v.rule);
  return out;
}

}  // namespace sluice::spirv_in::test
