// validate(): runs the checks in dependency order (tables first, so that
// the function walks only meet usable types), and describe(), which points
// a problem into ir-dump's output.
#include "validator/validator.h"

#include <fmt/format.h>

#include "ir/dump.h"
#include "ir/structure.h"
#include "ir/typing.h"
#include "validator/context.h"
#include "validator/instruction_checks.h"

namespace sluice::validator {
namespace detail {

std::string id_text(char prefix, std::uint32_t index) {
  if (index == kNone) return "<none>";
  return fmt::format("{}{}", prefix, index);
}

Context::Context(const ir::Module& module, const Options& opts)
    : m(module),
      options(opts),
      entry(module.entry_point()),
      type_ok(module.type_count(), 0),
      constant_ok(module.constant_count(), 0),
      variable_ok(module.variable_count(), 0),
      register_ok(module.register_count(), 0),
      function_ok(module.function_count(), 0),
      is_global(module.variable_count(), 0),
      param_of(module.variable_count(), kNone),
      variable_declared(module.variable_count(), 0),
      register_defined_in(module.register_count(), kNone),
      register_visible(module.register_count(), 0),
      variable_visible(module.variable_count(), 0),
      callees(module.function_count()) {}

std::size_t Context::report(std::string message, const Where& where) {
  if (problems.size() >= options.max_problems) return kNone;
  problems.push_back(Problem{std::move(message), where.function, where.block, where.instruction});
  return problems.size() - 1;
}

std::string Context::type_name(ir::TypeId t) const {
  if (usable_type(t)) return ir::describe_type(m, t);
  return id_text('t', t.index());
}

std::string Context::function_name(ir::FunctionId f) const {
  if (!f.valid() || f.index() >= m.function_count()) return id_text('f', f.index());
  return fmt::format("f{} '{}'", f.index(), m.function(f).name.text);
}

ir::TypeId Context::usable_operand_type(ir::Operand op) const {
  const std::uint32_t i = op.value();
  switch (op.kind()) {
    case ir::Operand::Kind::Register:
      return i < register_ok.size() && register_ok[i] ? m.reg(op.as_register()).type : ir::TypeId{};
    case ir::Operand::Kind::Constant:
      return i < constant_ok.size() && constant_ok[i] ? m.constant(op.as_constant()).type : ir::TypeId{};
    case ir::Operand::Kind::Variable:
      return i < variable_ok.size() && variable_ok[i] ? m.variable(op.as_variable()).type : ir::TypeId{};
    default: return {};
  }
}

}  // namespace detail

std::vector<Problem> validate(const ir::Module& m) { return validate(m, Options{}); }

std::vector<Problem> validate(const ir::Module& m, const Options& options) {
  detail::Context ctx(m, options);
  detail::check_types(ctx);
  detail::check_types_interned(ctx);
  detail::check_constants(ctx);
  detail::check_registers(ctx);
  detail::check_variables(ctx);
  detail::check_globals(ctx);
  detail::check_function_signatures(ctx);
  detail::check_entry_point(ctx);
  for (std::uint32_t i = 0; i < m.function_count(); ++i) detail::check_function_body(ctx, ir::FunctionId(i));
  detail::resolve_pending_uses(ctx);
  detail::check_no_recursion(ctx);
  detail::check_stage(ctx);
  detail::check_read_only_variables(ctx);
  return std::move(ctx.problems);
}

namespace {

// The dump's title of each block of one function, without the colon:
// "Loop Body", "Case 3", "Case Default".
class BlockTitles {
 public:
  BlockTitles(const ir::Module& m, const ir::Function& f) : m_(m), f_(f), ctx_(ir::compute_block_contexts(f)) {}

  std::string title(ir::BlockId b) const {
    if (b.index() >= ctx_.size()) return "unknown";
    const ir::BlockContext& c = ctx_[b.index()];
    if (!c.reachable) return "unreachable";
    if (c.kind == ir::BlockKind::SwitchCase) return case_title(b, c.construct);
    std::string t = ir::block_title(c.kind);
    if (!t.empty() && t.back() == ':') t.pop_back();
    return t;
  }

 private:
  std::string case_title(ir::BlockId b, ir::BlockId construct) const {
    if (!construct.valid() || construct.index() >= f_.blocks.size()) return "Case ?";
    const ir::Block& parent = f_.block(construct);
    for (std::size_t i = 0; i < parent.case_blocks.size() && i < parent.cases.size(); ++i) {
      if (parent.case_blocks[i] != b) continue;
      const auto& value = parent.cases[i].value;
      if (!value) return "Case Default";
      const auto& term = parent.instructions;
      const bool is_signed =
          !term.empty() && !term.back().operands.empty() && m_.type_of(term.back().operands[0]) == ir::predefined::kInt;
      return is_signed ? fmt::format("Case {}", static_cast<std::int32_t>(*value)) : fmt::format("Case {}", *value);
    }
    return "Case ?";
  }

  const ir::Module& m_;
  const ir::Function& f_;
  std::vector<ir::BlockContext> ctx_;
};

// dump_instruction() looks the opcode up in the opcode table; a garbage
// opcode is spelled here instead.
std::string instruction_text(const ir::Module& m, const ir::Instruction& inst) {
  if (!ir::is_known(inst.opcode)) return detail::opcode_name(inst);
  // The dump pads instructions without a result to the result column; a
  // message needs only the text, which is a substring of the dump's line.
  std::string text = ir::dump_instruction(m, inst);
  text.erase(0, text.find_first_not_of(' ') == std::string::npos ? text.size() : text.find_first_not_of(' '));
  return text;
}

std::string describe_with(const ir::Module& m, const Problem& p, const BlockTitles* titles) {
  if (!p.function.valid() || p.function.index() >= m.function_count()) return p.message;
  const ir::Function& f = m.function(p.function);
  std::string out = fmt::format("f{} '{}'", p.function.index(), f.name.text);
  if (p.block.valid() && p.block.index() < f.blocks.size()) {
    out += fmt::format(", {} block b{}", titles ? titles->title(p.block) : BlockTitles(m, f).title(p.block),
                       p.block.index());
    const ir::Block& b = f.block(p.block);
    if (p.instruction >= 0 && static_cast<std::size_t>(p.instruction) < b.instructions.size())
      out += fmt::format(", instruction {} `{}`", p.instruction, instruction_text(m, b.instructions[p.instruction]));
  }
  return out + ": " + p.message;
}

}  // namespace

std::string describe(const ir::Module& m, const Problem& p) { return describe_with(m, p, nullptr); }

std::string describe(const ir::Module& m, std::span<const Problem> problems) {
  std::string out;
  std::uint32_t titled = detail::kNone;
  std::optional<BlockTitles> titles;
  for (const Problem& p : problems) {
    const bool in_function = p.function.valid() && p.function.index() < m.function_count();
    if (in_function && p.function.index() != titled) {
      titles.emplace(m, m.function(p.function));
      titled = p.function.index();
    }
    out += describe_with(m, p, in_function ? &*titles : nullptr);
    out += '\n';
  }
  return out;
}

}  // namespace sluice::validator
