// Throughput of the IR core on one large synthetic function: building it
// through the Builder, validating it and dumping it, at N = 250k .. 2M
// instructions. Each benchmark reports items_per_second (instructions per
// second); BM_Build also reports the module's memory per instruction, two
// ways: `heap_B_per_instr` is the growth of the heap in use (mallinfo2:
// arena bytes in use plus mmapped blocks) across one build, and
// `tables_B_per_instr` adds up the capacities of the module's tables, split
// into instr_vec_B, block_B and reg_B (see TableBytes).
//
// The function is a realistic mix: straight-line loads, arithmetic and
// stores into locals, If/else with and without merge inputs, and loops with
// a condition, a continue block and an If nested in the body.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <optional>
#include <string>

#include "ir/builder.h"
#include "module_size.h"
#include "ir/dump.h"
#include "validator/validator.h"

namespace {

using sluice::bench::instruction_count;

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;

// Builds main() until it holds at least `target` instructions.
class SyntheticShader {
 public:
  explicit SyntheticShader(std::size_t target) : b_(m_), target_(target) {}

  // The module; error() says whether the builder refused anything.
  Module build() {
    uv_ = b_.add_global({"uv", NameSource::Interface}, kVec4, StorageClass::Input, Precision::High);
    tint_ = b_.add_global({"tint", NameSource::Interface}, kVec4, StorageClass::Uniform, Precision::Medium);
    scale_ = b_.add_global({"scale", NameSource::Interface}, kFloat, StorageClass::Uniform, Precision::High);
    out_ = b_.add_global({"color", NameSource::Interface}, kVec4, StorageClass::Output, Precision::Medium);
    half_ = m_.float_constant(0.5f);
    ten_ = m_.int_constant(10);
    b_.begin_function({"main", NameSource::Internal}, kVoid);
    acc_ = b_.declare_local({"acc", NameSource::Temporary}, kVec4, Precision::Medium);
    counter_ = b_.declare_local({"i", NameSource::Temporary}, kInt, Precision::High, kIntZero);
    for (std::size_t chunk = 0; count_ < target_; ++chunk) {
      switch (chunk % 8) {
        case 2: if_else(false); break;
        case 5: if_else(true); break;
        case 7: loop(); break;
        default: straight_line(); break;
      }
    }
    must(b_.store(out_, must(b_.load(acc_))));
    must(b_.terminate(Opcode::Return));
    count_ += 3;
    return std::move(m_);
  }

  const std::string& error() const { return error_; }

 private:
  template <class T>
  T must(Result<T> r) {
    if (r) return *r;
    if (error_.empty()) error_ = r.error();
    return T{};
  }

  // acc = acc + uv * scale * 0.5 + tint: 9 instructions.
  void straight_line() {
    RegisterId uv = must(b_.load(uv_));
    RegisterId scale = must(b_.load(scale_));
    RegisterId s = must(b_.emit(Opcode::Mul, {scale, half_}));
    RegisterId scaled = must(b_.emit(Opcode::VectorTimesScalar, {uv, s}));
    RegisterId tint = must(b_.load(tint_));
    RegisterId sum = must(b_.emit(Opcode::Add, {scaled, tint}));
    RegisterId acc = must(b_.load(acc_));
    RegisterId next = must(b_.emit(Opcode::Add, {acc, sum}));
    must(b_.store(acc_, next));
    count_ += 9;
  }

  RegisterId condition() {
    RegisterId scale = must(b_.load(scale_));
    count_ += 2;
    return must(b_.emit(Opcode::LessThan, {scale, kFloatOne}));
  }

  // if (scale < 1) { acc = acc * tint } else { acc = acc + uv } (or, with a
  // merge input, acc = scale < 1 ? tint : uv).
  void if_else(bool with_input) {
    RegisterId c = condition();
    IfBlocks i = must(b_.branch_if(c, true, with_input ? kVec4 : TypeId{}, Precision::Medium));
    count_ += 1;
    const VariableId sources[] = {tint_, uv_};
    const BlockId branches[] = {i.true_block, i.false_block};
    for (int k = 0; k < 2; ++k) {
      b_.set_block(branches[k]);
      RegisterId v = must(b_.load(sources[k]));
      if (with_input) {
        must(b_.terminate(Opcode::Merge, v));
        count_ += 2;
        continue;
      }
      RegisterId acc = must(b_.load(acc_));
      RegisterId r = must(b_.emit(k == 0 ? Opcode::Mul : Opcode::Add, {acc, v}));
      must(b_.store(acc_, r));
      must(b_.terminate(Opcode::Merge));
      count_ += 5;
    }
    b_.set_block(i.merge);
    if (with_input) {
      must(b_.store(acc_, b_.merge_input(i.merge)));
      count_ += 1;
    }
  }

  // for (; i < 10; ++i) { straight line; if/else }
  void loop() {
    LoopBlocks l = must(b_.branch_loop(false, true));
    count_ += 1;
    b_.set_block(l.condition);
    RegisterId i = must(b_.load(counter_));
    RegisterId c = must(b_.emit(Opcode::LessThan, {i, ten_}));
    must(b_.terminate(Opcode::LoopIf, c));
    b_.set_block(l.continue_block);
    must(b_.emit(Opcode::PrefixIncrement, {counter_}));
    must(b_.terminate(Opcode::Continue));
    count_ += 5;
    b_.set_block(l.body);
    straight_line();
    if_else(false);
    must(b_.terminate(Opcode::Continue));
    count_ += 1;
    b_.set_block(l.merge);
  }

  Module m_{ShaderStage::Fragment};
  Builder b_;
  std::size_t target_;
  std::size_t count_ = 0;
  std::string error_;
  VariableId uv_, tint_, scale_, out_, acc_, counter_;
  ConstantId half_, ten_;
};

// Bytes the per-instruction tables hold, from their capacities: the block
// instruction vectors (with operand lists that spilled to the heap), the
// Block structs (the function's block table), and the register table
// (counted at its size: Module does not expose its capacity).
struct TableBytes {
  std::size_t instructions = 0, blocks = 0, registers = 0;
  std::size_t total() const { return instructions + blocks + registers; }
};

TableBytes table_bytes(const Module& m) {
  TableBytes t;
  t.registers = m.register_count() * sizeof(RegisterInfo);
  for (std::uint32_t f = 0; f < m.function_count(); ++f) {
    const Function& fn = m.function(FunctionId(f));
    t.blocks += fn.blocks.capacity() * sizeof(Block);
    for (const Block& b : fn.blocks) {
      t.instructions += b.instructions.capacity() * sizeof(Instruction);
      t.blocks += b.declarations.capacity() * sizeof(VariableId);
      for (const Instruction& inst : b.instructions)
        if (inst.operands.capacity() > OperandList::kInlineCapacity)
          t.instructions += inst.operands.capacity() * sizeof(Operand);
    }
  }
  return t;
}

std::size_t heap_in_use() {
  const struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

void BM_Build(benchmark::State& state) {
  const auto target = static_cast<std::size_t>(state.range(0));
  std::size_t instructions = 0;
  double heap_per_instr = 0;
  TableBytes tables;
  for (auto _ : state) {
    const std::size_t before = heap_in_use();
    SyntheticShader shader(target);
    Module m = shader.build();
    const std::size_t after = heap_in_use();
    if (!shader.error().empty()) {
      state.SkipWithError(shader.error().c_str());
      return;
    }
    instructions = instruction_count(m);
    heap_per_instr = static_cast<double>(after - before) / static_cast<double>(instructions);
    tables = table_bytes(m);
    benchmark::DoNotOptimize(m);
    state.PauseTiming();  // freeing the module is not building it
    { Module dropped = std::move(m); }
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * instructions));
  state.counters["instructions"] = static_cast<double>(instructions);
  state.counters["heap_B_per_instr"] = heap_per_instr;
  const auto per_instruction = [&](std::size_t bytes) {
    return static_cast<double>(bytes) / static_cast<double>(instructions);
  };
  state.counters["tables_B_per_instr"] = per_instruction(tables.total());
  state.counters["instr_vec_B"] = per_instruction(tables.instructions);
  state.counters["block_B"] = per_instruction(tables.blocks);
  state.counters["reg_B"] = per_instruction(tables.registers);
}

// The synthetic module of state.range(0) instructions, or an error.
std::optional<Module> synthetic(benchmark::State& state) {
  SyntheticShader shader(static_cast<std::size_t>(state.range(0)));
  Module m = shader.build();
  if (!shader.error().empty()) {
    state.SkipWithError(shader.error().c_str());
    return std::nullopt;
  }
  return m;
}

void BM_Validate(benchmark::State& state) {
  const std::optional<Module> built = synthetic(state);
  if (!built) return;
  const Module& m = *built;
  const std::size_t instructions = instruction_count(m);
  if (!validator::validate(m).empty()) {
    state.SkipWithError("the synthetic shader does not validate");
    return;
  }
  for (auto _ : state) {
    auto problems = validator::validate(m);
    benchmark::DoNotOptimize(problems);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * instructions));
  state.counters["instructions"] = static_cast<double>(instructions);
}

void BM_Dump(benchmark::State& state) {
  const std::optional<Module> built = synthetic(state);
  if (!built) return;
  const Module& m = *built;
  const std::size_t instructions = instruction_count(m);
  std::size_t text_bytes = 0;
  for (auto _ : state) {
    std::string text = dump(m);
    text_bytes = text.size();
    benchmark::DoNotOptimize(text);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * instructions));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text_bytes));
  state.counters["instructions"] = static_cast<double>(instructions);
}

void sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {250000, 500000, 1000000, 2000000}) b->Arg(n);
  b->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(BM_Build)->Apply(sizes);
BENCHMARK(BM_Validate)->Apply(sizes);
BENCHMARK(BM_Dump)->Apply(sizes);

BENCHMARK_MAIN();
