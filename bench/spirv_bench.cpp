// SPIR-V emission speed on synthetic IR built with the builder, from 10^3 to
// 10^6 IR instructions. The IR is a chain of identical units, each a few
// dozen instructions of arithmetic on promoted locals, an if/else with a
// merge value, a counted loop and a block load, so size grows linearly and
// the per-unit mix stays fixed. Reports IR instructions/s, SPIR-V words/s
// and SPIR-V words per IR instruction (docs/performance.md, "SPIR-V output").
// BM_EmitManyFunctions/N: N small functions, each with its own local and
// called once from main, so the module's variable count grows with its
// function count: per-function work sized by the module (rather than by
// the function) shows as time per function growing with N.
//
//   bench/spirv_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/builder.h"
#include "module_size.h"
#include "output/spirv/spirv_output.h"

namespace {

using sluice::bench::instruction_count;

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;

template <class T>
T must(Result<T> r) {
  if (!r) throw std::runtime_error(r.error());
  return std::move(*r);
}

// `float x` in and `float o` out, both at location 0.
struct FloatInterface {
  VariableId in, out;
};
FloatInterface float_interface(Builder& b) {
  Decorations loc0;
  loc0.location = 0;
  return {b.add_global({"x", NameSource::Interface}, kFloat, StorageClass::Input, Precision::None, loc0),
          b.add_global({"o", NameSource::Interface}, kFloat, StorageClass::Output, Precision::None, loc0)};
}

// A fragment shader of about `target` IR instructions.
Module synthetic(std::size_t target) {
  Module m(ShaderStage::Fragment);
  Builder b(m);
  Decorations loc0;
  loc0.location = 0;
  VariableId in = b.add_global({"in_value", NameSource::Interface}, kVec4, StorageClass::Input, Precision::None, loc0);
  VariableId out = b.add_global({"color", NameSource::Interface}, kVec4, StorageClass::Output, Precision::None, loc0);
  StructMember scale{"scale", kVec4, {}, {}, {}};
  StructMember bias{"bias", kFloat, {}, {}, {}};
  const TypeId block = m.intern(Type::make_struct("Params", {scale, bias}, true, BlockLayout::Std140));
  Decorations bind;
  bind.set = 0;
  bind.binding = 0;
  VariableId params = b.add_global({"params", NameSource::Interface}, block, StorageClass::Uniform, Precision::None, bind);
  b.begin_function({"main", NameSource::Internal}, kVoid);
  VariableId acc = b.declare_local({"acc", NameSource::Temporary}, kVec4, Precision::None,
                                   m.composite_constant(kVec4, std::vector<ConstantId>(4, kFloatZero)));
  VariableId s = b.declare_local({"s", NameSource::Temporary}, kFloat, Precision::None, kFloatZero);
  m.reserve_registers(target);
  const ConstantId three = m.int_constant(3), half = m.float_constant(0.5f);
  // The first unit is counted; the others are the same size.
  std::size_t emitted = 0, per_unit = 0;
  while (emitted < target) {
    const std::size_t before = per_unit == 0 ? instruction_count(m) : 0;
    // Straight-line arithmetic.
    RegisterId v = must(b.load(in));
    RegisterId sc = must(b.load(must(b.emit(Opcode::AccessStructField, {params, Operand::literal(0)}))));
    RegisterId x = must(b.emit(Opcode::Mul, {v, sc}));
    RegisterId a = must(b.load(acc));
    RegisterId y = must(b.emit(Opcode::Add, {a, x}));
    RegisterId f = must(b.emit(Opcode::Dot, {y, v}));
    RegisterId g = must(b.emit(Opcode::Sqrt, {must(b.emit(Opcode::Abs, {f}))}));
    // if (g > s) s = g * 0.5 else s = s + g  — a merge value.
    IfBlocks branch = must(b.branch_if(must(b.emit(Opcode::GreaterThan, {g, must(b.load(s))})), true, kFloat));
    b.set_block(branch.true_block);
    must(b.terminate(Opcode::Merge, must(b.emit(Opcode::Mul, {g, half}))));
    b.set_block(branch.false_block);
    must(b.terminate(Opcode::Merge, must(b.emit(Opcode::Add, {must(b.load(s)), g}))));
    b.set_block(branch.merge);
    must(b.store(s, b.merge_input(branch.merge)));
    // for (int i = 0; i < 3; ++i) acc = acc * 0.5 + v
    VariableId i = b.declare_local({"i", NameSource::Temporary}, kInt, Precision::None, kIntZero);
    LoopBlocks loop = must(b.branch_loop(false, true));
    b.set_block(loop.condition);
    must(b.terminate(Opcode::LoopIf, must(b.emit(Opcode::LessThan, {must(b.load(i)), three}))));
    b.set_block(loop.body);
    RegisterId scaled = must(b.emit(Opcode::VectorTimesScalar, {must(b.load(acc)), half}));
    must(b.store(acc, must(b.emit(Opcode::Add, {scaled, v}))));
    must(b.terminate(Opcode::Continue));
    b.set_block(loop.continue_block);
    must(b.emit(Opcode::PrefixIncrement, {i}));
    must(b.terminate(Opcode::Continue));
    b.set_block(loop.merge);
    if (per_unit == 0) per_unit = instruction_count(m) - before;
    emitted += per_unit;
  }
  RegisterId bias_value = must(b.load(must(b.emit(Opcode::AccessStructField, {params, Operand::literal(1)}))));
  RegisterId total = must(b.emit(Opcode::Add, {must(b.load(s)), bias_value}));
  must(b.store(out, must(b.emit(Opcode::VectorTimesScalar, {must(b.load(acc)), total}))));
  must(b.terminate(Opcode::Return));
  return m;
}

void emit_benchmark(benchmark::State& state, bool promote) {
  const Module m = synthetic(static_cast<std::size_t>(state.range(0)));
  const std::size_t instructions = instruction_count(m);
  spirv::Options options;
  options.promote_to_ssa = promote;
  std::size_t words = 0;
  for (auto _ : state) {
    auto result = spirv::emit(m, options);
    if (!result) {
      state.SkipWithError(result.error().c_str());
      return;
    }
    words = result->size();
    benchmark::DoNotOptimize(result->data());
  }
  state.counters["ir_insts"] = static_cast<double>(instructions);
  state.counters["words"] = static_cast<double>(words);
  state.counters["words_per_inst"] = static_cast<double>(words) / static_cast<double>(instructions);
  state.counters["insts/s"] = benchmark::Counter(static_cast<double>(instructions), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["words/s"] = benchmark::Counter(static_cast<double>(words), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_EmitSsa(benchmark::State& state) { emit_benchmark(state, true); }
void BM_EmitO0(benchmark::State& state) { emit_benchmark(state, false); }

// One million nested Ifs would be the worst case for block structure; 10^5
// is what the tests ask to survive.
void BM_EmitNestedIfs(benchmark::State& state) {
  Module m(ShaderStage::Fragment);
  Builder b(m);
  const auto [in, out] = float_interface(b);
  b.begin_function({"main", NameSource::Internal}, kVoid);
  std::vector<BlockId> merges;
  for (std::int64_t d = 0; d < state.range(0); ++d) {
    IfBlocks branch = must(b.branch_if(must(b.emit(Opcode::GreaterThan, {must(b.load(in)), kFloatZero})), false));
    merges.push_back(branch.merge);
    b.set_block(branch.true_block);
  }
  must(b.store(out, kFloatOne));
  must(b.terminate(Opcode::Merge));
  for (std::size_t k = merges.size(); k-- > 0;) {
    b.set_block(merges[k]);
    must(b.terminate(k == 0 ? Opcode::Return : Opcode::Merge));
  }
  const std::size_t instructions = instruction_count(m);
  std::size_t words = 0;
  for (auto _ : state) {
    auto result = spirv::emit(m);
    words = result->size();
    benchmark::DoNotOptimize(result->data());
  }
  state.counters["ir_insts"] = static_cast<double>(instructions);
  state.counters["words/s"] = benchmark::Counter(static_cast<double>(words), benchmark::Counter::kIsIterationInvariantRate);
}

// N functions `float fK(float x) { float t = x * K; return t + 1; }`,
// main summing their values into its output.
Module many_functions(std::size_t n) {
  Module m(ShaderStage::Fragment);
  Builder b(m);
  const auto [in, out] = float_interface(b);
  std::vector<FunctionId> functions;
  for (std::size_t k = 0; k < n; ++k) {
    const FunctionId f = b.begin_function({"f" + std::to_string(k), NameSource::Internal}, kFloat);
    const VariableId x = b.add_parameter(f, {"x", NameSource::Internal}, kFloat, ParamDirection::In);
    const VariableId t = b.declare_local({"t", NameSource::Temporary}, kFloat);
    must(b.store(t, must(b.emit(Opcode::Mul, {must(b.load(x)), m.float_constant(static_cast<float>(k))}))));
    must(b.terminate(Opcode::Return, must(b.emit(Opcode::Add, {must(b.load(t)), kFloatOne}))));
    functions.push_back(f);
  }
  b.begin_function({"main", NameSource::Internal}, kVoid);
  const RegisterId x = must(b.load(in));
  RegisterId sum = x;
  for (FunctionId f : functions) sum = must(b.emit(Opcode::Add, {sum, must(b.emit(Opcode::Call, {f, x}))}));
  must(b.store(out, sum));
  must(b.terminate(Opcode::Return));
  return m;
}

void BM_EmitManyFunctions(benchmark::State& state) {
  const Module m = many_functions(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    auto result = spirv::emit(m);
    if (!result) {
      state.SkipWithError(result.error().c_str());
      return;
    }
    benchmark::DoNotOptimize(result->data());
  }
  state.counters["us_per_function"] = benchmark::Counter(
      static_cast<double>(state.range(0)) * 1e-6,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(BM_EmitSsa)->RangeMultiplier(10)->Range(1000, 1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EmitO0)->RangeMultiplier(10)->Range(1000, 1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EmitNestedIfs)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EmitManyFunctions)->Arg(1000)->Arg(10000)->Arg(30000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
