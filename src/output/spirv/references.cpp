// The emitter's guard against malformed IR: before anything is emitted,
// every id the module refers to must exist and every value must have a
// type of the right shape (a vector of scalars, a matrix of float vectors,
// a sampled image of an image, variables of pointer type). Past this
// check the emitter can index the module's tables without bounds checks;
// what is left of a malformed module (wrong types, misplaced terminators)
// gives an error or a module spirv-val rejects, never a crash. This is not
// the IR validator (validator.h): it checks only what memory safety needs,
// in one linear pass.
#include <fmt/format.h>

#include "output/spirv/references.h"

namespace sluice::spirv::detail {
namespace {

class ReferenceCheck {
 public:
  explicit ReferenceCheck(const ir::Module& m, std::vector<std::vector<std::uint32_t>>& callees)
      : m_(m), callees_(callees) {}
  std::optional<std::string> run();

 private:
  bool type_ok(ir::TypeId t) const { return t.valid() && t.index() < m_.type_count(); }
  std::optional<std::string> check_type(std::uint32_t i) const;
  std::optional<std::string> check_operand(const ir::Instruction& inst, ir::Operand op) const;
  const ir::Module& m_;
  std::vector<std::vector<std::uint32_t>>& callees_;
};

std::optional<std::string> ReferenceCheck::check_type(std::uint32_t i) const {
  const ir::Type& t = m_.type(ir::TypeId(i));
  auto kind_of = [&](ir::TypeId e) { return m_.type(e).kind; };
  auto bad = [&](const char* what) { return fmt::format("type t{}: {}", i, what); };
  switch (t.kind) {
    case ir::TypeKind::Vector:
      if (!type_ok(t.element) || kind_of(t.element) != ir::TypeKind::Scalar) return bad("a vector of non-scalars");
      if (t.count < 2 || t.count > 4) return bad("a vector of other than 2 to 4 components");
      break;
    case ir::TypeKind::Matrix:
      if (!type_ok(t.element) || kind_of(t.element) != ir::TypeKind::Vector ||
          m_.type(t.element).element != ir::predefined::kFloat)
        return bad("a matrix whose columns are not float vectors");
      if (t.count < 2 || t.count > 4) return bad("a matrix of other than 2 to 4 columns");
      break;
    case ir::TypeKind::SampledImage:
      if (!type_ok(t.element) || kind_of(t.element) != ir::TypeKind::Image) return bad("a sampled image of a non-image");
      break;
    case ir::TypeKind::Array:
    case ir::TypeKind::UnsizedArray:
    case ir::TypeKind::Pointer:
      if (!type_ok(t.element)) return bad("refers to a type that does not exist");
      if (t.kind == ir::TypeKind::Pointer && t.storage > ir::StorageClass::Workgroup) return bad("unknown storage class");
      break;
    case ir::TypeKind::Struct:
      for (const auto& member : t.members)
        if (!type_ok(member.type)) return bad("a member of a type that does not exist");
      break;
    default: break;
  }
  return std::nullopt;
}

std::optional<std::string> ReferenceCheck::check_operand(const ir::Instruction& inst, ir::Operand op) const {
  bool in_range = true;
  switch (op.kind()) {
    case ir::Operand::Kind::Register: in_range = op.value() < m_.register_count(); break;
    case ir::Operand::Kind::Constant: in_range = op.value() < m_.constant_count(); break;
    case ir::Operand::Kind::Variable: in_range = op.value() < m_.variable_count(); break;
    case ir::Operand::Kind::Function: in_range = op.value() < m_.function_count(); break;
    case ir::Operand::Kind::Literal: break;
  }
  if (!in_range) return fmt::format("{} refers to an id that does not exist", ir::name(inst.opcode));
  return std::nullopt;
}

std::optional<std::string> ReferenceCheck::run() {
  for (std::uint32_t i = 0; i < m_.type_count(); ++i)
    if (auto e = check_type(i)) return e;
  for (std::uint32_t i = 0; i < m_.constant_count(); ++i) {
    const ir::Constant& c = m_.constant(ir::ConstantId(i));
    if (!type_ok(c.type)) return fmt::format("constant c{} has no valid type", i);
    for (ir::ConstantId part : c.components)
      if (!part.valid() || part.index() >= m_.constant_count()) return fmt::format("constant c{} refers to a missing constant", i);
  }
  for (std::uint32_t i = 0; i < m_.variable_count(); ++i) {
    const ir::Variable& v = m_.variable(ir::VariableId(i));
    if (!type_ok(v.type) || m_.type(v.type).kind != ir::TypeKind::Pointer)
      return fmt::format("variable v{} does not have a pointer type", i);
    if (v.initializer.valid() && v.initializer.index() >= m_.constant_count())
      return fmt::format("variable v{} has a missing initializer", i);
  }
  for (std::uint32_t i = 0; i < m_.register_count(); ++i)
    if (!type_ok(m_.reg(ir::RegisterId(i)).type)) return fmt::format("register r{} has no valid type", i);
  for (ir::VariableId g : m_.globals())
    if (!g.valid() || g.index() >= m_.variable_count()) return fmt::format("global v{} does not exist", g.index());
  callees_.assign(m_.function_count(), {});
  for (std::uint32_t f = 0; f < m_.function_count(); ++f) {
    const ir::Function& fn = m_.function(ir::FunctionId(f));
    if (!type_ok(fn.return_type)) return fmt::format("function '{}' has no valid return type", fn.name.text);
    for (const ir::FunctionParam& p : fn.params)
      if (!p.variable.valid() || p.variable.index() >= m_.variable_count())
        return fmt::format("function '{}' has a missing parameter", fn.name.text);
    for (const ir::Block& b : fn.blocks) {
      if (b.merge_input.valid() && b.merge_input.index() >= m_.register_count())
        return fmt::format("'{}': a merge input does not exist", fn.name.text);
      for (ir::VariableId v : b.declarations)
        if (!v.valid() || v.index() >= m_.variable_count())
          return fmt::format("'{}' declares a variable that does not exist", fn.name.text);
      for (const ir::Instruction& inst : b.instructions) {
        if (!ir::is_known(inst.opcode)) return fmt::format("'{}': unknown opcode", fn.name.text);
        if (inst.result.valid() && inst.result.index() >= m_.register_count())
          return fmt::format("'{}': {} defines a register that does not exist", fn.name.text, ir::name(inst.opcode));
        for (ir::Operand op : inst.operands)
          if (auto e = check_operand(inst, op)) return fmt::format("'{}': {}", fn.name.text, *e);
        if (inst.opcode == ir::Opcode::Call && !inst.operands.empty() && inst.operands[0].is_function())
          callees_[f].push_back(inst.operands[0].value());
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_references(const ir::Module& m, std::vector<std::vector<std::uint32_t>>& callees) {
  return ReferenceCheck(m, callees).run();
}

}  // namespace sluice::spirv::detail
