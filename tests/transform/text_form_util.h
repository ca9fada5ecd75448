// Before/after tests in the IR text form (docs/ir.md): a module is the
// predefined types and constants of an empty one plus the sections a test
// writes; a pass runs (validated before and after) on the parsed "before"
// and its dump must equal the dump of the parsed "after" (parsing and
// dumping both, so only the IR is compared, not the spacing). Or: a whole
// module's text through one pass, compared with a golden dump.
#pragma once

#include <string>

#include <catch2/catch.hpp>

#include "golden_file.h"
#include "ir/dump.h"
#include "ir/parse.h"
#include "transform_test_util.h"

namespace sluice::testing {

struct TextModule {
  std::string types;      // "  t26: ...\n" lines after the predefined ones
  std::string constants;  // "  c8 (t1): ...\n" lines
  std::string variables;  // "  v0 (t26): ...\n" lines
  std::string globals;    // " v0, v1"
  std::string functions;  // everything after "Functions:\n"
};

inline std::string module_text(const TextModule& t) {
  std::string text = ir::dump(ir::Module(ir::ShaderStage::Fragment));
  auto insert_before = [&](const std::string& marker, const std::string& lines) {
    text.insert(text.find(marker), lines);
  };
  insert_before("\nConstants:", t.types);
  insert_before("\nVariables:", t.constants);
  insert_before("\nGlobals:", t.variables);
  text.replace(text.find("Globals:"), 8, "Globals:" + t.globals);
  return text + t.functions;
}

inline ir::Module parse_text(const std::string& text) {
  ir::ParseResult parsed = ir::parse_module(text, "test.ir");
  INFO(text);
  REQUIRE(parsed.ok());
  return std::move(*parsed.module);
}

// Runs `passes` on `before` and checks the result is `after`; returns
// whether the passes reported a change.
inline bool check_before_after(const std::string& passes, const TextModule& before, const TextModule& after) {
  ir::Module m = parse_text(module_text(before));
  require_valid(m);
  const bool changed = run_passes(m, passes);
  const ir::Module expected = parse_text(module_text(after));
  const std::string got = ir::dump(m), want = ir::dump(expected);
  INFO("got:\n" << got << "\nwanted:\n" << want);
  CHECK(got == want);
  return changed;
}

// One pass on a whole module's IR text, its dump compared with the golden
// file `golden_name` (tests/golden; SLUICE_UPDATE_GOLDEN=1 rewrites it), as
// SPIRV-Tools' SinglePassRunAndMatch and Tint's EXPECT_EQ on disassembly
// do. The module is validated before and after. Returns whether the pass
// reported a change.
inline bool check_pass_on_text(const std::string& pass, const std::string& text, const std::string& golden_name) {
  ir::Module m = parse_text(text);
  require_valid(m);
  const bool changed = run_passes(m, pass);
  check_golden(golden_name, ir::dump(m));
  return changed;
}

}  // namespace sluice::testing
