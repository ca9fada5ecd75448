// The IR's compact containers. OperandList: a std::vector of Operands that
// keeps up to three inline; the cases cross the inline/heap boundary in both
// directions and insert or assign from ranges inside the list itself.
// CompactVector: Block's switch-only lists, which must keep working as the
// std::vectors they replace.
#include <catch2/catch.hpp>

#include <span>
#include <utility>
#include <vector>

#include "ir/block.h"
#include "ir/instruction.h"

using namespace sluice::ir;

namespace {

const Operand a(RegisterId(1)), b(ConstantId(2)), c(VariableId(3)), d = Operand::literal(4), e(FunctionId(5));

std::vector<Operand> items(const OperandList& l) { return {l.begin(), l.end()}; }

}  // namespace

TEST_CASE("OperandList: inline up to three, then the heap") {
  static_assert(sizeof(OperandList) == 16);
  static_assert(std::ranges::contiguous_range<OperandList>);
  OperandList l;
  CHECK(l.empty());
  CHECK(l.capacity() == OperandList::kInlineCapacity);
  l.push_back(a);
  l.emplace_back(ConstantId(2));
  l.push_back(c);
  CHECK(l.capacity() == 3);
  l.push_back(d);
  CHECK(l.capacity() > 3);
  CHECK(items(l) == std::vector<Operand>{a, b, c, d});
  CHECK(l.front() == a);
  CHECK(l.back() == d);
  CHECK(std::span<const Operand>(l).size() == 4);
  l.pop_back();
  l.shrink_to_fit();
  CHECK(l.capacity() == 3);
  CHECK(items(l) == std::vector<Operand>{a, b, c});
  CHECK_THROWS_AS(l.at(3), std::out_of_range);
}

TEST_CASE("OperandList: copies are deep, moves steal") {
  OperandList heap{a, b, c, d, e};
  OperandList copy = heap;
  copy[0] = e;
  CHECK(heap[0] == a);
  CHECK(copy.capacity() == 5);
  OperandList moved = std::move(copy);
  CHECK(moved[0] == e);
  CHECK(copy.empty());  // NOLINT(bugprone-use-after-move): a moved-from list is empty
  OperandList small{a};
  small = heap;
  CHECK(small == heap);
  small = OperandList{b};
  CHECK(items(small) == std::vector<Operand>{b});
  swap(small, heap);
  CHECK(small.size() == 5);
  CHECK(heap.size() == 1);
  static_assert(std::is_nothrow_move_constructible_v<OperandList>);
}

TEST_CASE("OperandList: insert, erase, assign and resize, from itself too") {
  OperandList l{a, b};
  l.insert(l.begin() + 1, c);
  CHECK(items(l) == std::vector<Operand>{a, c, b});
  l.insert(l.end(), l.begin(), l.end());
  CHECK(items(l) == std::vector<Operand>{a, c, b, a, c, b});
  l.erase(l.begin() + 1, l.begin() + 4);
  CHECK(items(l) == std::vector<Operand>{a, c, b});
  l.erase(l.begin());
  CHECK(items(l) == std::vector<Operand>{c, b});
  l.assign({a, b, c, d});
  l.assign(l.begin() + 1, l.end());
  CHECK(items(l) == std::vector<Operand>{b, c, d});
  l.insert(l.begin(), 2, e);
  CHECK(items(l) == std::vector<Operand>{e, e, b, c, d});
  l.resize(2);
  l.resize(4, a);
  CHECK(items(l) == std::vector<Operand>{e, e, a, a});
  l.clear();
  CHECK(l.empty());
  const std::vector<Operand> v{d, c, b, a};
  CHECK(OperandList(v.begin(), v.end()) == OperandList{d, c, b, a});
  CHECK(OperandList{a} != OperandList{b});
}

TEST_CASE("Instruction: 28 bytes, moved when a block grows") {
  static_assert(std::is_nothrow_move_constructible_v<Instruction>);
  std::vector<Instruction> block;
  for (std::uint32_t i = 0; i < 100; ++i) {
    Instruction inst;
    inst.operands = {RegisterId(i), ConstantId(i), VariableId(i), Operand::literal(i)};
    block.push_back(std::move(inst));
  }
  const std::vector<Instruction> copy = block;
  CHECK(copy[99].operands == block[99].operands);
  CHECK(copy[99].operands.data() != block[99].operands.data());
  CHECK(copy[42].operands[3] == Operand::literal(42));
}

TEST_CASE("CompactVector: Block's case lists behave as std::vectors") {
  static_assert(sizeof(CompactVector<SwitchCase>) == sizeof(void*));
  Block b;
  CHECK(b.case_blocks.empty());
  CHECK(b.case_blocks.begin() == b.case_blocks.end());
  const std::vector<BlockId> ids{BlockId(1), BlockId(2), BlockId(3)};
  b.case_blocks = ids;
  CHECK(std::vector<BlockId>(b.case_blocks) == ids);
  b.cases.push_back(SwitchCase{1u});
  b.cases.push_back(SwitchCase{});
  b.cases.push_back(b.cases[0]);  // an element of the list itself
  b.cases.push_back(b.cases[0]);
  b.cases.push_back(b.cases[0]);
  b.cases.pop_back();
  b.cases.pop_back();
  b.cases[2].value = 7u;
  const std::vector<SwitchCase> cases = b.cases;
  CHECK(cases == std::vector<SwitchCase>{{1u}, {}, {7u}});

  Block copy = b;
  for (BlockId& id : copy.case_blocks) id = BlockId(id.index() + 10);
  CHECK(b.case_blocks[0] == BlockId(1));
  CHECK(copy.case_blocks[0] == BlockId(11));
  Block moved = std::move(copy);
  CHECK(copy.case_blocks.empty());  // NOLINT(bugprone-use-after-move): a moved-from list is empty
  CHECK(std::span<const BlockId>(moved.case_blocks).size() == 3);

  moved.case_blocks.insert(moved.case_blocks.begin() + 1, BlockId(5));
  moved.case_blocks.erase(moved.case_blocks.begin());
  CHECK(std::vector<BlockId>(moved.case_blocks) == std::vector<BlockId>{BlockId(5), BlockId(12), BlockId(13)});
  moved.case_blocks.assign(moved.case_blocks.begin() + 1, moved.case_blocks.end());
  CHECK(std::vector<BlockId>(moved.case_blocks) == std::vector<BlockId>{BlockId(12), BlockId(13)});
  moved.cases.resize(5);
  CHECK_FALSE(moved.cases[4].value.has_value());
  moved.cases.clear();
  CHECK(moved.cases.empty());
}
