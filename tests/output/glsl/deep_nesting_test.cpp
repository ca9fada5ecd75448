// Nesting depth costs heap, never native stack: 100,000 nested Ifs, long
// loop nests and long expression chains emit; moderate depths also compile.
#include <catch2/catch.hpp>

#include "glsl_test_util.h"
#include "output/glsl/document.h"
#include "output/glsl/function_emitter.h"
#include "shader_builder.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using testing::must;

namespace {

// if (x > 0) { if (x > 1) { ... color = vec4(x); ... } }
Module nested_ifs(int depth) {
  testing::ShaderBuilder s;
  s.m.reserve_registers(static_cast<std::size_t>(depth) * 3 + 8);
  s.begin_main();
  std::vector<BlockId> merges;
  for (int k = 0; k < depth; ++k) {
    IfBlocks w = must(s.b.branch_if(s.op(Opcode::GreaterThan, {s.load(s.x), s.f(static_cast<float>(k))}), false));
    merges.push_back(w.merge);
    s.b.set_block(w.true_block);
  }
  s.write_color(s.load(s.x));
  s.end(Opcode::Merge);
  for (int k = depth - 1; k >= 0; --k) {
    s.b.set_block(merges[k]);
    s.end(k == 0 ? Opcode::Return : Opcode::Merge);
  }
  return std::move(s.m);
}

// for (...) { for (...) { ... } } with a continue block that is an if.
Module nested_loops(int depth) {
  testing::ShaderBuilder s;
  s.begin_main();
  const VariableId acc = s.b.declare_local({"acc", NameSource::Temporary}, kFloat, Precision::None, kFloatZero);
  std::vector<BlockId> merges;
  for (int k = 0; k < depth; ++k) {
    LoopBlocks loop = must(s.b.branch_loop(false, true));
    s.b.set_block(loop.condition);
    s.end(Opcode::LoopIf, s.op(Opcode::LessThan, {s.load(acc), s.f(static_cast<float>(k + 1))}));
    s.b.set_block(loop.continue_block);
    IfBlocks w = must(s.b.branch_if(s.op(Opcode::GreaterThan, {s.load(acc), s.load(s.x)}), false));
    s.b.set_block(w.true_block);
    s.store(acc, s.op(Opcode::Add, {s.load(acc), kFloatOne}));
    s.end(Opcode::Merge);
    s.b.set_block(w.merge);
    s.store(acc, s.op(Opcode::Add, {s.load(acc), s.f(0.5f)}));
    s.end(Opcode::Continue);
    merges.push_back(loop.merge);
    s.b.set_block(loop.body);
  }
  s.add_to(acc, s.x);
  s.end(Opcode::Continue);
  for (int k = depth - 1; k >= 0; --k) {
    s.b.set_block(merges[k]);
    if (k == 0) {
      s.write_color(s.load(acc));
      s.end(Opcode::Return);
    } else {
      s.end(Opcode::Continue);
    }
  }
  return std::move(s.m);
}

}  // namespace

TEST_CASE("100,000 nested Ifs emit without recursion") {
  const Module m = nested_ifs(100'000);
  auto text = glsl_out::emit(m, {});
  REQUIRE(text.ok());
  std::size_t ifs = 0;
  for (std::size_t at = text->find("if ("); at != std::string::npos; at = text->find("if (", at + 1)) ++ifs;
  CHECK(ifs == 100'000);
  // Indentation stops growing at kMaxIndentLevels, so the text stays linear.
  CHECK(text->size() < 100'000 * 2 * (4 * glsl_out::kMaxIndentLevels + 40));
}

TEST_CASE("moderately nested Ifs and loops compile") {
  testing::emit_and_compile(nested_ifs(200));
  testing::emit_and_compile(nested_loops(50));
}

TEST_CASE("10,000 nested loops with continue blocks emit without recursion") {
  const Module m = nested_loops(10'000);
  auto text = glsl_out::emit(m, {});
  REQUIRE(text.ok());
  // Each loop is `while (acc < k)`; its continue block (an if) runs once, at the body's end.
  std::size_t loops = 0, latches = 0;
  for (std::size_t at = text->find("while ("); at != std::string::npos; at = text->find("while (", at + 1)) ++loops;
  for (std::size_t at = text->find("acc += 0.5;"); at != std::string::npos; at = text->find("acc += 0.5;", at + 1))
    ++latches;
  CHECK(loops == 10'000);
  CHECK(latches == 10'000);
}

TEST_CASE("a chain of 100,000 operations is split into temporaries") {
  testing::ShaderBuilder s;
  s.begin_main();
  RegisterId acc = s.load(s.x);
  for (int k = 0; k < 100'000; ++k) acc = s.op(k % 2 ? Opcode::Add : Opcode::Mul, {acc, s.f(1.0f + static_cast<float>(k % 7))});
  s.write_color(acc);
  s.end(Opcode::Return);
  auto text = glsl_out::emit(s.m, {});
  REQUIRE(text.ok());
  std::size_t temporaries = 0;
  for (std::size_t at = text->find("const float"); at != std::string::npos; at = text->find("const float", at + 1))
    ++temporaries;
  CHECK(temporaries >= 100'000 / (glsl_out::kMaxInlineDepth + 1));
}

TEST_CASE("types nested deeper than the limit are refused, not recursed into") {
  Module m(ShaderStage::Fragment);
  Builder b(m);
  TypeId t = kFloat;
  for (int k = 0; k < 100'000; ++k) t = m.array_type(t, 1);
  b.add_global({"deep", NameSource::Internal}, t, StorageClass::Private);
  b.begin_function({"main", NameSource::Internal}, kVoid);
  must(b.terminate(Opcode::Return));
  auto text = glsl_out::emit(m, {});
  REQUIRE(!text.ok());
  CHECK_THAT(text.error(), Catch::Contains("nests types more than"));  // the validator's limit
}
