// The pass manager: names, pipelines, --print-after-all, and validation
// after each pass naming the pass that broke the IR.
#include <catch2/catch.hpp>

#include "golden_file.h"
#include "transform/pass_manager.h"
#include "transform_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::transform;
using sluice::testing::must;

TEST_CASE("pipelines and pass lists resolve to registered passes") {
  PassManager pm;
  for (const char* level : {"O0", "-O0", "O1", "-O1"}) {
    auto p = pm.pipeline(level);
    REQUIRE(p.ok());
    for (const Stage& stage : p->stages)
      for (const std::string& name : stage.passes) CHECK(pm.find(name) != nullptr);
  }
  CHECK_FALSE(pm.pipeline("O3").ok());
  auto list = pm.parse_pass_list("fold,cse,,dce");
  REQUIRE(list.ok());
  CHECK(list->stages.size() == 3);
  // The names docs/ir.md gave before each pass had one name resolve to it.
  CHECK(list->stages.at(0).passes.at(0) == "fold-constants");
  CHECK(list->stages.at(1).passes.at(0) == "eliminate-common-subexpressions");
  CHECK(list->stages.at(2).passes.at(0) == "eliminate-dead-code");
  CHECK(pm.find("simplify-cfg") == pm.find("simplify-control-flow"));
  CHECK(pm.find("inline") == pm.find("inline-functions"));
  auto bad = pm.parse_pass_list("fold-constants,nonsense");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().find("nonsense") != std::string::npos);
}

TEST_CASE("print-after-all prints once per pass run, with the pass's name") {
  PassManager pm;
  Module m = testing::build_angle_example();
  RunOptions options;
  options.print_after_all = true;
  std::vector<std::string> printed;
  options.print = [&](std::string_view pass, const Module& mod) { printed.push_back(describe_after_pass(pass, mod)); };
  auto runs = pm.run(m, *pm.parse_pass_list("fold-constants,eliminate-dead-code"), options);
  REQUIRE(runs.ok());
  REQUIRE(printed.size() == runs->size());
  CHECK(printed[0].rfind("; IR after fold-constants\n", 0) == 0);
  CHECK(printed[1].rfind("; IR after eliminate-dead-code\n", 0) == 0);
  CHECK(printed[1].substr(printed[1].find('\n') + 1) == dump(m));
}

TEST_CASE("validate-each-pass names the pass that broke the IR") {
  PassManager pm;
  pm.add({"break-it", "drops every terminator (a deliberately broken pass)", [](Module& m) -> PassResult {
            for (std::uint32_t i = 0; i < m.function_count(); ++i)
              for (Block& b : m.function(FunctionId(i)).blocks)
                if (!b.instructions.empty() && b.instructions.back().opcode == Opcode::Return) b.instructions.pop_back();
            return true;
          }});
  Module m = testing::build_angle_example();
  RunOptions options;
  options.validate = testing::validation_problems;
  auto runs = pm.run(m, *pm.parse_pass_list("fold-constants,break-it,eliminate-dead-code"), options);
  REQUIRE_FALSE(runs.ok());
  INFO(runs.error());
  CHECK(runs.error().rfind("pass 'break-it' broke the IR:", 0) == 0);

  Module bad = testing::build_angle_example();
  bad.function(FunctionId(0)).blocks[0].instructions.clear();
  auto before = pm.run(bad, *pm.pipeline("O0"), options);
  REQUIRE_FALSE(before.ok());
  CHECK(before.error().rfind("the input IR is invalid", 0) == 0);
}

TEST_CASE("O1 on the ANGLE example (golden), and -O1 reaches a fixed point") {
  PassManager pm;
  Module m = testing::build_angle_example();
  RunOptions options;
  options.validate = testing::validation_problems;
  auto runs = pm.run(m, *pm.pipeline("O1"), options);
  REQUIRE(runs.ok());
  testing::check_golden("transform_angle_example_O1.ir", dump(m));
  const std::string once = dump(m);
  auto again = pm.run(m, *pm.pipeline("O1"), options);
  REQUIRE(again.ok());
  for (const PassRun& r : *again) CHECK_FALSE(r.changed);
  CHECK(dump(m) == once);
}

TEST_CASE("O1 on a shader with something for every pass (golden)") {
  // x = v.x; if (2 * 3 > 5) r = x + x else r = 1; unused = sin(x);
  // scratch = x (never read); do { color = vec4(r + (x + x)) } while (false)
  testing::ShaderUnderTest s;
  auto x = s.input_x();
  auto six = must(s.b.emit(Opcode::Mul, {s.m.float_constant(2), s.m.float_constant(3)}));
  auto c = must(s.b.emit(Opcode::GreaterThan, {six, s.m.float_constant(5)}));
  auto blocks = must(s.b.branch_if(c, true, predefined::kFloat, Precision::High));
  s.b.set_block(blocks.true_block);
  must(s.b.terminate(Opcode::Merge, must(s.b.emit(Opcode::Add, {x, x}))));
  s.b.set_block(blocks.false_block);
  must(s.b.terminate(Opcode::Merge, predefined::kFloatOne));
  s.b.set_block(blocks.merge);
  must(s.b.emit(Opcode::Sin, {x}));
  const VariableId scratch = s.b.declare_local({"scratch", NameSource::Temporary}, predefined::kFloat);
  must(s.b.store(scratch, x));
  auto loop = must(s.b.branch_loop(true));
  s.b.set_block(loop.body);
  auto again = must(s.b.emit(Opcode::Add, {x, x}));
  auto sum = must(s.b.emit(Opcode::Add, {s.b.merge_input(blocks.merge), again}));
  must(s.b.store(s.color, must(s.b.construct(Opcode::ConstructVectorFromScalar, predefined::kVec4, {sum}))));
  must(s.b.terminate(Opcode::Continue));
  s.b.set_block(loop.condition);
  must(s.b.terminate(Opcode::LoopIf, predefined::kFalse));
  s.b.set_block(loop.merge);
  must(s.b.terminate(Opcode::Return));

  PassManager pm;
  RunOptions options;
  options.validate = testing::validation_problems;
  std::string trace;
  options.print_after_all = true;
  options.print = [&](std::string_view pass, const Module& m) { trace += describe_after_pass(pass, m); };
  REQUIRE(pm.run(s.m, *pm.pipeline("O1"), options).ok());
  CHECK(testing::count_all_instructions(s.m) == 7);  // access, load, add, add, splat, store, return
  testing::check_golden("transform_O1_example.ir", dump(s.m));
  CHECK(trace.find("; IR after simplify-control-flow\n") != std::string::npos);
}
