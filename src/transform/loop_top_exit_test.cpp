// loop-top-exit-test, a driver workaround (docs/workarounds.md): every loop
// whose first exit test comes after its body has computed something gets an
// exit test at the top of its body, one that never fires in practice.
//
// lavapipe (Mesa 22.3.6, LLVM 15.0.6) reads a loop-carried value after the
// loop as an earlier iteration left it when the loop is left by a test
// placed after the value is computed: `while (true) { acc = f(acc, d); if
// (d == 1) break; }` and `do { acc = f(acc, d); } while (d != 1)` give
// `acc` as the first iteration computed it (docs/flesh.md, "Findings",
// tests/flesh/findings/lavapipe-loop-exit-value.comp). The same loop runs
// right when an exit test comes first: a `while (c)` header (c not a
// constant: Mesa folds `while (true)` away), or `if (g) break;` at the top
// of the body. What the fleshed campaigns found: the programs whose own
// module passed and whose -O1 form did not were all of this shape, in
// Function memory or not (docs/testing.md, "lavapipe data mode").
//
// The test counts iterations in two 32-bit words and leaves the loop when
// both wrap to zero, after 2^64 iterations (centuries at any rate a GPU
// runs), so it never changes what a program computes. One 32-bit word would
// not do: it changes the meaning after 2^32 iterations, and lavapipe
// miscompiled a loop so guarded (its trip-count analysis sees a bound).
//
//   test:  lo' = lo + 1; hi' = hi + (lo' == 0 ? 1 : 0); store both; done = (lo' | hi') == 0
//   (lo and hi declared = 0u in the block before the loop, so each entry starts afresh)
//
//   Loop                                  Loop
//     condition: C ...; LoopIf true   ->    condition: test; LoopIf !done
//     body:      B                          body:      C ...; NextBlock; B
//
//   DoLoop                                DoLoop
//     body: B                         ->    body: test; If done { Break }; merge: B
//
// A Loop whose condition is not the constant true already tests first and is
// left alone; so is a loop whose merge block takes a value (a Break must
// carry one, and there is none to give). Moving a Loop's condition chain into
// its body keeps every path: `LoopIf true` always went on to the body, and a
// Continue still runs the continue block, the test, then the old chain.
//
// Algorithm: one walk per function collects the loops; each rewrite adds two
// variables and at most two blocks and moves one block's contents, inner
// loops first, so that a block a rewrite moves is never one a later rewrite
// names. Linear.
#include "ir/predefined.h"
#include "ir/structure.h"
#include "ir/traversal.h"
#include "transform/passes.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

// Where a loop gets its test: a Loop whose condition chain ends in `LoopIf
// true` (its condition chain may compute and store first) gets a new
// condition block holding the test, its old condition chain moving to the
// front of its body; a DoLoop gets an `If done { Break }` at the top of its
// body. Neither where the merge block takes a value.
enum class Placement : std::uint8_t { None, NewCondition, BodyTop };

Placement placement(const Module& m, const Function& f, const Block& loop) {
  const Instruction* t = loop.terminator();
  if (!t || (t->opcode != Opcode::Loop && t->opcode != Opcode::DoLoop)) return Placement::None;
  if (f.block(loop.merge).merge_input.valid()) return Placement::None;
  if (t->opcode == Opcode::DoLoop) return Placement::BodyTop;
  const Instruction* loop_if = f.block(chain_end(f, loop.loop_condition())).terminator();
  // As the SPIR-V output decides it (cfg.cpp): `LoopIf true` leaves only through Break.
  const bool always = loop_if && loop_if->opcode == Opcode::LoopIf && loop_if->operands.size() == 1 &&
                      constant_bool(m, loop_if->operands[0]) == true;
  return always ? Placement::NewCondition : Placement::None;
}

Instruction terminator(Opcode op, SourceLocId where, std::initializer_list<Operand> operands) {
  Instruction t;
  t.opcode = op;
  t.location = where;
  t.operands = OperandList(operands);
  return t;
}

class TopExitTest {
 public:
  TopExitTest(Module& m, FunctionId f) : m_(m), fid_(f) {}

  Result<bool> run() {
    std::vector<std::pair<BlockId, Placement>> loops;
    visit(m_.function(fid_), [&](const BlockVisit& v, const Block& b) {
      if (const Placement p = placement(m_, m_.function(fid_), b); p != Placement::None) loops.emplace_back(v.id, p);
      return VisitAction::VisitSubBlocks;
    });
    // Inner loops first (the walk is pre-order): a DoLoop's rewrite moves
    // its body's first block, which may itself be a loop found later.
    for (auto it = loops.rbegin(); it != loops.rend(); ++it)
      if (auto r = rewrite(it->first, it->second); !r) return r.failure();
    return !loops.empty();
  }

 private:
  VariableId counter(const char* name, BlockId declared_in) {
    Variable v;
    v.name = Name{name, NameSource::Temporary};
    v.type = m_.pointer_type(predefined::kUint, StorageClass::Function);
    v.initializer = m_.uint_constant(0);
    const VariableId id = m_.add_variable(std::move(v));
    m_.function(fid_).block(declared_in).declarations.push_back(id);
    return id;
  }

  Status rewrite(BlockId loop, Placement placement) {
    const VariableId lo = counter("loop_count_lo", loop), hi = counter("loop_count_hi", loop);
    const SourceLocId where = m_.function(fid_).block(loop).instructions.back().location;
    std::vector<Instruction> test;
    auto emit = [&](Opcode op, std::initializer_list<Operand> operands) -> Result<RegisterId> {
      auto inst = make(m_, op, std::span<const Operand>(operands.begin(), operands.size()));
      if (!inst) return inst.failure();
      inst->location = where;
      test.push_back(std::move(*inst));
      return test.back().result;
    };
    const ConstantId zero = m_.uint_constant(0), one = m_.uint_constant(1);
    auto lo0 = emit(Opcode::Load, {lo});
    if (!lo0) return lo0.failure();
    auto lo1 = emit(Opcode::Add, {*lo0, one});
    if (!lo1) return lo1.failure();
    auto wrapped = emit(Opcode::Equal, {*lo1, zero});
    if (!wrapped) return wrapped.failure();
    auto carry = emit(Opcode::Select, {*wrapped, one, zero});
    if (!carry) return carry.failure();
    auto hi0 = emit(Opcode::Load, {hi});
    if (!hi0) return hi0.failure();
    auto hi1 = emit(Opcode::Add, {*hi0, *carry});
    if (!hi1) return hi1.failure();
    if (auto s = emit(Opcode::Store, {lo, *lo1}); !s) return s.failure();
    if (auto s = emit(Opcode::Store, {hi, *hi1}); !s) return s.failure();
    auto both = emit(Opcode::BitwiseOr, {*lo1, *hi1});
    if (!both) return both.failure();
    auto done = emit(Opcode::Equal, {*both, zero});
    if (!done) return done.failure();

    Function& f = m_.function(fid_);
    if (placement == Placement::NewCondition) {
      // condition: test; LoopIf !done    body: old condition chain (its
      // LoopIf true now a NextBlock into the old body), old body
      auto stay = emit(Opcode::LogicalNot, {*done});
      if (!stay) return stay.failure();
      const BlockId old_condition = f.block(loop).loop_condition(), old_body = f.block(loop).loop_body();
      const BlockId condition = f.add_block();
      Block& condition_end = f.block(chain_end(f, old_condition));
      condition_end.instructions.back().opcode = Opcode::NextBlock;
      condition_end.instructions.back().operands.clear();
      condition_end.merge = old_body;
      Block& top = f.block(condition);
      top.instructions = std::move(test);
      top.instructions.push_back(terminator(Opcode::LoopIf, where, {Operand(*stay)}));
      f.block(loop).sub_blocks_storage[0] = condition;
      f.block(loop).sub_blocks_storage[1] = old_condition;
      return ok();
    }
    // The body's first block keeps its id (the loop names it) and takes the
    // test; what it held moves to the If's merge block.
    const BlockId body = f.block(loop).loop_body();
    const BlockId leave = f.add_block(), rest = f.add_block();
    f.block(rest) = std::move(f.block(body));
    Block& top = f.block(body);
    top = Block{};
    top.instructions = std::move(test);
    top.instructions.push_back(terminator(Opcode::If, where, {Operand(*done)}));
    top.sub_blocks_storage[0] = leave;
    top.merge = rest;
    f.block(leave).instructions.push_back(terminator(Opcode::Break, where, {}));
    return ok();
  }

  Module& m_;
  FunctionId fid_;
};

}  // namespace

PassResult loop_top_exit_test(Module& m) {
  bool changed = false;
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    if (!m.function(FunctionId(i)).entry.valid()) continue;
    auto r = TopExitTest(m, FunctionId(i)).run();
    if (!r) return r;
    changed = *r || changed;
  }
  return changed;
}

}  // namespace sluice::transform
