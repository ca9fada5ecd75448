// The traversal and rewriting helpers; transformer.h states their contracts
// and the algorithm of the instruction rewriting.
#include "transform/transformer.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "ir/traversal.h"
#include "ir/typing.h"

namespace sluice::transform {

using namespace ir;

void for_each_block(Module& m, FunctionId fid, BlockId start, BlockKind start_kind, const BlockCallback& before,
                    const BlockCallback& after) {
  enum class State : std::uint8_t { Enter, SubBlocks };
  struct Frame {
    BlockId block;
    BlockKind kind;
    std::uint32_t depth;
    State state;
    std::uint32_t next_sub;
    std::vector<std::pair<BlockId, BlockKind>> subs;
  };
  // A block is walked once even if malformed IR refers to it twice; the
  // table may grow while we walk, so `seen` grows with it.
  std::vector<bool> seen;
  auto claim = [&](BlockId b) {
    const Function& f = m.function(fid);
    if (!b.valid() || b.index() >= f.blocks.size()) return false;
    if (seen.size() < f.blocks.size()) seen.resize(f.blocks.size());
    if (seen[b.index()]) return false;
    seen[b.index()] = true;
    return true;
  };
  std::vector<Frame> stack;
  if (!claim(start)) return;
  stack.push_back(Frame{start, start_kind, 0, State::Enter, 0, {}});
  while (!stack.empty()) {
    const std::size_t top = stack.size() - 1;
    if (stack[top].state == State::Enter) {
      const BlockSite site{fid, stack[top].block, stack[top].kind, stack[top].depth};
      const BlockId resume = before(site);
      if (resume != site.block) {
        // Skip to a later block of the merge chain; it is entered afresh.
        if (!claim(resume)) {
          stack.pop_back();
          continue;
        }
        stack[top].block = resume;
        stack[top].kind = BlockKind::Merge;
        continue;
      }
      const Block& b = m.function(fid).block(site.block);
      const auto op = b.terminator_opcode();
      stack[top].subs.clear();
      if (op && is_divergent(*op)) stack[top].subs = b.sub_blocks_with_kind();
      stack[top].state = State::SubBlocks;
      stack[top].next_sub = 0;
    }
    if (stack[top].next_sub < stack[top].subs.size()) {
      const auto [sub, kind] = stack[top].subs[stack[top].next_sub++];
      if (claim(sub)) stack.push_back(Frame{sub, kind, stack[top].depth + 1, State::Enter, 0, {}});
      continue;
    }
    const BlockSite site{fid, stack[top].block, stack[top].kind, stack[top].depth};
    const BlockId from = after(site);
    const Function& f = m.function(fid);
    if (from.valid() && from.index() < f.blocks.size()) {
      const Block& b = f.block(from);
      const auto op = b.terminator_opcode();
      if (op && is_divergent(*op) && claim(b.merge)) {
        stack[top] = Frame{b.merge, BlockKind::Merge, stack[top].depth, State::Enter, 0, {}};
        continue;
      }
    }
    stack.pop_back();
  }
}

void for_each_block(Module& m, FunctionId f, const BlockCallback& before, const BlockCallback& after) {
  for_each_block(m, f, m.function(f).entry, BlockKind::FunctionEntry, before, after);
}

Status for_each_function(Module& m, const std::function<bool(FunctionId)>& prepare,
                         const std::function<Status(FunctionId, BlockId)>& transform) {
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    const FunctionId f(i);
    if (!prepare(f)) continue;
    if (auto s = transform(f, m.function(f).entry); !s) return s;
  }
  return ok();
}

void move_structure(Block& from, Block& to) {
  std::copy(std::begin(from.sub_blocks_storage), std::end(from.sub_blocks_storage), std::begin(to.sub_blocks_storage));
  to.case_blocks = std::move(from.case_blocks);
  to.cases = std::move(from.cases);
  to.merge = from.merge;
  std::fill(std::begin(from.sub_blocks_storage), std::end(from.sub_blocks_storage), BlockId{});
  from.case_blocks.clear();
  from.cases.clear();
  from.merge = BlockId{};
}

namespace {

// Rewrites the instructions of one block. Returns the block that holds the
// original terminator at the end (the block itself unless an AddBlock split
// it).
Result<BlockId> rewrite_block(Module& m, FunctionId fid, BlockId x, const InstructionCallback& callback) {
  std::vector<Instruction> old = std::move(m.function(fid).block(x).instructions);
  Block saved_structure;
  {
    Block& b = m.function(fid).block(x);
    b.instructions.clear();
    b.instructions.reserve(old.size());
    move_structure(b, saved_structure);
  }
  BlockId current = x;
  auto finish = [&](std::size_t from_index) {
    // Whatever was not processed (on error) goes back unchanged, so the
    // function stays well formed.
    Block& b = m.function(fid).block(current);
    for (std::size_t j = from_index; j < old.size(); ++j) b.instructions.push_back(std::move(old[j]));
    move_structure(saved_structure, b);
  };
  InstructionSite site{m, fid, current, false};
  for (std::size_t i = 0; i < old.size(); ++i) {
    site.block = current;
    site.is_terminator = i + 1 == old.size() && is_terminator(old[i].opcode);
    Transforms ts = callback(site, old[i]);
    if (ts.empty()) {
      m.function(fid).block(current).instructions.push_back(std::move(old[i]));
      continue;
    }
    // Check the whole list before applying any of it, so that an error
    // leaves the instruction where it was.
    boost::container::small_vector<BlockId, 1> tails;
    auto refuse = [&](std::string why) -> Result<BlockId> {
      finish(i);
      return Error{fmt::format("transform of block {} of '{}': {}", x.index(), m.function(fid).name.text, why)};
    };
    if (site.is_terminator && ts.back().kind() != Transform::Kind::Keep)
      return refuse(fmt::format("a terminator ({}) can only be prepended to", name(old[i].opcode)));
    for (const Transform& t : ts) {
      if (t.kind() == Transform::Kind::Add && is_terminator(t.instruction().opcode))
        return refuse(fmt::format("Add of the terminator {}", name(t.instruction().opcode)));
      if (t.kind() != Transform::Kind::AddBlock) continue;
      const Function& f = m.function(fid);
      const BlockId added = t.block();
      if (!added.valid() || added.index() >= f.blocks.size() || added == current || added == x)
        return refuse("AddBlock of a block that does not exist");
      // The last block of the added chain must be open.
      BlockId tail = added;
      for (std::size_t steps = 0;; ++steps) {
        const auto op = f.block(tail).terminator_opcode();
        if (!op || !is_terminator(*op)) break;
        if (!is_divergent(*op) || steps > f.blocks.size() || !f.block(tail).merge.valid() ||
            f.block(tail).merge.index() >= f.blocks.size())
          return refuse("the chain added by AddBlock must end in an open block");
        tail = f.block(tail).merge;
      }
      tails.push_back(tail);
    }
    std::size_t next_tail = 0;
    for (Transform& t : ts) {
      Function& f = m.function(fid);
      switch (t.kind()) {
        case Transform::Kind::Keep: f.block(current).instructions.push_back(old[i]); break;
        case Transform::Kind::Remove: break;
        case Transform::Kind::Add: f.block(current).instructions.push_back(std::move(t.instruction())); break;
        case Transform::Kind::DeclareVariable: f.block(current).declarations.push_back(t.variable()); break;
        case Transform::Kind::AddBlock: {
          const BlockId added = t.block();
          const BlockId tail = tails[next_tail++];
          Block moved = std::move(f.block(added));
          f.block(added) = Block{};
          Block& cur = f.block(current);
          cur.declarations.insert(cur.declarations.end(), moved.declarations.begin(), moved.declarations.end());
          for (Instruction& inst : moved.instructions) cur.instructions.push_back(std::move(inst));
          if (tail != added) {
            move_structure(moved, cur);
            current = tail;
          }
          break;
        }
      }
    }
  }
  finish(old.size());
  return current;
}

}  // namespace

Status transform_block(Module& m, FunctionId fid, BlockId start, const InstructionCallback& callback) {
  std::vector<bool> done;  // blocks an AddBlock split already filled
  std::optional<Error> failure;
  auto is_done = [&](BlockId b) { return b.index() < done.size() && done[b.index()]; };
  auto before = [&](const BlockSite& site) -> BlockId {
    if (failure || is_done(site.block)) return site.block;
    auto last = rewrite_block(m, fid, site.block, callback);
    if (!last) {
      failure = last.failure();
      return site.block;
    }
    if (*last == site.block) return site.block;
    if (done.size() <= last->index()) done.resize(m.function(fid).blocks.size());
    done[last->index()] = true;
    return *last;
  };
  auto after = [](const BlockSite& site) { return site.block; };
  const BlockKind kind = start == m.function(fid).entry ? BlockKind::FunctionEntry : BlockKind::Merge;
  for_each_block(m, fid, start, kind, before, after);
  if (failure) return *failure;
  return ok();
}

Status for_each_instruction(Module& m, const InstructionCallback& callback) {
  return transform::for_each_function(
      m, [](FunctionId) { return true; },
      [&](FunctionId f, BlockId entry) { return transform_block(m, f, entry, callback); });
}

namespace {

Instruction assemble(Opcode op, RegisterId result, std::span<const Operand> operands, std::uint16_t aux) {
  Instruction inst;
  inst.opcode = op;
  inst.aux = aux;
  inst.result = result;
  inst.operands.assign(operands.begin(), operands.end());
  return inst;
}

}  // namespace

Result<Instruction> make(Module& m, Opcode op, std::span<const Operand> operands, TypeId explicit_type,
                         std::optional<Precision> precision, std::uint16_t aux) {
  if (is_terminator(op)) return Error{fmt::format("make: {} is a terminator", name(op))};
  auto type = infer_result_type(m, op, aux, operands, explicit_type);
  if (!type) return type.failure();
  RegisterId result;
  if (*type != predefined::kVoid) result = m.new_register(*type, result_precision(m, *type, operands, precision));
  return assemble(op, result, operands, aux);
}

Result<Instruction> make_with_result_id(Module& m, Opcode op, RegisterId result, std::span<const Operand> operands,
                                        std::uint16_t aux) {
  if (is_terminator(op)) return Error{fmt::format("make_with_result_id: {} is a terminator", name(op))};
  if (!result.valid() || result.index() >= m.register_count())
    return Error{"make_with_result_id: the result register does not exist"};
  const TypeId want = m.reg(result).type;
  auto type = infer_result_type(m, op, aux, operands, want);
  if (!type) return type.failure();
  if (*type != want)
    return Error{fmt::format("make_with_result_id: {} gives {}, but r{} is {}", name(op), describe_type(m, *type),
                             result.index(), describe_type(m, want))};
  return assemble(op, result, operands, aux);
}

Result<Instruction> make_alias(Module& m, RegisterId result, Operand value) {
  const Operand ops[] = {value};
  return make_with_result_id(m, Opcode::Alias, result, ops);
}

RegisterId assign_new_register_to_instruction(Module& m, Instruction& inst) {
  if (!inst.result.valid()) return {};
  const RegisterInfo info = m.reg(inst.result);
  inst.result = m.new_register(info.type, info.precision);
  return inst.result;
}

void collect_subtree(const Function& f, BlockId start, std::vector<bool>& claimed, std::vector<BlockId>& out) {
  std::vector<BlockId> stack{start};
  while (!stack.empty()) {
    const BlockId b = stack.back();
    stack.pop_back();
    if (!b.valid() || b.index() >= f.blocks.size() || b.index() >= claimed.size() || claimed[b.index()]) continue;
    claimed[b.index()] = true;
    out.push_back(b);
    const Block& blk = f.block(b);
    const auto op = blk.terminator_opcode();
    if (!op || !is_divergent(*op)) continue;
    stack.push_back(blk.merge);
    for (BlockId s : blk.sub_blocks()) stack.push_back(s);
  }
}

bool compact_blocks(Function& f) {
  if (!f.entry.valid() || f.entry.index() >= f.blocks.size()) return false;
  std::vector<BlockId> order;
  order.reserve(f.blocks.size());
  visit(f, [&](const BlockVisit& v, const Block&) {
    order.push_back(v.id);
    return VisitAction::VisitSubBlocks;
  });
  bool identity = order.size() == f.blocks.size();
  for (std::size_t i = 0; identity && i < order.size(); ++i) identity = order[i].index() == i;
  if (identity) return false;
  std::vector<BlockId> renumber(f.blocks.size());
  for (std::size_t i = 0; i < order.size(); ++i) renumber[order[i].index()] = BlockId(static_cast<std::uint32_t>(i));
  auto map = [&](BlockId b) {
    return b.valid() && b.index() < renumber.size() ? renumber[b.index()] : BlockId{};
  };
  std::vector<Block> blocks;
  blocks.reserve(order.size());
  for (BlockId old : order) {
    Block b = std::move(f.blocks[old.index()]);
    for (BlockId& s : b.sub_blocks_storage) s = map(s);
    for (BlockId& s : b.case_blocks) s = map(s);
    b.merge = map(b.merge);
    blocks.push_back(std::move(b));
  }
  f.blocks = std::move(blocks);
  f.entry = BlockId(0);
  return true;
}

void compact_blocks(Module& m) {
  for (std::uint32_t i = 0; i < m.function_count(); ++i) compact_blocks(m.function(FunctionId(i)));
}

}  // namespace sluice::transform
