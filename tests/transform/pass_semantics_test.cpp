// Differential tests: random structured programs (Ifs with and without
// merge inputs, loops with break and continue, do-while(false), calls with
// in/out/inout parameters, constant conditions, duplicated expressions) are
// run by the reference interpreter before and after every pass and
// pipeline; the output must not change. Every result is also validated.
#include <random>

#include <catch2/catch.hpp>

#include "ir_interpreter.h"
#include "transform/pass_manager.h"
#include "transform_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using sluice::testing::must;

namespace {

class Generator {
 public:
  explicit Generator(std::uint32_t seed) : rng_(seed) {}

  Module build() {
    Decorations loc0;
    loc0.location = 0;
    color_ = b_.add_global({"color", NameSource::Interface}, predefined::kFloat, StorageClass::Output, Precision::High, loc0);
    input_ = b_.add_global({"x", NameSource::Interface}, predefined::kFloat, StorageClass::Input, Precision::High, loc0);
    for (int i = 0; i < 2; ++i) helpers_.push_back(helper());
    b_.begin_function({"main", NameSource::Internal}, predefined::kVoid);
    for (int i = 0; i < 3; ++i)
      locals_.push_back(b_.declare_local({"l", NameSource::Temporary}, predefined::kFloat, Precision::High,
                                         m_.float_constant(static_cast<float>(i))));
    for (int i = 0; i < 3; ++i)
      counters_.push_back(b_.declare_local({"i", NameSource::Temporary}, predefined::kInt, Precision::High));
    statements(3);
    RegisterId sum = must(b_.load(locals_[0]));
    for (std::size_t i = 1; i < locals_.size(); ++i) sum = must(b_.emit(Opcode::Add, {sum, must(b_.load(locals_[i]))}));
    must(b_.store(color_, sum));
    must(b_.terminate(Opcode::Return));
    return std::move(m_);
  }

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  // float h(in float a, out float o, inout float io): a few statements on
  // its parameters, an early return under a condition, a final return.
  FunctionId helper() {
    const FunctionId f = b_.begin_function({"h", NameSource::Internal}, predefined::kFloat, Precision::High);
    const VariableId a = b_.add_parameter(f, {"a", NameSource::Internal}, predefined::kFloat, ParamDirection::In, Precision::High);
    const VariableId o = b_.add_parameter(f, {"o", NameSource::Internal}, predefined::kFloat, ParamDirection::Out, Precision::High);
    const VariableId io = b_.add_parameter(f, {"io", NameSource::Internal}, predefined::kFloat, ParamDirection::InOut, Precision::High);
    locals_ = {a, io};
    must(b_.store(o, expression(2)));
    locals_ = {a, o, io};
    statements(1, /*allow_calls=*/false);
    if (pick(2)) {
      auto blocks = must(b_.branch_if(condition(), false));
      b_.set_block(blocks.true_block);
      must(b_.terminate(Opcode::Return, expression(1)));
      b_.set_block(blocks.merge);
    }
    must(b_.terminate(Opcode::Return, expression(2)));
    locals_.clear();
    return f;
  }

  Operand leaf() {
    switch (pick(4)) {
      case 0: return m_.float_constant(static_cast<float>(pick(5)) * 0.5f - 1.0f);
      case 1: return must(b_.load(input_));
      default: return must(b_.load(locals_[pick(static_cast<int>(locals_.size()))]));
    }
  }

  // Values stay small: Add/Sub of two, Mul by halves, Min/Max, Sin.
  Operand expression(int depth) {
    if (depth == 0 || pick(3) == 0) return leaf();
    switch (pick(6)) {
      case 0: return must(b_.emit(Opcode::Add, {expression(depth - 1), expression(depth - 1)}));
      case 1: return must(b_.emit(Opcode::Sub, {expression(depth - 1), expression(depth - 1)}));
      case 2: return must(b_.emit(Opcode::Mul, {expression(depth - 1), m_.float_constant(0.5f)}));
      case 3: return must(b_.emit(Opcode::Min, {expression(depth - 1), m_.float_constant(4.0f)}));
      case 4: return must(b_.emit(Opcode::Sin, {expression(depth - 1)}));
      default: {
        // The same expression twice (as λV's inlining leaves it).
        const Operand a = leaf();
        auto first = must(b_.emit(Opcode::Add, {a, m_.float_constant(1.0f)}));
        auto second = must(b_.emit(Opcode::Add, {a, m_.float_constant(1.0f)}));
        return must(b_.emit(Opcode::Mul, {first, second}));
      }
    }
  }

  Operand condition() {
    switch (pick(4)) {
      case 0: return m_.bool_constant(pick(2) == 0);
      default: return must(b_.emit(Opcode::LessThan, {expression(1), expression(1)}));
    }
  }

  void assign() { must(b_.store(locals_[pick(static_cast<int>(locals_.size()))], expression(2))); }

  void statements(int depth, bool allow_calls = true) {
    const int n = 1 + pick(3);
    for (int i = 0; i < n; ++i) statement(depth, allow_calls);
  }

  void statement(int depth, bool allow_calls) {
    const int kinds = depth > 0 ? 7 : 1;
    switch (pick(kinds)) {
      case 0: assign(); return;
      case 1: {  // if / else
        const bool with_else = pick(2);
        auto blocks = must(b_.branch_if(condition(), with_else));
        b_.set_block(blocks.true_block);
        statements(depth - 1, allow_calls);
        must(b_.terminate(Opcode::Merge));
        if (with_else) {
          b_.set_block(blocks.false_block);
          statements(depth - 1, allow_calls);
          must(b_.terminate(Opcode::Merge));
        }
        b_.set_block(blocks.merge);
        return;
      }
      case 2: {  // local = c ? e1 : e2, through a merge input
        auto blocks = must(b_.branch_if(condition(), true, predefined::kFloat, Precision::High));
        b_.set_block(blocks.true_block);
        if (pick(3) == 0) statements(depth - 1, allow_calls);
        must(b_.terminate(Opcode::Merge, expression(1)));
        b_.set_block(blocks.false_block);
        must(b_.terminate(Opcode::Merge, expression(1)));
        b_.set_block(blocks.merge);
        must(b_.store(locals_[pick(static_cast<int>(locals_.size()))], b_.merge_input(blocks.merge)));
        return;
      }
      case 3: {  // for (i = 0; i < k; ++i) { ...; if (c) break/continue; ... }
        if (counters_.empty()) return assign();
        const VariableId i = counters_.back();
        counters_.pop_back();
        must(b_.store(i, m_.int_constant(0)));
        auto loop = must(b_.branch_loop(false, true));
        b_.set_block(loop.condition);
        must(b_.terminate(Opcode::LoopIf, must(b_.emit(Opcode::LessThan, {must(b_.load(i)), m_.int_constant(pick(4))}))));
        b_.set_block(loop.continue_block);
        must(b_.emit(Opcode::PrefixIncrement, {i}));
        must(b_.terminate(Opcode::Continue));
        b_.set_block(loop.body);
        statements(depth - 1, allow_calls);
        if (pick(2)) {
          auto jump = must(b_.branch_if(condition(), false));
          b_.set_block(jump.true_block);
          must(b_.terminate(pick(2) ? Opcode::Break : Opcode::Continue));
          b_.set_block(jump.merge);
          statements(depth - 1, allow_calls);
        }
        must(b_.terminate(Opcode::Continue));
        b_.set_block(loop.merge);
        counters_.push_back(i);
        return;
      }
      case 4: {  // do { ... if (c) break; ... } while (false)
        auto loop = must(b_.branch_loop(true));
        b_.set_block(loop.condition);
        must(b_.terminate(Opcode::LoopIf, predefined::kFalse));
        b_.set_block(loop.body);
        statements(depth - 1, allow_calls);
        if (pick(2)) {
          auto jump = must(b_.branch_if(condition(), false));
          b_.set_block(jump.true_block);
          must(b_.terminate(Opcode::Break));
          b_.set_block(jump.merge);
          statements(depth - 1, allow_calls);
        }
        must(b_.terminate(Opcode::Continue));
        b_.set_block(loop.merge);
        return;
      }
      case 5: {  // local0 = h(e, local1, local2)
        if (!allow_calls || helpers_.empty() || locals_.size() < 3) return assign();
        const FunctionId h = helpers_[pick(static_cast<int>(helpers_.size()))];
        auto r = must(b_.emit(Opcode::Call, {h, expression(1), locals_[1], locals_[2]}));
        must(b_.store(locals_[0], r));
        return;
      }
      default: {  // the same pure work twice in a row
        const Operand e = expression(1);
        must(b_.store(locals_[pick(static_cast<int>(locals_.size()))], must(b_.emit(Opcode::Mul, {e, e}))));
        must(b_.store(locals_[pick(static_cast<int>(locals_.size()))], must(b_.emit(Opcode::Mul, {e, e}))));
        return;
      }
    }
  }

  std::mt19937 rng_;
  Module m_{ShaderStage::Fragment};
  Builder b_{m_};
  VariableId color_, input_;
  std::vector<VariableId> locals_;
  std::vector<VariableId> counters_;
  std::vector<FunctionId> helpers_;
};

std::optional<std::string> output_of(const Module& original, float x) {
  const testing::IrRun run = testing::run_ir(original, {{"x", {testing::float_word(x)}}}, 2'000'000);
  if (!run.ok) return std::nullopt;
  return testing::global_text(original, run, "color");
}

}  // namespace

TEST_CASE("every pass and pipeline keeps what random programs compute") {
  const char* pipelines[] = {
      "fold-constants",
      "simplify-control-flow",
      "eliminate-common-subexpressions",
      "eliminate-unreachable-code",
      "eliminate-dead-registers",
      "remove-unused-variables",
      "remove-unused-functions",
      "remove-unused-interface",
      "eliminate-dead-code",
      "inline-functions",
      "dealias",
      "loop-top-exit-test",  // a driver workaround; also after -O1's passes, where workarounds run
      "inline-functions,dealias,fold-constants,simplify-control-flow,eliminate-common-subexpressions,eliminate-dead-code,"
      "loop-top-exit-test",
      "inline-functions,dealias,fold-constants,simplify-control-flow,eliminate-common-subexpressions,eliminate-dead-code"};
  const float inputs[] = {-1.5f, 0.25f, 2.0f};
  transform::PassManager pm;
  transform::RunOptions options;
  options.validate = testing::validation_problems;
  int compared = 0;
  for (std::uint32_t seed = 1; seed <= 300; ++seed) {
    const Module original = Generator(seed).build();
    INFO("seed " << seed);
    testing::require_valid(original);
    std::vector<std::optional<std::string>> expected;
    for (float x : inputs) expected.push_back(output_of(original, x));
    auto run_and_compare = [&](const std::string& name, Module m) {
      for (std::size_t k = 0; k < std::size(inputs); ++k) {
        if (!expected[k]) continue;  // the original does something the interpreter does not model
        INFO("after " << name << ", x = " << inputs[k] << "\n" << dump(m));
        const auto got = output_of(m, inputs[k]);
        REQUIRE(got.has_value());
        CHECK(*got == *expected[k]);
        ++compared;
      }
    };
    for (const char* p : pipelines) {
      Module m = original;
      auto runs = pm.run(m, *pm.parse_pass_list(p), options);
      INFO(p << ": " << (runs.ok() ? std::string() : runs.error()));
      REQUIRE(runs.ok());
      run_and_compare(p, std::move(m));
    }
    Module o1 = original;
    REQUIRE(pm.run(o1, *pm.pipeline("O1"), options).ok());
    run_and_compare("O1", std::move(o1));
  }
  // Most programs must be comparable, or the test shows nothing.
  CHECK(compared > 300 * 12 * 2);
}
