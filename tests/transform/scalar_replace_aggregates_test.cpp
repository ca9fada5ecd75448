// scalar-replace-aggregates on nested aggregates (an array of arrays, a
// struct holding an array of structs): each run splits one level, so -O1's
// fixpoint takes as many rounds as the nesting is deep. Run to the end here,
// validated after every run (a part that is register r0 once left a Store
// naming a dropped variable), every Function variable ends up a scalar or
// vector, and the interpreter gives the same output as before.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "golden_file.h"
#include "ir/typing.h"
#include "ir_interpreter.h"
#include "text_form_util.h"

using namespace sluice;
using namespace sluice::testing;

namespace {

// tests/transform/passes/scalar-replace-aggregates/nested.ir (README.md
// there gives its GLSL).
std::string nested_case() {
  const auto dir = std::filesystem::path(SLUICE_GOLDEN_DIR).parent_path() / "transform" / "passes";
  return read_file((dir / "scalar-replace-aggregates" / "nested.ir").string());
}

std::vector<std::string> outputs(const ir::Module& m) {
  std::vector<std::string> out;
  for (float x : {0.0f, 1.5f, -2.0f}) {
    const IrRun run = run_ir(m, {{"x", {float_word(x)}}});
    INFO(run.error);
    REQUIRE(run.ok);
    out.push_back(global_text(m, run, "o"));
  }
  return out;
}

}  // namespace

TEST_CASE("nested aggregates are split level by level down to scalars and vectors") {
  const ir::Module before = parse_text(nested_case());
  ir::Module m = parse_text(nested_case());
  // float[2][3] and S { L[2]; float } with L { vec4; float }: three levels.
  for (int level = 0; level < 3; ++level) CHECK(run_passes(m, "scalar-replace-aggregates"));
  CHECK_FALSE(run_passes(m, "scalar-replace-aggregates"));
  for (std::uint32_t v = 0; v < m.variable_count(); ++v) {
    const ir::Variable& var = m.variable(ir::VariableId(v));
    const ir::TypeId pointee = ir::pointee(m, var.type);
    INFO(var.name.text);
    CHECK((ir::is_scalar(m, pointee) || ir::is_vector(m, pointee)));
  }
  CHECK(outputs(m) == outputs(before));
}
