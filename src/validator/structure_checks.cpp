// The walk over one function's block tree and the checks that depend on
// where a block sits: the tree is a tree, sub-blocks and merge blocks are
// what each terminator requires, one terminator ends each block, merge
// inputs sit only where allowed and get values of their type, and every
// terminator is legal in its enclosing constructs (Break in a loop or
// switch, LoopIf ending a loop condition, ...). Where a terminator may jump
// is the scope model's (ir/structure.h; rules in docs/ir.md, "Scopes").
//
// The walk is iterative: one frame per open chain (a chain is a block and
// the merge blocks that follow it), so nesting depth costs heap, never
// native stack, and every block is entered at most once (linear time).
#include <fmt/format.h>

#include <algorithm>

#include "ir/structure.h"
#include "validator/context.h"
#include "validator/dominance.h"
#include "validator/instruction_checks.h"

namespace sluice::validator::detail {
namespace {

using ir::Block;
using ir::BlockId;
using ir::BlockKind;
using ir::Opcode;

struct Frame {
  BlockId block;                            // the chain's current block
  bool is_merge = false;                    // `block` is the merge block of the chain's previous block
  Opcode reached_by = Opcode::Unreachable;  // that previous block's terminator
  bool checked = false;
  std::uint32_t next_sub = 0;  // cursor over `block`'s sub-blocks
  Scopes::Mark mark;           // scope at the chain's start
};

class FunctionWalker {
 public:
  FunctionWalker(Context& ctx, ir::FunctionId f)
      : ctx_(ctx),
        fid_(f),
        f_(ctx.m.function(f)),
        scopes_(ctx),
        contexts_(ir::compute_block_contexts(f_)),
        visited_(f_.blocks.size(), 0) {}

  void run() {
    if (!f_.entry.valid() || f_.entry.index() >= f_.blocks.size()) {
      ctx_.report(fmt::format("entry block {} does not exist", id_text('b', f_.entry.index())), Where{fid_, {}, -1});
      return;
    }
    visited_[f_.entry.index()] = 1;
    stack_.push_back(Frame{f_.entry, false, Opcode::Unreachable, false, 0, scopes_.mark()});
    while (!stack_.empty()) {
      Frame& top = stack_.back();
      if (!top.checked) {
        check_block(top);
        top.checked = true;
      }
      const Block& b = f_.block(top.block);
      const Opcode op = terminator(b);
      if (ir::is_divergent(op)) {
        if (descend(top, b, op)) continue;  // `top` is stale now
        const Where from{fid_, top.block, last_index(b)};
        if (enter_once(b.merge, from)) {
          top.block = b.merge;
          top.is_merge = true;
          top.reached_by = op;
          top.checked = false;
          top.next_sub = 0;
          continue;
        }
      }
      check_chain_end(top);
      scopes_.release(top.mark);
      stack_.pop_back();
    }
  }

 private:
  // The block's terminator if it has a known one; Unreachable stands for
  // "none" where only divergence matters.
  static Opcode terminator(const Block& b) {
    if (b.instructions.empty()) return Opcode::Unreachable;
    const Opcode op = b.instructions.back().opcode;
    return ir::is_known(op) ? op : Opcode::Unreachable;
  }
  static std::int32_t last_index(const Block& b) { return static_cast<std::int32_t>(b.instructions.size()) - 1; }

  // Pushes a frame for the next unvisited sub-block of `top`'s block.
  bool descend(Frame& top, const Block& b, Opcode op) {
    const Where from{fid_, top.block, last_index(b)};
    for (;;) {
      const std::uint32_t i = top.next_sub++;
      BlockId sub;
      if ((op == Opcode::If && i < 2) || (ir::is_loop(op) && i < 3))
        sub = b.sub_blocks_storage[i];
      else if (op == Opcode::Switch && i < b.case_blocks.size())
        sub = b.case_blocks[i];
      else
        return false;
      if (!enter_once(sub, from)) continue;
      stack_.push_back(Frame{sub, false, Opcode::Unreachable, false, 0, scopes_.mark()});
      return true;
    }
  }

  // The tree is a tree: true for a block that exists and is reached for the
  // first time; a second arrival (a shared block or a cycle) is reported.
  bool enter_once(BlockId id, const Where& from) {
    if (!id.valid() || id.index() >= f_.blocks.size()) return false;  // check_sub_blocks reports these
    if (visited_[id.index()]) {
      ctx_.report(fmt::format("b{} is reached more than once: the block tree must be a tree (no shared blocks, no "
                              "cycles)",
                              id.index()),
                  from);
      return false;
    }
    visited_[id.index()] = 1;
    return true;
  }

  void check_block(const Frame& frame) {
    const Block& b = f_.block(frame.block);
    const Where bw{fid_, frame.block, -1};
    check_merge_input(frame, b, bw);
    check_declarations(b, bw);
    const std::size_t n = b.instructions.size();
    for (std::size_t i = 0; i < n; ++i) {
      const ir::Instruction& inst = b.instructions[i];
      const Where w{fid_, frame.block, static_cast<std::int32_t>(i)};
      check_instruction(ctx_, scopes_, inst, w);
      if (i + 1 < n) check_not_terminator(inst, w);
    }
    if (!check_ends_with_terminator(b, bw)) return;
    const ir::Instruction& term = b.instructions.back();
    const Where tw{fid_, frame.block, last_index(b)};
    const ir::OpcodeInfo& oi = ir::info(term.opcode);
    const bool operands_fit = term.operands.size() >= oi.min_operands && term.operands.size() <= oi.max_operands;
    check_control_flow(contexts_[frame.block.index()], term, operands_fit, tw);
    check_sub_blocks(b, term.opcode, tw);
  }

  // Exactly one terminator per block, at the end.
  void check_not_terminator(const ir::Instruction& inst, const Where& w) {
    if (ir::is_known(inst.opcode) && ir::is_terminator(inst.opcode))
      ctx_.report(
          fmt::format("{} in the middle of the block; a terminator is the block's last instruction", opcode_name(inst)),
          w);
  }
  bool check_ends_with_terminator(const Block& b, const Where& bw) {
    if (!b.instructions.empty() && ir::is_known(b.instructions.back().opcode) &&
        ir::is_terminator(b.instructions.back().opcode))
      return true;
    ctx_.report("the block has no terminator: its last instruction must be one", bw);
    return false;
  }

  void check_merge_input(const Frame& frame, const Block& b, const Where& bw) {
    const ir::RegisterId r = b.merge_input;
    if (!r.valid()) return;
    if (r.index() >= ctx_.m.register_count()) {
      ctx_.report(fmt::format("merge input r{} does not exist", r.index()), bw);
      return;
    }
    if (!frame.is_merge)
      ctx_.report(fmt::format("merge input r{} in a block that is not a merge block", r.index()), bw);
    else if (frame.reached_by != Opcode::If && !ir::is_loop(frame.reached_by))
      ctx_.report(fmt::format("merge input r{} in the merge block of a {}; only If and loop merge blocks take an input",
                              r.index(), ir::name(frame.reached_by)),
                  bw);
    scopes_.define_register(r, bw);
  }

  void check_declarations(const Block& b, const Where& bw) {
    for (ir::VariableId v : b.declarations) {
      if (!v.valid() || v.index() >= ctx_.m.variable_count()) {
        ctx_.report(fmt::format("declared variable {} does not exist", id_text('v', v.index())), bw);
        continue;
      }
      scopes_.declare_variable(v, bw);
    }
  }

  // Sub-blocks and merge block as the terminator requires (block.h).
  void check_sub_blocks(const Block& b, Opcode op, const Where& tw) {
    const auto& s = b.sub_blocks_storage;
    const bool has_storage = s[0].valid() || s[1].valid() || s[2].valid();
    const bool has_cases = !b.case_blocks.empty() || !b.cases.empty();
    const std::string_view name = ir::name(op);
    if (!ir::is_divergent(op)) {
      if (has_storage || has_cases || b.merge.valid())
        ctx_.report(fmt::format("{} has sub-blocks or a merge block; only If, Loop, DoLoop, Switch and NextBlock have "
                                "them",
                                name),
                    tw);
      return;
    }
    auto exists = [&](BlockId id, std::string_view what) {
      if (id.valid() && id.index() >= f_.blocks.size())
        ctx_.report(fmt::format("{} b{} does not exist", what, id.index()), tw);
    };
    if (!b.merge.valid()) ctx_.report(fmt::format("{} has no merge block", name), tw);
    exists(b.merge, "merge block");
    if (op != Opcode::Switch && has_cases) ctx_.report(fmt::format("{} has switch cases", name), tw);
    switch (op) {
      case Opcode::If:
        if (!s[0].valid()) ctx_.report("If has no true block", tw);
        exists(s[0], "true block");
        exists(s[1], "false block");
        if (s[2].valid()) ctx_.report("If has a third sub-block", tw);
        if (!s[1].valid() && b.merge.valid() && b.merge.index() < f_.blocks.size() &&
            f_.block(b.merge).merge_input.valid())
          ctx_.report(fmt::format("If without a false block, but its merge block b{} has an input: the false edge "
                                  "carries no value",
                                  b.merge.index()),
                      tw);
        break;
      case Opcode::Loop:
      case Opcode::DoLoop:
        if (!s[0].valid()) ctx_.report(fmt::format("{} has no condition block", name), tw);
        if (!s[1].valid()) ctx_.report(fmt::format("{} has no body block", name), tw);
        exists(s[0], "condition block");
        exists(s[1], "body block");
        exists(s[2], "continue block");
        break;
      case Opcode::Switch:
        check_switch_cases(b, tw);
        if (has_storage) ctx_.report("Switch has If or loop sub-blocks; its sub-blocks are its cases", tw);
        break;
      default:  // NextBlock
        if (has_storage) ctx_.report("NextBlock has sub-blocks; it has only a merge block", tw);
        break;
    }
  }

  void check_switch_cases(const Block& b, const Where& tw) {
    if (b.case_blocks.size() != b.cases.size())
      ctx_.report(fmt::format("Switch has {} case blocks for {} cases", b.case_blocks.size(), b.cases.size()), tw);
    for (std::size_t i = 0; i < b.case_blocks.size(); ++i) {
      const BlockId c = b.case_blocks[i];
      if (!c.valid())
        ctx_.report(fmt::format("Switch case {} has no block", i), tw);
      else if (c.index() >= f_.blocks.size())
        ctx_.report(fmt::format("case block b{} does not exist", c.index()), tw);
    }
    std::vector<std::uint32_t> values;
    std::size_t defaults = 0;
    for (const ir::SwitchCase& c : b.cases) {
      if (c.value)
        values.push_back(*c.value);
      else
        ++defaults;
    }
    if (defaults > 1) ctx_.report("Switch has more than one default case", tw);
    std::sort(values.begin(), values.end());
    const auto dup = std::adjacent_find(values.begin(), values.end());
    if (dup != values.end()) {
      const bool is_signed = ctx_.usable_operand_type(b.instructions.back().operands.empty()
                                                          ? ir::Operand()
                                                          : b.instructions.back().operands[0]) == ir::predefined::kInt;
      ctx_.report(is_signed ? fmt::format("Switch has duplicate case value {}", static_cast<std::int32_t>(*dup))
                            : fmt::format("Switch has duplicate case value {}", *dup),
                  tw);
    }
  }

  // Where each non-divergent terminator may appear, and the values that
  // Return, Merge and Break carry.
  // (The values are checked only when the operand count fits the opcode;
  // otherwise that is the problem reported.)
  void check_control_flow(const ir::BlockContext& c, const ir::Instruction& term, bool operands_fit, const Where& tw) {
    switch (term.opcode) {
      case Opcode::Return:
        if (c.in_any_continue) ctx_.report("Return inside a loop's continue chain", tw);
        if (operands_fit) check_return_value(term, tw);
        break;
      case Opcode::Break:
        if (!c.break_target.valid())
          ctx_.report("Break outside a loop or switch", tw);
        else if (c.break_forbidden())
          ctx_.report("Break inside a loop's continue chain", tw);
        else if (c.breaks_from_switch && !term.operands.empty())
          ctx_.report("Break out of a Switch carries a value; Switch merge blocks take no input", tw);
        else if (!c.breaks_from_switch && operands_fit)
          check_branch_value(term, c.break_target, "loop", tw);
        break;
      case Opcode::Continue:
        if (!c.loop.valid()) ctx_.report("Continue outside a loop", tw);
        break;
      case Opcode::Passthrough:
        if (c.chain_kind != BlockKind::SwitchCase)
          ctx_.report("Passthrough outside a switch case", tw);
        else if (c.case_index + 1 >= f_.block(c.construct).case_blocks.size())
          ctx_.report("Passthrough in the last case of a switch: there is no next case", tw);
        break;
      case Opcode::LoopIf:
        if (c.chain_kind != BlockKind::LoopCondition) ctx_.report("LoopIf outside a loop condition chain", tw);
        break;
      case Opcode::Merge:
        if (!c.in_if_chain())
          ctx_.report("Merge outside an If's sub-block chain", tw);
        else if (operands_fit)
          check_branch_value(term, c.merge_target, "If", tw);
        break;
      case Opcode::Discard:
        if (ctx_.m.shader().stage != ir::ShaderStage::Fragment)
          ctx_.report(fmt::format("Discard in a {} shader; only fragment shaders discard",
                                  ir::to_string(ctx_.m.shader().stage)),
                      tw);
        break;
      default: break;
    }
  }

  void check_branch_value(const ir::Instruction& term, BlockId target, const char* construct, const Where& tw) {
    if (!target.valid() || target.index() >= f_.blocks.size()) return;  // reported with the construct
    const ir::RegisterId input = f_.block(target).merge_input;
    const std::string_view op = ir::name(term.opcode);
    const bool has_value = !term.operands.empty();
    if (!input.valid()) {
      if (has_value)
        ctx_.report(
            fmt::format("{} carries a value, but the {} merge block b{} has no input", op, construct, target.index()),
            tw);
      return;
    }
    if (input.index() >= ctx_.m.register_count() || !ctx_.register_ok[input.index()]) return;
    const ir::TypeId input_type = ctx_.m.reg(input).type;
    if (!has_value) {
      ctx_.report(fmt::format("{} carries no value, but the {} merge block b{} has input r{} of type {}", op, construct,
                              target.index(), input.index(), ctx_.type_name(input_type)),
                  tw);
      return;
    }
    const ir::TypeId t = ctx_.usable_operand_type(term.operands[0]);
    if (t.valid() && t != input_type)
      ctx_.report(fmt::format("{} value has type {}, but merge input r{} has type {}", op, ctx_.type_name(t),
                              input.index(), ctx_.type_name(input_type)),
                  tw);
  }

  void check_return_value(const ir::Instruction& term, const Where& tw) {
    if (!ctx_.usable_type(f_.return_type)) return;  // reported with the signature
    const bool has_value = !term.operands.empty();
    if (f_.return_type == ir::predefined::kVoid) {
      if (has_value) ctx_.report("Return with a value in a function returning void", tw);
      return;
    }
    if (!has_value) {
      ctx_.report(fmt::format("Return without a value in a function returning {}", ctx_.type_name(f_.return_type)), tw);
      return;
    }
    const ir::TypeId t = ctx_.usable_operand_type(term.operands[0]);
    if (t.valid() && t != f_.return_type)
      ctx_.report(fmt::format("Return value has type {}, but the function returns {}", ctx_.type_name(t),
                              ctx_.type_name(f_.return_type)),
                  tw);
  }

  // A loop condition chain ends with LoopIf (or Unreachable, when nothing
  // reaches its end); a loop whose merge block has an input tests `true`.
  void check_chain_end(const Frame& frame) {
    const ir::BlockContext& c = contexts_[frame.block.index()];
    if (c.chain_kind != BlockKind::LoopCondition) return;
    const Block& b = f_.block(frame.block);
    const Opcode op = terminator(b);
    if (b.instructions.empty() || !ir::is_known(b.instructions.back().opcode) || ir::is_divergent(op) ||
        op == Opcode::Unreachable)
      return;  // no terminator, or the chain was cut short: reported already
    const Where tw{fid_, frame.block, last_index(b)};
    if (op != Opcode::LoopIf) {
      ctx_.report(fmt::format("the loop condition chain ends with {}; it must end with LoopIf", ir::name(op)), tw);
      return;
    }
    const Block& loop = f_.block(c.construct);
    if (!loop.merge.valid() || loop.merge.index() >= f_.blocks.size()) return;
    const ir::RegisterId input = f_.block(loop.merge).merge_input;
    const auto& operands = b.instructions.back().operands;
    if (input.valid() && !operands.empty() && ir::constant_bool(ctx_.m, operands[0]) != true)
      ctx_.report(fmt::format("the loop's merge block b{} has input r{}, so its condition must end with LoopIf true: "
                              "the loop is left only through Break with a value",
                              loop.merge.index(), input.index()),
                  tw);
  }

  Context& ctx_;
  const ir::FunctionId fid_;
  const ir::Function& f_;
  Scopes scopes_;
  const std::vector<ir::BlockContext> contexts_;  // the scope model: what each block's terminator may jump to
  std::vector<std::uint8_t> visited_;
  std::vector<Frame> stack_;
};

}  // namespace

void check_function_body(Context& ctx, ir::FunctionId f) { FunctionWalker(ctx, f).run(); }

}  // namespace sluice::validator::detail
