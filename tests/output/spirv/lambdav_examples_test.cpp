// The λV report's hand translations (seed 000, §1.1 and §6.8), built as the
// λV front end lowers them (a rec-func is a Loop whose condition is
// `LoopIf true`, left by `Break value`, with its parameters in Function
// variables), compared with the report's output and run by the SPIR-V
// interpreter:
//   - yellow: one declaration per constant, the vector one OpConstantComposite;
//   - nat-fold: the loop header holds one OpPhi per loop-carried value and
//     the OpLoopMerge, and no OpVariable remains;
//   - Euclid's gcd: `(rec b (mod a b))` swaps its values, which the phis must
//     read in parallel.
#include <bit>

#include <catch2/catch.hpp>

#include "spirv_interpreter.h"
#include "spirv_test_util.h"
#include "validator/validator.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using testing::ok;

namespace {

struct LambdaShader {
  Module m{ShaderStage::Fragment};
  Builder b{m};
  VariableId out;

  explicit LambdaShader(TypeId out_type) {
    Decorations loc0;
    loc0.location = 0;
    out = b.add_global({"out", NameSource::Interface}, out_type, StorageClass::Output, Precision::None, loc0);
    b.begin_function({"main", NameSource::Internal}, kVoid);
  }
  void require_valid_ir() const {
    const auto problems = validator::validate(m);
    INFO(validator::describe(m, problems));
    REQUIRE(problems.empty());
  }
};

// ((rec-func (p0 p1) (if (eq p1 0) p0|p1 (rec (step0 p0 p1) (step1 p0 p1)))) init0 init1)
// with the values of type `t`: the shape both nat-fold and gcd have.
using Step = std::function<RegisterId(Builder&, RegisterId, RegisterId)>;
RegisterId rec_func(LambdaShader& s, TypeId t, ConstantId init0, ConstantId init1, ConstantId zero, bool result_is_p0,
                    const Step& step0, const Step& step1) {
  Builder& b = s.b;
  VariableId p0 = b.declare_local({"p0", NameSource::Temporary}, t);
  VariableId p1 = b.declare_local({"p1", NameSource::Temporary}, t);
  ok(b.store(p0, init0));
  ok(b.store(p1, init1));
  LoopBlocks loop = ok(b.branch_loop(false, false, t));
  b.set_block(loop.condition);
  ok(b.terminate(Opcode::LoopIf, kTrue));
  b.set_block(loop.body);
  RegisterId r0 = ok(b.load(p0)), r1 = ok(b.load(p1));
  IfBlocks branch = ok(b.branch_if(ok(b.emit(Opcode::Equal, {r1, zero}))));
  b.set_block(branch.true_block);
  ok(b.terminate(Opcode::Break, result_is_p0 ? r0 : r1));
  b.set_block(branch.false_block);
  // rec: every argument first, then the stores (a parallel assignment).
  RegisterId n0 = step0(b, r0, r1), n1 = step1(b, r0, r1);
  ok(b.store(p0, n0));
  ok(b.store(p1, n1));
  ok(b.terminate(Opcode::Continue));
  b.set_block(branch.merge);
  ok(b.terminate(Opcode::Unreachable));
  b.set_block(loop.merge);
  return b.merge_input(loop.merge);
}

float run_float(const std::vector<std::uint32_t>& words) {
  const auto run = testing::run_spirv(words, {});
  INFO(run.error);
  REQUIRE(run.ok);
  return std::bit_cast<float>(run.outputs.at("out").at(0));
}

}  // namespace

TEST_CASE("λV yellow: constants declared once, the vector one OpConstantComposite") {
  LambdaShader s(kVec4);
  const ConstantId one = kFloatOne, zero = kFloatZero;
  RegisterId v = ok(s.b.construct(Opcode::ConstructVectorFromMultiple, kVec4, {one, one, zero, one}));
  ok(s.b.store(s.out, v));
  ok(s.b.terminate(Opcode::Return));
  s.require_valid_ir();
  const auto e = testing::emit_checked(s.m);
  testing::check_golden("spirv/lambdav_yellow.spvasm", e.text);
  CHECK(testing::count_of(e.text, "OpConstant %float 1") == 1);
  CHECK(testing::count_of(e.text, "OpConstant %float 0") == 1);
  CHECK(testing::count_of(e.text, "OpConstantComposite %v4float %float_1 %float_1 %float_0 %float_1") == 1);
  CHECK(testing::count_of(e.text, "OpCompositeConstruct") == 0);
  CHECK(testing::count_of(e.text, "OpConstantTrue") == 0);  // the report declares true/false unused
  const auto run = testing::run_spirv(e.words, {});
  REQUIRE(run.ok);
  CHECK(run.outputs.at("out") == testing::Words{std::bit_cast<std::uint32_t>(1.0f), std::bit_cast<std::uint32_t>(1.0f),
                                                0u, std::bit_cast<std::uint32_t>(1.0f)});
}

TEST_CASE("λV nat-fold: a loop header with one phi per loop-carried value and no variables") {
  // (nat-fold 10 0 +): ((rec-func (n accum) (if (eq n 0) accum (rec (- n 1) (+ accum n)))) 10 0)
  LambdaShader s(kFloat);
  Builder& b = s.b;
  VariableId n = b.declare_local({"n", NameSource::Temporary}, kFloat);
  VariableId accum = b.declare_local({"accum", NameSource::Temporary}, kFloat);
  ok(b.store(n, s.m.float_constant(10.0f)));
  ok(b.store(accum, kFloatZero));
  LoopBlocks loop = ok(b.branch_loop(false, false, kFloat));
  b.set_block(loop.condition);
  ok(b.terminate(Opcode::LoopIf, kTrue));
  b.set_block(loop.body);
  RegisterId rn = ok(b.load(n)), ra = ok(b.load(accum));
  IfBlocks branch = ok(b.branch_if(ok(b.emit(Opcode::Equal, {rn, kFloatZero}))));
  b.set_block(branch.true_block);
  ok(b.terminate(Opcode::Break, ra));
  b.set_block(branch.false_block);
  RegisterId n1 = ok(b.emit(Opcode::Sub, {rn, kFloatOne}));
  RegisterId a1 = ok(b.emit(Opcode::Add, {ra, rn}));
  ok(b.store(n, n1));
  ok(b.store(accum, a1));
  ok(b.terminate(Opcode::Continue));
  b.set_block(branch.merge);
  ok(b.terminate(Opcode::Unreachable));
  b.set_block(loop.merge);
  ok(b.store(s.out, b.merge_input(loop.merge)));
  ok(b.terminate(Opcode::Return));
  s.require_valid_ir();

  const auto e = testing::emit_checked(s.m);
  testing::check_golden("spirv/lambdav_nat_fold.spvasm", e.text);
  CHECK(testing::count_of(e.text, "OpVariable %_ptr_Function") == 0);
  // The header: the phis for n and accum, then OpLoopMerge.
  const auto loop_merge = testing::lines_with(e.text, "OpLoopMerge");
  REQUIRE(loop_merge.size() == 1);
  std::vector<std::string> header;
  for (const auto& line : testing::lines_with(e.text, "")) header.push_back(line);
  std::size_t merge_at = 0;
  for (std::size_t k = 0; k < header.size(); ++k)
    if (header[k].find("OpLoopMerge") != std::string::npos) merge_at = k;
  REQUIRE(merge_at >= 3);
  CHECK(header[merge_at - 1].find("OpPhi %float") != std::string::npos);
  CHECK(header[merge_at - 2].find("OpPhi %float") != std::string::npos);
  CHECK(header[merge_at - 3].find("OpLabel") != std::string::npos);
  CHECK(run_float(e.words) == 55.0f);
}

TEST_CASE("λV Euclid's gcd: swapped loop-carried values are read in parallel") {
  for (bool ssa : {true, false}) {
    LambdaShader s(kFloat);
    // (rec-func (a b) (if (eq b 0) a (rec b (mod a b)))) 1071 462
    RegisterId result = rec_func(
        s, kFloat, s.m.float_constant(1071.0f), s.m.float_constant(462.0f), kFloatZero, true,
        [](Builder&, RegisterId, RegisterId b) { return b; },
        [](Builder& bb, RegisterId a, RegisterId b) { return ok(bb.emit(Opcode::Mod, {a, b})); });
    ok(s.b.store(s.out, result));
    ok(s.b.terminate(Opcode::Return));
    s.require_valid_ir();
    spirv::Options options;
    options.promote_to_ssa = ssa;
    const auto e = testing::emit_checked(s.m, options);
    if (ssa) testing::check_golden("spirv/lambdav_gcd.spvasm", e.text);
    CHECK(run_float(e.words) == 21.0f);
  }
}

TEST_CASE("integer gcd with the swap, on every target") {
  for (spirv::TargetEnv target : testing::all_targets()) {
    LambdaShader s(kInt);
    RegisterId result = rec_func(
        s, kInt, s.m.int_constant(1071), s.m.int_constant(462), kIntZero, true,
        [](Builder&, RegisterId, RegisterId b) { return b; },
        [](Builder& bb, RegisterId a, RegisterId b) { return ok(bb.emit(Opcode::IMod, {a, b})); });
    ok(s.b.store(s.out, result));
    ok(s.b.terminate(Opcode::Return));
    spirv::Options options;
    options.target = target;
    const auto e = testing::emit_checked(s.m, options);
    const auto run = testing::run_spirv(e.words, {});
    INFO(run.error);
    REQUIRE(run.ok);
    CHECK(run.outputs.at("out")[0] == 21u);
  }
}
