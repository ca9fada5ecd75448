// The text-form parser, part 3: functions, their block trees and
// instructions.
//
// The dump prints a function's blocks in visit() order: a block, then the
// chain of each of its sub-blocks, then its merge block. A connector line
// in front of each block says where it hangs: `+-> ___` one level up for a
// sub-block of the construct at that level, `V___` for the merge block of
// the construct at the block's own level, underscores alone for the entry.
// So one pass rebuilds the tree, keeping a stack of the open constructs
// (divergent blocks whose merge block has not come yet; depths strictly
// increase up the stack). Nothing recurses, however deep the nesting.
//
// The parser rebuilds whatever tree the text describes; a construct whose
// merge block never comes, or a block without a terminator, is left for the
// validator to report.
#include <limits>

#include <fmt/format.h>

#include "ir/parse_internal.h"
#include "ir/texture.h"

namespace sluice::ir::parse_detail {
namespace {

struct OpenConstruct {
  BlockId block;
  std::uint32_t depth = 0;
  Opcode opcode = Opcode::If;
  std::uint32_t next_slot = 0;  // sub-blocks come in slot order: true, false / condition, body, continue
};

enum class Connector { None, Entry, SubBlock, Merge };

bool is_underline(std::string_view s) { return !s.empty() && s.find_first_not_of('_') == std::string_view::npos; }

std::string indentation_message(std::uint32_t expected, std::uint32_t found) {
  return fmt::format("wrong indentation: expected depth {}, found depth {} (each level is '|   ')", expected,
                     found);
}

}  // namespace

bool Parser::parse_functions() {
  for (auto l = peek_line(); l; l = peek_line()) {
    Cursor c(l->text, l->number);
    const auto next = static_cast<std::uint32_t>(module_.function_count());
    if (!l->text.starts_with("  f"))
      return fail(l->number, 1,
                  fmt::format("expected a function header '  f{}: ...' or a block line indented by four spaces", next));
    Function f;
    if (!entry_id(c, 'f', next, "a function") || !parse_function_header(c, f)) return false;
    next_line();
    if (!parse_function_body(f)) return false;
    module_.add_function(std::move(f));
  }
  return true;
}

bool Parser::parse_function_header(Cursor& c, Function& f) {
  std::string_view name;
  if (!expect(c, ": ") || !quoted_name(c, name) || !expect(c, "(")) return false;
  // The dump does not print a function name's source; names print as-is.
  f.name = Name{std::string(name), NameSource::Internal};
  if (!c.consume(')')) {
    for (;;) {
      FunctionParam p;
      if (!variable_ref(c, p.variable) || !expect(c, " ")) return false;
      const std::uint32_t column = c.column();
      const std::string_view dir = c.word();
      if (dir == "in") {
        p.direction = ParamDirection::In;
      } else if (dir == "out") {
        p.direction = ParamDirection::Out;
      } else if (dir == "inout") {
        p.direction = ParamDirection::InOut;
      } else {
        return fail(c.line(), column, "expected a parameter direction: in, out or inout");
      }
      f.params.push_back(p);
      if (c.consume(')')) break;
      if (!expect(c, ", ")) return false;
    }
  }
  if (!expect(c, " -> ") || !type_ref(c, f.return_type))
    return false;
  if (c.consume(" [") && (!precision_word(c, f.return_precision) || !expect(c, "]"))) return false;
  return expect_end(c);
}

bool Parser::block_prefix(Cursor& c, std::uint32_t& depth) {
  c.advance(4);  // the caller saw the four spaces
  depth = 0;
  if (c.peek() == '|' && is_digit(c.peek(1))) {  // a deep line: "|<depth>|   "
    c.advance();
    return number(c, depth, "a depth") && expect(c, "|   ");
  }
  while (c.rest().starts_with("|   ")) {
    c.advance(4);
    ++depth;
  }
  return true;
}

bool Parser::parse_sub_block_title(Cursor& c, Opcode construct, std::uint32_t next_slot, std::uint32_t& slot,
                                   std::optional<SwitchCase>& case_label) {
  const std::string_view title = c.rest();
  const std::uint32_t title_column = c.column();
  bool fits = false;
  if (title == "If True Block:" || title == "If False Block:") {
    fits = construct == Opcode::If;
    slot = title == "If True Block:" ? 0 : 1;
  } else if (title == "Loop Condition:" || title == "Loop Body:" || title == "Loop Continue Block:") {
    fits = is_loop(construct);
    slot = title == "Loop Condition:" ? 0 : title == "Loop Body:" ? 1 : 2;
  } else if (title.starts_with("Case ") && title.ends_with(':')) {
    fits = construct == Opcode::Switch;
    slot = next_slot;
    c.advance(5);
    SwitchCase label;
    if (!c.consume("Default")) {
      // Signed for an int selector, unsigned for a uint one: either way the
      // label is kept as its 32-bit pattern.
      std::int64_t v = 0;
      if (!signed_number(c, v, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::uint32_t>::max(),
                         "a case label"))
        return false;
      label.value = static_cast<std::uint32_t>(v);
    }
    if (!expect(c, ":") || !expect_end(c)) return false;
    case_label = label;
  } else {
    return fail(c, "expected a sub-block title: 'If True Block:', 'If False Block:', 'Loop Condition:', 'Loop Body:', "
                   "'Loop Continue Block:', 'Case N:' or 'Case Default:'");
  }
  if (!fits)
    return fail(c.line(), title_column, fmt::format("a sub-block of {} cannot be titled '{}'", name(construct), title));
  if (slot < next_slot)
    return fail(c.line(), title_column, fmt::format("the {} already has a '{}' block or one that comes after it", name(construct),
                                         title));
  return true;
}

bool Parser::parse_function_body(Function& f) {
  std::vector<OpenConstruct> open;
  BlockId current;            // the block whose lines are being read
  std::uint32_t depth = 0;    // its depth
  bool current_closed = false;
  enum class Part { Declare, Input, Instructions } part = Part::Declare;
  Connector pending = Connector::None;  // a connector line was read; its block's title comes next
  std::uint32_t pending_line = 0;

  // A block ends at the next connector; a divergent terminator then opens
  // a construct that takes the sub-blocks and merge block that follow.
  auto close_current = [&] {
    if (!current.valid() || current_closed) return;
    current_closed = true;
    const auto op = f.block(current).terminator_opcode();
    if (op && is_divergent(*op)) open.push_back(OpenConstruct{current, depth, *op, 0});
  };
  auto start_block = [&](std::uint32_t block_depth) {
    current = f.add_block();
    depth = block_depth;
    current_closed = false;
    part = Part::Declare;
    pending = Connector::None;
    return current;
  };

  for (auto l = peek_line(); l && l->text.starts_with("    "); l = peek_line()) {
    next_line();
    Cursor c(l->text, l->number);
    std::uint32_t g = 0;
    if (!block_prefix(c, g)) return false;
    const std::string_view content = c.rest();
    if (content == "|") continue;  // the spacer above a connector

    if (pending == Connector::Entry) {
      if (g != 0) return fail(c, indentation_message(0, g));
      if (content != "Entry To Function:") return fail(c, "expected 'Entry To Function:'");
      f.entry = start_block(0);
      continue;
    }
    if (pending == Connector::SubBlock) {
      const OpenConstruct top = open.back();
      if (g != top.depth + 1) return fail(c, indentation_message(top.depth + 1, g));
      std::uint32_t slot = 0;
      std::optional<SwitchCase> label;
      if (!parse_sub_block_title(c, top.opcode, top.next_slot, slot, label)) return false;
      const BlockId sub = start_block(g);
      Block& parent = f.block(top.block);
      if (label) {
        parent.case_blocks.push_back(sub);
        parent.cases.push_back(*label);
      } else {
        parent.sub_blocks_storage[slot] = sub;
      }
      open.back().next_slot = slot + 1;
      continue;
    }
    if (pending == Connector::Merge) {
      const OpenConstruct top = open.back();
      if (g != top.depth) return fail(c, indentation_message(top.depth, g));
      if (content != "Merge Block:") return fail(c, "expected 'Merge Block:'");
      const BlockId merge = start_block(g);
      f.block(top.block).merge = merge;
      open.pop_back();
      continue;
    }

    if (is_underline(content)) {
      if (current.valid())
        return fail(c, "a function has one entry block; a sub-block starts with '+-> ___', a merge block with 'V___'");
      if (g != 0) return fail(c, indentation_message(0, g));
      pending = Connector::Entry;
      pending_line = l->number;
      continue;
    }
    const bool sub_connector = content.starts_with("+->");
    if (sub_connector || (content.starts_with('V') && is_underline(content.substr(1)))) {
      if (sub_connector && !(content.starts_with("+-> ") && is_underline(content.substr(4))))
        return fail(c, "expected '+-> ' followed by underscores");
      if (!current.valid()) return fail(c, "expected the entry block first: a line of underscores");
      close_current();
      // Constructs deeper than this connector got no merge block.
      while (!open.empty() && open.back().depth > g) open.pop_back();
      if (open.empty() || open.back().depth != g)
        return fail(c, sub_connector ? "no If, Loop, DoLoop or Switch at this depth for this sub-block to belong to"
                                     : "no If, Loop, DoLoop, Switch or NextBlock at this depth for this merge block "
                                       "to belong to");
      if (sub_connector && open.back().opcode == Opcode::NextBlock)
        return fail(c, "NextBlock has no sub-blocks, only a merge block");
      pending = sub_connector ? Connector::SubBlock : Connector::Merge;
      pending_line = l->number;
      continue;
    }

    // A line of the current block: Declare:, Input:, then instructions.
    if (!current.valid())
      return fail(l->number, 1, "expected the entry block: a line of underscores, then 'Entry To Function:'");
    if (g != depth) return fail(c, indentation_message(depth, g));
    Block& b = f.block(current);
    if (content.starts_with("Declare:")) {
      if (part != Part::Declare) return fail(c, "'Declare:' comes first in a block, once");
      if (!parse_declare(c, b)) return false;
      part = Part::Input;
    } else if (content.starts_with("Input:")) {
      if (part == Part::Instructions) return fail(c, "'Input:' comes before the block's instructions, once");
      if (!parse_input(c, b)) return false;
      part = Part::Instructions;
    } else {
      Instruction inst;
      if (!parse_instruction(c, inst)) return false;
      b.instructions.push_back(std::move(inst));
      part = Part::Instructions;
    }
  }
  if (pending != Connector::None) {
    const std::string message = fmt::format("expected the title of the block begun on line {}", pending_line);
    auto l = peek_line();
    return l ? fail(l->number, 1, message) : fail_at_end(fmt::format("the title of the block begun on line {}",
                                                                     pending_line));
  }
  return true;
}

bool Parser::parse_declare(Cursor& c, Block& b) {
  if (!expect(c, "Declare: ")) return false;
  for (;;) {
    VariableId v;
    if (!variable_ref(c, v)) return false;
    b.declarations.push_back(v);
    if (c.at_end()) return true;
    if (!expect(c, ", ")) return false;
  }
}

bool Parser::parse_input(Cursor& c, Block& b) {
  if (!expect(c, "Input: ")) return false;
  const std::uint32_t column = c.column();
  std::uint32_t n = 0;
  RegisterInfo info;
  if (!id(c, 'r', n, "a register id (rN)") || !expect(c, " (") ||
      !type_ref(c, info.type) || !expect(c, ")"))
    return false;
  if (c.consume(" [") && (!precision_word(c, info.precision) || !expect(c, "]"))) return false;
  if (!expect_end(c) || !define_register(n, info, c.line(), column)) return false;
  b.merge_input = RegisterId(n);
  return true;
}

// [rN (tT) =] Opcode operand* [( operand, ... )] [[precision]]
bool Parser::parse_instruction(Cursor& c, Instruction& inst) {
  c.skip_spaces();
  std::optional<std::uint32_t> result;
  std::uint32_t result_column = 0;
  RegisterInfo result_info;
  if (c.peek() == 'r' && is_digit(c.peek(1))) {
    result_column = c.column();
    std::uint32_t n = 0;
    if (!id(c, 'r', n, "a register id (rN)")) return false;
    c.skip_spaces();
    if (!expect(c, "(") || !type_ref(c, result_info.type) ||
        !expect(c, ")"))
      return false;
    c.skip_spaces();
    if (!expect(c, "=")) return false;
    c.skip_spaces();
    result = n;
  }
  const std::uint32_t opcode_column = c.column();
  const std::string_view opcode_name = c.word();
  if (opcode_name.empty()) return fail(c, "expected an instruction: [rN (tT) =] Opcode operands");
  if (auto op = opcode_from_name(opcode_name)) {
    inst.opcode = *op;
  } else if (auto flags = texture_flags_from_name(opcode_name)) {
    inst.opcode = Opcode::Texture;
    inst.aux = *flags;
  } else {
    return fail(c.line(), opcode_column, fmt::format("unknown opcode '{}'", opcode_name));
  }
  const bool variadic = info(inst.opcode).variadic_tail;
  bool tail_read = false;
  for (;;) {
    const std::uint32_t before = c.column();
    c.skip_spaces();
    if (c.at_end()) break;
    if (c.column() == before) return fail(c, "expected a space between operands");
    if (c.consume('[')) {
      // The result's precision ends the line.
      if (!result) return fail(c.line(), c.column() - 1, "an instruction without a result has no precision");
      if (!precision_word(c, result_info.precision) || !expect(c, "]")) return false;
      c.skip_spaces();
      if (!expect_end(c)) return false;
      break;
    }
    if (tail_read) return fail(c, "the parenthesised operand list comes last");
    if (c.peek() == '(') {
      if (!variadic) return fail(c, fmt::format("{} takes no parenthesised operand list", opcode_name));
      c.advance();
      c.skip_spaces();
      if (!c.consume(')')) {
        for (;;) {
          Operand o;
          if (!parse_operand(c, o)) return false;
          inst.operands.push_back(o);
          c.skip_spaces();
          if (c.consume(')')) break;
          if (!expect(c, ",")) return false;
          c.skip_spaces();
        }
      }
      tail_read = true;
      continue;
    }
    Operand o;
    if (!parse_operand(c, o)) return false;
    inst.operands.push_back(o);
  }
  if (variadic && !tail_read)
    return fail(c.line(), opcode_column,
                fmt::format("{} needs its parenthesised operand list, '()' if empty", opcode_name));
  if (result) {
    if (!define_register(*result, result_info, c.line(), result_column)) return false;
    inst.result = RegisterId(*result);
  }
  return true;
}

// rN, cN (with an optional context precision, re-derived by the dump and
// ignored here), vN, fN, or a literal number.
bool Parser::parse_operand(Cursor& c, Operand& out) {
  const std::uint32_t column = c.column();
  const char kind = c.peek();
  std::uint32_t n = 0;
  if (is_digit(kind)) {
    if (!number(c, n, "a literal")) return false;
    if (n > Operand::kMaxValue)
      return fail(c.line(), column, fmt::format("literal {} is too large (at most {})", n, Operand::kMaxValue));
    out = Operand::literal(n);
    return true;
  }
  if ((kind != 'r' && kind != 'c' && kind != 'v' && kind != 'f') || !is_digit(c.peek(1)))
    return fail(c, "expected an operand: rN, cN, vN, fN or a number");
  c.advance();
  if (!number(c, n, "an id", column)) return false;
  switch (kind) {
    case 'r':
      if (n >= register_limit_)
        return fail(c.line(), column, fmt::format("r{} is too large an id for a text of {} bytes", n, text_.size()));
      if (n >= registers_.size() || !registers_[n].defined()) register_uses_.push_back({n, c.line(), column});
      out = RegisterId(n);
      return true;
    case 'c':
      if (n >= module_.constant_count()) return fail(c.line(), column, fmt::format("c{} does not exist", n));
      out = ConstantId(n);
      if (c.consume('[')) {
        Precision ignored = Precision::None;
        return precision_word(c, ignored) && expect(c, "]");
      }
      return true;
    case 'v':
      if (n >= module_.variable_count()) return fail(c.line(), column, fmt::format("v{} does not exist", n));
      out = VariableId(n);
      return true;
    default:
      // Functions may be called before the line that defines them.
      if (n > Operand::kMaxValue) return fail(c.line(), column, fmt::format("f{} does not exist", n));
      if (n >= module_.function_count()) function_uses_.push_back({n, c.line(), column});
      out = FunctionId(n);
      return true;
  }
}

bool Parser::define_register(std::uint32_t id, const RegisterInfo& info, std::uint32_t line, std::uint32_t column) {
  if (id >= register_limit_)
    return fail(line, column, fmt::format("r{} is too large an id for a text of {} bytes", id, text_.size()));
  if (id >= registers_.size()) registers_.resize(id + 1);  // grows geometrically: amortised O(1)
  RegisterDefinition& r = registers_[id];
  if (r.defined()) {
    // The same instruction printed twice (malformed IR) reads back; two
    // different definitions cannot share one register table entry.
    if (r.info.type != info.type || r.info.precision != info.precision)
      return fail(line, column, fmt::format("r{} is already defined differently on line {}", id, r.line));
    return true;
  }
  r.info = info;
  r.line = line;
  return true;
}

}  // namespace sluice::ir::parse_detail
