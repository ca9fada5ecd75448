// The random tree generator (random_ir.h). Generation recurses on
// construct nesting, which max_depth bounds. A scope stack says which
// escapes a statement may take: Break to the innermost loop body or switch
// case, Continue to the innermost loop body, Merge only at the top of an If
// branch, and no escape at all out of a loop condition or continue block
// (SPIR-V's back-edge block must post-dominate its continue target). A
// construct whose merge block nothing reaches gets `Unreachable` there and
// ends its chain, as docs/ir.md requires.
#include "random_ir.h"

#include <algorithm>
#include <string>
#include <vector>

#include "ir/builder.h"

namespace sluice::testing {
namespace {

using namespace ir;
using namespace ir::predefined;

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed * 0x9e3779b97f4a7c15ull + 1) {}
  std::uint64_t next() {  // splitmix64: the same sequence on every platform
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }
  bool chance(std::uint32_t percent) { return below(100) < percent; }

 private:
  std::uint64_t s_;
};

enum class ScopeKind { If, LoopBody, LoopCondition, LoopContinue, Case };

struct Scope {
  ScopeKind kind;
  bool* merge_reached = nullptr;  // If, Case: the construct's merge; LoopBody: the loop's merge
  bool* continued = nullptr;      // LoopBody: a Continue was made
  bool value_break = false;       // LoopBody of a λV-style loop: Break carries an int
  bool value_merge = false;       // If with a merge input
};

template <class T>
T must(Result<T> r) {
  if (!r) throw std::logic_error("random_ir: the builder rejected an instruction: " + r.error());
  return std::move(*r);
}

class Generator {
 public:
  Generator(std::uint64_t seed, const RandomIrOptions& options) : rng_(seed), options_(options) {}
  Module generate();

 private:
  // Expressions and statements.
  Operand expr(std::uint32_t depth);
  Operand cond();
  VariableId pick_var() { return vars_[rng_.below(static_cast<std::uint32_t>(vars_.size()))]; }
  bool statements(std::uint32_t count);
  bool statement();
  bool gen_if();
  bool gen_loop();
  bool gen_switch();
  bool escape();
  void finish_main();
  std::uint32_t blocks() const { return static_cast<std::uint32_t>(m_.function(b_.function()).blocks.size()); }
  bool may_open() const { return depth_ < options_.max_depth && blocks() < budget_; }
  bool escapes_blocked() const {
    return std::any_of(scopes_.begin(), scopes_.end(), [](const Scope& s) {
      return s.kind == ScopeKind::LoopCondition || s.kind == ScopeKind::LoopContinue;
    });
  }

  Module m_{ShaderStage::Fragment};
  Builder b_{m_};
  Rng rng_;
  RandomIrOptions options_;
  VariableId x_, y_, o_, trace_;
  std::vector<VariableId> vars_;      // assignable variables of the current function
  std::vector<VariableId> counters_;  // loop counters in scope (read only)
  std::vector<Scope> scopes_;
  FunctionId helper_;
  bool in_main_ = false;
  std::uint32_t depth_ = 0, loop_depth_ = 0, site_ = 0, budget_ = 0;
};

Operand Generator::expr(std::uint32_t depth) {
  if (depth == 0 || rng_.chance(35)) {
    const std::uint32_t pick = rng_.below(10);
    if (pick < 2) return m_.int_constant(static_cast<std::int32_t>(rng_.below(25)) - 5);
    if (pick < 3 && in_main_) return must(b_.load(rng_.chance(50) ? x_ : y_));
    if (pick < 4 && !counters_.empty()) return must(b_.load(counters_[rng_.below(static_cast<std::uint32_t>(counters_.size()))]));
    return must(b_.load(pick_var()));
  }
  const Operand a = expr(depth - 1), c = expr(depth - 1);
  switch (rng_.below(9)) {
    case 0: return must(b_.emit(Opcode::Add, {a, c}));
    case 1: return must(b_.emit(Opcode::Sub, {a, c}));
    case 2: return must(b_.emit(Opcode::Mul, {a, c}));
    case 3: return must(b_.emit(Opcode::BitwiseXor, {a, c}));
    case 4: return must(b_.emit(Opcode::BitwiseAnd, {a, c}));
    case 5: return must(b_.emit(Opcode::BitwiseOr, {a, c}));
    case 6: return must(b_.emit(Opcode::Negate, {a}));
    case 7: return must(b_.emit(Opcode::BitShiftLeft, {a, must(b_.emit(Opcode::BitwiseAnd, {c, m_.int_constant(7)}))}));
    default: return must(b_.emit(Opcode::Select, {cond(), a, c}));
  }
}

Operand Generator::cond() {
  static constexpr Opcode kCompare[] = {Opcode::LessThan, Opcode::GreaterThan, Opcode::LessThanEqual,
                                        Opcode::GreaterThanEqual, Opcode::Equal, Opcode::NotEqual};
  const Operand c = must(b_.emit(kCompare[rng_.below(6)], {expr(1), expr(1)}));
  switch (rng_.below(6)) {
    case 0: return must(b_.emit(Opcode::LogicalNot, {c}));
    case 1: return must(b_.emit(Opcode::LogicalAnd, {c, must(b_.emit(Opcode::LessThan, {expr(0), expr(0)}))}));
    case 2: return must(b_.emit(Opcode::LogicalOr, {c, must(b_.emit(Opcode::Equal, {expr(0), expr(0)}))}));
    default: return c;
  }
}

bool Generator::statements(std::uint32_t count) {
  for (std::uint32_t i = 0; i < count; ++i)
    if (!statement()) return false;
  return true;
}

bool Generator::statement() {
  const std::uint32_t roll = rng_.below(100);
  if (may_open()) {
    if (roll < 22) return gen_if();
    if (roll < 34 && loop_depth_ < options_.max_loop_depth) return gen_loop();
    if (roll < 42) return gen_switch();
    if (roll < 45) {
      b_.set_block(must(b_.next_block()));
      return true;
    }
  }
  // Escapes end the chain; at the top level of main they would end the tree early.
  if (roll >= 94 && (!scopes_.empty() || rng_.chance(15))) return escape();
  switch (rng_.below(5)) {
    case 0: {  // swap two variables: both loads before both stores
      const VariableId a = pick_var(), c = pick_var();
      const RegisterId ra = must(b_.load(a)), rc = must(b_.load(c));
      must(b_.store(a, rc));
      must(b_.store(c, ra));
      return true;
    }
    case 1: {  // path trace
      if (!in_main_) break;
      const RegisterId t = must(b_.emit(Opcode::Mul, {must(b_.load(trace_)), m_.int_constant(31)}));
      must(b_.store(trace_, must(b_.emit(Opcode::Add, {t, m_.int_constant(static_cast<std::int32_t>(++site_))}))));
      return true;
    }
    case 2: {
      if (!in_main_ || !rng_.chance(30)) break;
      const Operand args[] = {helper_, expr(1), expr(1)};
      must(b_.store(pick_var(), must(b_.emit(Opcode::Call, args))));
      return true;
    }
    case 3: {
      const VariableId v = pick_var();
      must(b_.emit(rng_.chance(50) ? Opcode::PrefixIncrement : Opcode::PostfixDecrement, {v}));
      return true;
    }
    default: break;
  }
  must(b_.store(pick_var(), expr(2)));
  return true;
}

bool Generator::escape() {
  // Walk out from the innermost scope to see what may be left.
  const Scope* breakable = nullptr;
  const Scope* continuable = nullptr;
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    if (it->kind == ScopeKind::LoopCondition || it->kind == ScopeKind::LoopContinue) break;
    if (!breakable && (it->kind == ScopeKind::LoopBody || it->kind == ScopeKind::Case)) breakable = &*it;
    if (it->kind == ScopeKind::LoopBody) {
      continuable = &*it;
      break;
    }
  }
  const std::uint32_t pick = rng_.below(10);
  if (pick < 4 && breakable) {
    *breakable->merge_reached = true;
    if (breakable->value_break) must(b_.terminate(Opcode::Break, expr(1)));
    else must(b_.terminate(Opcode::Break));
    return false;
  }
  if (pick < 8 && continuable) {
    *continuable->continued = true;
    must(b_.terminate(Opcode::Continue));
    return false;
  }
  if (escapes_blocked()) return true;
  if (!in_main_) {
    must(b_.terminate(Opcode::Return, expr(1)));
    return false;
  }
  if (pick == 9 && rng_.chance(40)) {
    must(b_.terminate(Opcode::Discard));
    return false;
  }
  finish_main();
  return false;
}

bool Generator::gen_if() {
  ++depth_;
  const Operand c = cond();
  const bool with_value = rng_.chance(30);
  const bool with_else = with_value || rng_.chance(60);
  IfBlocks branch = must(b_.branch_if(c, with_else, with_value ? kInt : TypeId{}));
  bool reached = !with_else;
  scopes_.push_back({ScopeKind::If, &reached, nullptr, false, with_value});
  for (BlockId sub : {branch.true_block, branch.false_block}) {
    if (!sub.valid()) continue;
    b_.set_block(sub);
    if (statements(1 + rng_.below(3))) {
      reached = true;
      if (with_value) must(b_.terminate(Opcode::Merge, expr(1)));
      else must(b_.terminate(Opcode::Merge));
    }
  }
  scopes_.pop_back();
  --depth_;
  b_.set_block(branch.merge);
  if (!reached) {
    must(b_.terminate(Opcode::Unreachable));
    return false;
  }
  if (with_value) must(b_.store(pick_var(), b_.merge_input(branch.merge)));
  return true;
}

bool Generator::gen_loop() {
  enum Kind { While, For, Do, DoContinue, Lambda };
  const auto kind = static_cast<Kind>(rng_.below(5));
  const bool do_loop = kind == Do || kind == DoContinue;
  const bool with_continue = kind == For || kind == DoContinue;
  const std::int32_t bound = 1 + static_cast<std::int32_t>(rng_.below(4));
  const VariableId counter =
      b_.declare_local({"c" + std::to_string(counters_.size()), NameSource::Temporary}, kInt, Precision::None, kIntZero);
  LoopBlocks loop = must(b_.branch_loop(do_loop, with_continue, kind == Lambda ? kInt : TypeId{}));
  ++depth_;
  ++loop_depth_;
  bool merge_reached = false, continued = false;
  auto next_iteration_test = [&] {
    return must(b_.emit(Opcode::LessThan, {must(b_.load(counter)), m_.int_constant(bound)}));
  };

  b_.set_block(loop.condition);
  scopes_.push_back({ScopeKind::LoopCondition});
  if (kind == Lambda) {
    must(b_.terminate(Opcode::LoopIf, kTrue));
  } else if (rng_.chance(25) && may_open()) {
    // A condition of several blocks: test && (something), as an If with a value.
    const RegisterId test = next_iteration_test();
    IfBlocks both = must(b_.branch_if(test, true, kBool));
    b_.set_block(both.true_block);
    must(b_.terminate(Opcode::Merge, must(b_.emit(Opcode::LogicalOr, {cond(), kTrue}))));
    b_.set_block(both.false_block);
    must(b_.terminate(Opcode::Merge, kFalse));
    b_.set_block(both.merge);
    must(b_.terminate(Opcode::LoopIf, b_.merge_input(both.merge)));
  } else {
    must(b_.terminate(Opcode::LoopIf, next_iteration_test()));
  }
  scopes_.pop_back();

  b_.set_block(loop.body);
  scopes_.push_back({ScopeKind::LoopBody, &merge_reached, &continued, kind == Lambda, false});
  counters_.push_back(counter);
  if (kind != For) must(b_.emit(Opcode::PrefixIncrement, {counter}));
  bool open = true;
  if (kind == Lambda) {
    // The exit test at the top of the body keeps the loop finite.
    IfBlocks done = must(b_.branch_if(must(b_.emit(Opcode::GreaterThan, {must(b_.load(counter)), m_.int_constant(bound)})), false));
    b_.set_block(done.true_block);
    must(b_.terminate(Opcode::Break, expr(1)));
    merge_reached = true;
    b_.set_block(done.merge);
  }
  if (open && statements(1 + rng_.below(4))) {
    continued = true;
    must(b_.terminate(Opcode::Continue));
  }
  scopes_.pop_back();

  if (with_continue) {
    b_.set_block(loop.continue_block);
    scopes_.push_back({ScopeKind::LoopContinue});
    if (kind == For) must(b_.emit(Opcode::PrefixIncrement, {counter}));
    if (statements(rng_.below(3))) must(b_.terminate(Opcode::Continue));
    scopes_.pop_back();
  }
  counters_.pop_back();
  --loop_depth_;
  --depth_;

  b_.set_block(loop.merge);
  const bool reachable = merge_reached || ((kind == While || kind == For) || (do_loop && continued));
  if (!reachable) {
    must(b_.terminate(Opcode::Unreachable));
    return false;
  }
  if (kind == Lambda) must(b_.store(pick_var(), b_.merge_input(loop.merge)));
  return true;
}

bool Generator::gen_switch() {
  ++depth_;
  std::vector<SwitchCase> cases;
  std::uint32_t labels[4] = {0, 1, 2, 3};
  for (std::uint32_t i = 3; i > 0; --i) std::swap(labels[i], labels[rng_.below(i + 1)]);
  const std::uint32_t count = 1 + rng_.below(3);
  for (std::uint32_t i = 0; i < count; ++i) cases.push_back(SwitchCase{labels[i]});
  const bool has_default = rng_.chance(60);
  if (has_default) cases.insert(cases.begin() + rng_.below(count + 1), SwitchCase{std::nullopt});
  const Operand selector = must(b_.emit(Opcode::BitwiseAnd, {expr(1), m_.int_constant(3)}));
  SwitchBlocks sw = must(b_.branch_switch(selector, cases));
  bool reached = !has_default;
  for (std::size_t k = 0; k < sw.cases.size(); ++k) {
    b_.set_block(sw.cases[k]);
    scopes_.push_back({ScopeKind::Case, &reached});
    const bool last = k + 1 == sw.cases.size();
    if (statements(rng_.below(3))) {
      if (!last && rng_.chance(40)) {
        must(b_.terminate(Opcode::Passthrough));
      } else {
        reached = true;
        must(b_.terminate(Opcode::Break));
      }
    }
    scopes_.pop_back();
  }
  --depth_;
  b_.set_block(sw.merge);
  if (!reached) {
    must(b_.terminate(Opcode::Unreachable));
    return false;
  }
  return true;
}

void Generator::finish_main() {
  // o = fold(t, variables): depends on the path and on every value.
  Operand h = must(b_.load(trace_));
  for (VariableId v : vars_) h = must(b_.emit(Opcode::Add, {must(b_.emit(Opcode::Mul, {h, m_.int_constant(31)})), must(b_.load(v))}));
  must(b_.store(o_, h));
  must(b_.terminate(Opcode::Return));
}

Module Generator::generate() {
  Decorations d0, d1, out;
  d0.location = 0;
  d1.location = 1;
  out.location = 0;
  x_ = b_.add_global({"x", NameSource::Interface}, kInt, StorageClass::Input, Precision::None, d0);
  y_ = b_.add_global({"y", NameSource::Interface}, kInt, StorageClass::Input, Precision::None, d1);
  o_ = b_.add_global({"o", NameSource::Interface}, kInt, StorageClass::Output, Precision::None, out);

  // int h(int a, int b), smaller, no calls.
  helper_ = b_.begin_function({"h", NameSource::Internal}, kInt);
  vars_ = {b_.add_parameter(helper_, {"a", NameSource::Temporary}, kInt, ParamDirection::In),
           b_.add_parameter(helper_, {"b", NameSource::Temporary}, kInt, ParamDirection::In),
           b_.declare_local({"k", NameSource::Temporary}, kInt, Precision::None, m_.int_constant(3))};
  budget_ = std::max<std::uint32_t>(8, options_.max_blocks / 8);
  bool open = true;
  while (open && blocks() < budget_) open = statement();
  if (open) must(b_.terminate(Opcode::Return, expr(2)));

  in_main_ = true;
  b_.begin_function({"main", NameSource::Internal}, kVoid);
  trace_ = b_.declare_local({"t", NameSource::Temporary}, kInt, Precision::None, kIntZero);
  vars_.clear();
  for (int i = 0; i < 5; ++i)
    vars_.push_back(b_.declare_local({"v" + std::to_string(i), NameSource::Temporary}, kInt, Precision::None,
                                     m_.int_constant(i)));
  // One variable without an initializer, written before it is read.
  vars_.push_back(b_.declare_local({"u", NameSource::Temporary}, kInt));
  must(b_.store(vars_.back(), must(b_.emit(Opcode::Add, {must(b_.load(x_)), kIntOne}))));
  budget_ = options_.max_blocks;
  open = true;
  while (open && blocks() < budget_) open = statement();
  if (open) finish_main();
  return std::move(m_);
}

}  // namespace

ir::Module random_ir(std::uint64_t seed, const RandomIrOptions& options) { return Generator(seed, options).generate(); }

}  // namespace sluice::testing
