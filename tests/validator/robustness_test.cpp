// The validator on real and extreme input: the ANGLE README's shader, very
// deep nesting (which must not touch the native stack), randomly corrupted
// modules (which must never crash it), and describe()'s pointers into the
// dump.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "golden_file.h"
#include "ir/dump.h"
#include "ir/parse.h"
#include "validator/validator_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using sluice::testing::must;
using sluice::testing::require_only_problem;
using sluice::testing::require_valid;
using sluice::testing::ShaderFixture;

TEST_CASE("the ANGLE README example validates", "[validator][robustness]") {
  require_valid(testing::build_angle_example());
}

TEST_CASE("100000 nested Ifs validate without deep native recursion", "[validator][robustness]") {
  constexpr int kDepth = 100000;
  ShaderFixture s;
  RegisterId condition = s.compare(s.load_scale());
  std::vector<BlockId> merges;
  merges.reserve(kDepth);
  for (int i = 0; i < kDepth; ++i) {
    IfBlocks blocks = must(s.b.branch_if(condition, false));
    merges.push_back(blocks.merge);
    s.b.set_block(blocks.true_block);
  }
  s.store_color(s.load_scale());  // innermost: uses the entry block's register
  s.end(Opcode::Merge);
  // Each merge block belongs to the enclosing If's true chain; the outermost
  // one continues main.
  for (int i = kDepth - 1; i >= 1; --i) {
    s.b.set_block(merges[i]);
    s.end(Opcode::Merge);
  }
  s.b.set_block(merges[0]);
  s.end(Opcode::Return);
  require_valid(s.m);

  // A rule broken 50,000 levels down is still found.
  s.block(merges[kDepth / 2]).instructions.back().opcode = Opcode::Break;
  require_only_problem(s.m, "Break outside a loop or switch");
}

TEST_CASE("100000 nested loops validate without deep native recursion", "[validator][robustness]") {
  constexpr int kDepth = 100000;
  ShaderFixture s;
  std::vector<BlockId> merges;
  merges.reserve(kDepth);
  for (int i = 0; i < kDepth; ++i) {
    LoopBlocks l = must(s.b.branch_loop(i % 2 == 1, false));
    merges.push_back(l.merge);
    s.b.set_block(l.condition);
    s.end(Opcode::LoopIf, kTrue);
    s.b.set_block(l.body);
  }
  s.end(Opcode::Break);
  for (int i = kDepth - 1; i >= 1; --i) {
    s.b.set_block(merges[i]);
    s.end(Opcode::Continue);
  }
  s.b.set_block(merges[0]);
  s.end(Opcode::Return);
  require_valid(s.m);
}

namespace {

// A deterministic generator (SplitMix64): the same mutations on every
// platform and standard library.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::uint32_t below(std::uint64_t n) { return n == 0 ? 0 : static_cast<std::uint32_t>(next() % n); }
  bool chance(int percent) { return below(100) < static_cast<std::uint64_t>(percent); }
  // An id near the table's size (in range, just past it, far past it or invalid).
  std::uint32_t id(std::size_t table_size) {
    switch (below(6)) {
      case 0: return Operand::kMaxValue;
      case 1: return 0xFFFFFFFFu;
      case 2: return static_cast<std::uint32_t>(table_size + below(3));
      default: return below(table_size + 1);
    }
  }

 private:
  std::uint64_t state_;
};

// A module with every construct, merge inputs, a call and a local, as the
// base for mutations (besides the ANGLE example).
Module build_rich_module() {
  ShaderFixture s;
  VariableId local = s.b.declare_local({"acc", NameSource::Temporary}, kFloat, Precision::None, kFloatZero);
  LoopBlocks l = must(s.b.branch_loop(false, true, kFloat));
  s.b.set_block(l.condition);
  s.end(Opcode::LoopIf, kTrue);
  s.b.set_block(l.body);
  RegisterId selector = must(s.b.construct(Opcode::ConstructScalarFromScalar, kInt, {s.load_scale()}));
  const SwitchCase cases[] = {{1u}, {std::nullopt}};
  SwitchBlocks sw = must(s.b.branch_switch(selector, cases));
  s.b.set_block(sw.cases[0]);
  s.end(Opcode::Passthrough);
  s.b.set_block(sw.cases[1]);
  s.end(Opcode::Break);
  s.b.set_block(sw.merge);
  IfBlocks i = must(s.b.branch_if(s.compare(must(s.b.load(local))), true, kFloat));
  s.b.set_block(i.true_block);
  s.end(Opcode::Merge, must(s.b.emit(Opcode::Sin, {s.load_scale()})));
  s.b.set_block(i.false_block);
  s.end(Opcode::Merge, kFloatOne);
  s.b.set_block(i.merge);
  must(s.b.store(local, s.b.merge_input(i.merge)));
  s.end(Opcode::Break, must(s.b.load(local)));
  s.b.set_block(l.continue_block);
  s.end(Opcode::Continue);
  s.b.set_block(l.merge);
  s.store_color(s.b.merge_input(l.merge));
  s.end(Opcode::Return);
  const FunctionId helper = s.b.begin_function({"helper", NameSource::Internal}, kFloat);
  s.end(Opcode::Return, kFloatOne);
  // main's loop merge block starts with `r = Call helper ()`.
  Instruction call;
  call.opcode = Opcode::Call;
  call.result = s.m.new_register(kFloat);
  call.operands.push_back(helper);
  Block& merge = s.block(l.merge);
  merge.instructions.insert(merge.instructions.begin(), call);
  return std::move(s.m);
}

Instruction* random_instruction(Module& m, Rng& rng, Block** in_block = nullptr) {
  if (m.function_count() == 0) return nullptr;
  Function& f = m.function(FunctionId(rng.below(m.function_count())));
  if (f.blocks.empty()) return nullptr;
  Block& b = f.blocks[rng.below(f.blocks.size())];
  if (in_block) *in_block = &b;
  if (b.instructions.empty()) return nullptr;
  return &b.instructions[rng.below(b.instructions.size())];
}

Operand random_operand(const Module& m, Rng& rng) {
  switch (rng.below(5)) {
    case 0: return RegisterId(rng.id(m.register_count()) & Operand::kMaxValue);
    case 1: return ConstantId(rng.id(m.constant_count()) & Operand::kMaxValue);
    case 2: return VariableId(rng.id(m.variable_count()) & Operand::kMaxValue);
    case 3: return FunctionId(rng.id(m.function_count()) & Operand::kMaxValue);
    default: return Operand::literal(rng.below(6));
  }
}

BlockId random_block_id(const Module& m, Rng& rng) {
  std::size_t most = 0;
  for (std::uint32_t i = 0; i < m.function_count(); ++i) most = std::max(most, m.function(FunctionId(i)).blocks.size());
  return BlockId(rng.id(most));
}

// One random corruption of operands, ids, terminators or the tree.
void mutate(Module& m, Rng& rng) {
  Block* b = nullptr;
  Instruction* inst = random_instruction(m, rng, &b);
  switch (rng.below(16)) {
    case 0:
      if (inst && !inst->operands.empty()) inst->operands[rng.below(inst->operands.size())] = random_operand(m, rng);
      break;
    case 1:
      if (inst) inst->operands.push_back(random_operand(m, rng));
      break;
    case 2:
      if (inst && !inst->operands.empty()) inst->operands.pop_back();
      break;
    case 3:
      if (inst) inst->result = RegisterId(rng.id(m.register_count()));
      break;
    case 4:
      if (inst) inst->opcode = static_cast<Opcode>(rng.below(260));
      break;
    case 5:
      if (inst) inst->aux = static_cast<std::uint16_t>(rng.next());
      break;
    case 6:
      if (b) b->sub_blocks_storage[rng.below(3)] = random_block_id(m, rng);
      break;
    case 7:
      if (b) b->merge = random_block_id(m, rng);
      break;
    case 8:
      if (b && rng.chance(50))
        b->case_blocks.push_back(random_block_id(m, rng));
      else if (b)
        b->cases.push_back(SwitchCase{rng.chance(50) ? std::optional<std::uint32_t>(rng.below(4)) : std::nullopt});
      break;
    case 9:
      if (b && !b->instructions.empty()) {
        if (rng.chance(50))
          b->instructions.pop_back();
        else
          b->instructions.insert(b->instructions.begin() + rng.below(b->instructions.size()), b->instructions.back());
      }
      break;
    case 10:
      if (b) b->declarations.push_back(VariableId(rng.id(m.variable_count())));
      break;
    case 11:
      if (b) b->merge_input = RegisterId(rng.id(m.register_count()));
      break;
    case 12:
      if (m.function_count() > 0) m.function(FunctionId(rng.below(m.function_count()))).entry = random_block_id(m, rng);
      break;
    case 13:
      if (m.register_count() > 0)
        m.reg(RegisterId(rng.below(m.register_count()))).type = TypeId(rng.id(m.type_count()));
      break;
    case 14:
      if (m.variable_count() > 0) {
        Variable& v = m.variable(VariableId(rng.below(m.variable_count())));
        if (rng.chance(50))
          v.type = TypeId(rng.id(m.type_count()));
        else
          v.initializer = ConstantId(rng.id(m.constant_count()));
      }
      break;
    default:
      if (m.function_count() > 0) {
        Function& f = m.function(FunctionId(rng.below(m.function_count())));
        if (rng.chance(30))
          f.return_type = TypeId(rng.id(m.type_count()));
        else if (rng.chance(50))
          f.params.push_back(FunctionParam{VariableId(rng.id(m.variable_count())), ParamDirection::In});
        else
          m.globals().push_back(VariableId(rng.id(m.variable_count())));
      }
      break;
  }
}

}  // namespace

TEST_CASE("randomly corrupted modules never crash the validator", "[validator][robustness]") {
  const Module bases[] = {testing::build_angle_example(), build_rich_module()};
  for (const Module& base : bases) require_valid(base);

  Rng rng(0x5117CEull);
  std::size_t broken = 0;
  constexpr int kModules = 3000;
  for (int round = 0; round < kModules; ++round) {
    Module m = bases[round % 2];
    const int mutations = 1 + static_cast<int>(rng.below(3));
    for (int k = 0; k < mutations; ++k) mutate(m, rng);
    const auto problems = validator::validate(m);
    if (!problems.empty()) ++broken;
    // Every problem points at something that exists, and describes.
    for (const auto& p : problems) {
      INFO("round " << round << ": " << p.message);
      REQUIRE(!p.message.empty());
      if (!p.function.valid()) continue;
      REQUIRE(p.function.index() < m.function_count());
      const Function& f = m.function(p.function);
      if (!p.block.valid()) continue;
      REQUIRE(p.block.index() < f.blocks.size());
      REQUIRE(p.instruction < static_cast<std::int32_t>(f.block(p.block).instructions.size()));
    }
    const std::string text = validator::describe(m, std::span<const validator::Problem>(problems));
    REQUIRE(std::count(text.begin(), text.end(), '\n') == static_cast<std::ptrdiff_t>(problems.size()));
  }
  // Most mutations break a rule; some (an operand replaced by an equal one) do not.
  CHECK(broken > kModules / 2);
}

TEST_CASE("describe() names the function, the block as the dump titles it and the instruction",
          "[validator][describe]") {
  ShaderFixture s;
  LoopBlocks l = must(s.b.branch_loop(false, false));
  s.b.set_block(l.condition);
  s.end(Opcode::LoopIf, s.compare(s.load_scale()));
  s.b.set_block(l.body);
  s.store_color(s.load_scale());
  s.end(Opcode::Continue);
  s.b.set_block(l.merge);
  s.end(Opcode::Return);
  require_valid(s.m);
  Block& body = s.block(l.body);
  body.instructions.back().opcode = Opcode::Merge;
  auto p = require_only_problem(s.m, "Merge outside an If's sub-block chain");
  const std::string line = dump_instruction(s.m, body.instructions.back());
  const std::string text = line.substr(line.find_first_not_of(' '));  // without the result column's padding
  CHECK(validator::describe(s.m, p) ==
        fmt::format("f0 'main', Loop Body block b{}, instruction {} `{}`: Merge outside an If's sub-block chain",
                    l.body.index(), body.instructions.size() - 1, text));
  // Both the title and the instruction text are what ir-dump prints.
  const std::string dumped = dump(s.m);
  CHECK(dumped.find("Loop Body:") != std::string::npos);
  CHECK(dumped.find(text) != std::string::npos);
}

TEST_CASE("the ANGLE golden text parses into a module that validates", "[validator][robustness]") {
  const std::string text = testing::read_file(testing::golden_path("angle_example.ir"));
  REQUIRE(!text.empty());
  ParseResult parsed = parse_module(text, "angle_example.ir");
  INFO(render(parsed.diagnostics, text));
  REQUIRE(parsed.ok());
  require_valid(*parsed.module);
}

TEST_CASE("validate() stops recording problems at Options::max_problems", "[validator][robustness]") {
  ShaderFixture s;
  for (int i = 0; i < 10; ++i) s.store_color(s.load_scale());
  s.end(Opcode::Return);
  require_valid(s.m);
  for (Instruction& inst : s.entry().instructions)
    if (inst.opcode == Opcode::Store) inst.operands[1] = kFloatOne;  // stores a float through a vec4 pointer
  CHECK(validator::validate(s.m).size() == 10);
  validator::Options options;
  options.max_problems = 3;
  const auto problems = validator::validate(s.m, options);
  REQUIRE(problems.size() == 3);
  CHECK(problems[2].message == "Store: stores float through ptr<Output, vec4>");
}
