// Scalar replacement of aggregates (spirv-opt's scalar-replacement; the
// "SRA" of Muchnick, Advanced Compiler Design and Implementation, §12.2):
// a Function local or Private global of struct or array type whose every
// use is an Access to one element with a constant index, a Load of the
// whole variable or a Store into it, becomes one variable per element.
// The Accesses go (their uses point at the element's variable), a whole
// Load becomes a Load per element and a construct of them, a whole Store a
// Store per element of the value's parts (a constant's components, a
// construct's operands, else an extract each); an initializer is split
// into its components. The element variables are whole scalars, vectors
// and matrices — or smaller aggregates, which the next round of -O1's
// fixpoint splits again (a nest of depth d takes d rounds) — that
// forward-stores, dead-store elimination and
// the SPIR-V output's SSA promotion then see; an aggregate with one
// element indexed by a run-time value stays in memory (a dynamic index
// needs the array).
//
// Bounds: only aggregates of at most kMaxElements elements (spirv-opt's
// default limit is 100; a whole Load or Store of one costs an instruction
// per element), and no array whose length is a specialization constant.
// Parameters stay as they are (a caller passes their memory).
//
// Algorithm: one walk over every instruction disqualifies variables used in
// any other way (call arguments, dynamic indices, ArrayLength, a pointer
// stored or selected); the survivors get their element variables; one
// transform walk rewrites the uses, a Substitution sweep points the Access
// results' uses at the element variables, and the declarations (a block's
// list, or the globals) name the elements instead. compact_module() drops
// the replaced variables. Linear in instructions plus elements.
#include <optional>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "ir/operands.h"
#include "ir/traversal.h"
#include "transform/module_compaction.h"
#include "transform/passes.h"
#include "transform/pointer_roots.h"
#include "transform/substitution.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

constexpr std::uint32_t kMaxElements = 16;

class AggregateReplacement {
 public:
  explicit AggregateReplacement(Module& m) : m_(m), candidate_(m.variable_count()), first_(m.variable_count()) {}

  PassResult run() {
    const std::vector<bool> parameter = parameter_variables(m_);
    bool any = false;
    for (std::uint32_t v = 0; v < m_.variable_count(); ++v) {
      const VariableId id(v);
      if (parameter[v] || !is_invocation_memory(m_, id)) continue;
      const Type& t = m_.type(m_.type(m_.variable(id).type).element);
      const bool splittable = (t.kind == TypeKind::Struct && !t.members.empty() && !t.is_block) ||
                              (t.kind == TypeKind::Array && !t.length.valid() && t.count > 0);
      candidate_[v] = splittable && element_count(t) <= kMaxElements;
      any = any || candidate_[v];
    }
    if (!any) return false;
    for (std::uint32_t i = 0; i < m_.function_count(); ++i) {
      const Function& f = m_.function(FunctionId(i));
      if (f.entry.valid()) visit(f, [&](const BlockVisit&, const Block& b) {
          for (const Instruction& inst : b.instructions) check_uses(inst);
          return VisitAction::VisitSubBlocks;
        });
    }
    if (!make_elements()) return false;
    auto rewritten = for_each_instruction(m_, [&](InstructionSite&, const Instruction& inst) { return rewrite(inst); });
    if (!rewritten) return rewritten.failure();
    // A use left unrewritten would name a variable that is about to go.
    if (failure_) return std::move(*failure_);
    subst_.apply(m_);
    redeclare();
    std::vector<bool> all_functions(m_.function_count(), true);
    std::vector<bool> drop(m_.variable_count());
    for (std::uint32_t v = 0; v < candidate_.size(); ++v) drop[v] = candidate_[v];
    compact_module(m_, variables_in_use(m_, all_functions, drop), all_functions);
    return true;
  }

 private:
  std::uint32_t element_count(const Type& t) const {
    return t.kind == TypeKind::Struct ? static_cast<std::uint32_t>(t.members.size()) : t.count;
  }

  TypeId element_type(const Type& t, std::uint32_t i) const {
    return t.kind == TypeKind::Struct ? t.members[i].type : t.element;
  }

  const Type& aggregate(VariableId v) const { return m_.type(m_.type(m_.variable(v).type).element); }

  // The element an Access with base `v` selects, if its index is a constant in range.
  std::optional<std::uint32_t> constant_element(VariableId v, const Instruction& inst) const {
    if (inst.operands.size() != 2) return std::nullopt;
    const Type& t = aggregate(v);
    const Operand index = inst.operands[1];
    std::uint32_t i = 0;
    if (t.kind == TypeKind::Struct && inst.opcode == Opcode::AccessStructField && index.is_literal()) {
      i = index.value();
    } else if (t.kind == TypeKind::Array && inst.opcode == Opcode::AccessArrayElement && index.is_constant()) {
      const Constant& c = m_.constant(index.as_constant());
      const Type& ct = m_.type(c.type);
      if (c.is_composite() || c.spec_id || c.spec_op != SpecOp::None || ct.kind != TypeKind::Scalar) return std::nullopt;
      if (ct.scalar == ScalarKind::Int && c.as_int() < 0) return std::nullopt;
      i = c.bits;
    } else {
      return std::nullopt;
    }
    if (i >= element_count(t)) return std::nullopt;
    return i;
  }

  void check_uses(const Instruction& inst) {
    for_each_operand(inst, [&](const Operand& o, std::size_t k) {
      if (!o.is_variable() || !candidate_[o.value()]) return;
      const VariableId v = o.as_variable();
      if (k == 0 && inst.opcode == Opcode::Load && inst.result.valid()) return;
      if (k == 0 && inst.opcode == Opcode::Store && inst.operands.size() == 2) return;
      if (k == 0 && inst.result.valid() && constant_element(v, inst)) return;
      candidate_[v.index()] = false;
    });
  }

  // The element variables, first_[v] the first of v's (consecutive ids).
  bool make_elements() {
    bool any = false;
    const std::uint32_t count = m_.variable_count();
    for (std::uint32_t v = 0; v < count; ++v) {
      if (!candidate_[v]) continue;
      any = true;
      const Variable var = m_.variable(VariableId(v));
      const Type t = aggregate(VariableId(v));
      const StorageClass storage = m_.type(var.type).storage;
      for (std::uint32_t i = 0; i < element_count(t); ++i) {
        Variable e;
        e.name = Name{t.kind == TypeKind::Struct && !t.members[i].name.empty()
                          ? fmt::format("{}_{}", var.name.text, t.members[i].name)
                          : fmt::format("{}_{}", var.name.text, i),
                      var.name.source};
        e.type = m_.pointer_type(element_type(t, i), storage);
        e.precision = t.kind == TypeKind::Struct && t.members[i].precision != Precision::None ? t.members[i].precision
                                                                                              : var.precision;
        e.location = var.location;
        if (var.initializer.valid()) e.initializer = m_.constant(var.initializer).components.at(i);
        const VariableId id = m_.add_variable(std::move(e));
        if (i == 0) first_[v] = id;
      }
    }
    return any;
  }

  VariableId element(VariableId v, std::uint32_t i) const { return VariableId(first_[v.index()].index() + i); }

  // Records the first failure; run() returns it.
  Transforms fail(Error e) {
    if (!failure_) failure_ = std::move(e).prefixed("scalar-replace-aggregates: ");
    return {};
  }

  // Part i of an aggregate value: a constant's component, a construct's
  // operand, else an extract.
  std::optional<Operand> part(Operand value, const Type& t, std::uint32_t i, Transforms& out) {
    if (value.is_constant()) {
      const Constant& c = m_.constant(value.as_constant());
      if (c.components.size() == element_count(t)) return Operand(c.components[i]);
    }
    if (value.is_register()) {
      const auto it = constructs_.find(value.value());
      if (it != constructs_.end() && it->second.size() == element_count(t)) return it->second[i];
    }
    const Operand index = t.kind == TypeKind::Struct ? Operand::literal(i) : Operand(m_.int_constant(static_cast<std::int32_t>(i)));
    const Operand operands[] = {value, index};
    auto extract = make(m_, t.kind == TypeKind::Struct ? Opcode::ExtractStructField : Opcode::ExtractArrayElement, operands);
    if (!extract) {
      fail(extract.failure());
      return std::nullopt;
    }
    const RegisterId r = extract->result;
    out.push_back(Transform::add(std::move(*extract)));
    return Operand(r);
  }

  Transforms rewrite(const Instruction& inst) {
    // Pre-order: a construct is seen before the Stores of its value.
    if ((inst.opcode == Opcode::ConstructStruct || inst.opcode == Opcode::ConstructArray) && inst.result.valid())
      constructs_.emplace(inst.result.index(), inst.operands);
    if (inst.operands.empty() || !inst.operands[0].is_variable() || !candidate_[inst.operands[0].value()]) return {};
    const VariableId v = inst.operands[0].as_variable();
    const Type t = aggregate(v);
    const std::uint32_t n = element_count(t);
    Transforms out;
    if (inst.opcode == Opcode::Load) {
      OperandList parts;
      for (std::uint32_t i = 0; i < n; ++i) {
        const Operand ops[] = {Operand(element(v, i))};
        auto load = make(m_, Opcode::Load, ops, {}, m_.reg(inst.result).precision);
        if (!load) return fail(load.failure());
        parts.push_back(Operand(load->result));
        out.push_back(Transform::add(std::move(*load)));
      }
      auto construct = make_with_result_id(m_, t.kind == TypeKind::Struct ? Opcode::ConstructStruct : Opcode::ConstructArray,
                                           inst.result, std::span<const Operand>(parts.data(), parts.size()));
      if (!construct) return fail(construct.failure());
      out.push_back(Transform::add(std::move(*construct)));
      return out;
    }
    if (inst.opcode == Opcode::Store) {
      const Operand value = subst_.resolve(inst.operands[1]);
      for (std::uint32_t i = 0; i < n; ++i) {
        // (An optional, not Operand{}: that is register r0, a valid part.)
        const std::optional<Operand> p = part(value, t, i, out);
        if (!p) return {};
        const Operand ops[] = {Operand(element(v, i)), *p};
        auto store = make(m_, Opcode::Store, ops);
        if (!store) return fail(store.failure());
        out.push_back(Transform::add(std::move(*store)));
      }
      return out;
    }
    // An Access with a constant index (check_uses let nothing else through).
    const auto i = constant_element(v, inst);
    if (!i || !subst_.replace(inst.result, Operand(element(v, *i))))
      return fail(Error{"an Access of a split variable could not be replaced", ErrorCode::Internal});
    return {Transform::remove()};
  }

  // Declarations and globals name the elements instead of the aggregates.
  void redeclare() {
    auto replace_in = [&](std::vector<VariableId>& list) {
      std::vector<VariableId> out;
      for (VariableId v : list) {
        if (v.index() >= candidate_.size() || !candidate_[v.index()]) {
          out.push_back(v);
          continue;
        }
        for (std::uint32_t i = 0; i < element_count(aggregate(v)); ++i) out.push_back(element(v, i));
      }
      list = std::move(out);
    };
    replace_in(m_.globals());
    for (std::uint32_t i = 0; i < m_.function_count(); ++i)
      for (Block& b : m_.function(FunctionId(i)).blocks) replace_in(b.declarations);
  }

  Module& m_;
  std::vector<bool> candidate_;
  std::vector<VariableId> first_;
  std::unordered_map<std::uint32_t, OperandList> constructs_;  // construct's register -> its operands
  Substitution subst_;
  std::optional<Error> failure_;
};

}  // namespace

PassResult scalar_replace_aggregates(Module& m) { return AggregateReplacement(m).run(); }

}  // namespace sluice::transform
