// The instructions one guard of the ub-check pass makes (ub_check.cpp,
// ub_check_uninitialized.cpp): the condition, the report call, the
// operands replaced by defined values, and what follows the guarded
// instruction. Internal to src/transform.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <vector>

#include "ir/typing.h"
#include "transform/transformer.h"
#include "transform/ub_check.h"
#include "transform/ub_check_report.h"

namespace sluice::transform::ub {

// Builds a guard's instructions; the first failure sticks.
using namespace ir;

class Guard {
 public:
  Guard(ir::Module& m, const Reporter& reporter, const Instruction& inst, std::vector<UbSite>& sites)
      : m_(m), reporter_(reporter), inst_(inst), sites_(sites) {}

  Operand op(Opcode o, std::initializer_list<Operand> operands, TypeId explicit_type = {}) {
    if (error_) return Operand(m_.bool_constant(false));
    auto made = make(m_, o, std::span<const Operand>(operands.begin(), operands.size()), explicit_type);
    if (!made) {
      error_ = made.failure();
      return Operand(m_.bool_constant(false));
    }
    made->location = inst_.location;
    const RegisterId r = made->result;
    out_.push_back(Transform::add(std::move(*made)));
    return Operand(r);
  }
  Operand constant(Operand like, double value) { return Operand(splat(m_, m_.type_of(like), value)); }
  Operand lt(Operand a, double b) { return op(Opcode::LessThan, {a, constant(a, b)}); }
  Operand le(Operand a, double b) { return op(Opcode::LessThanEqual, {a, constant(a, b)}); }
  Operand gt(Operand a, double b) { return op(Opcode::GreaterThan, {a, constant(a, b)}); }
  Operand ge(Operand a, double b) { return op(Opcode::GreaterThanEqual, {a, constant(a, b)}); }
  Operand eq(Operand a, double b) { return op(Opcode::EqualComponentwise, {a, constant(a, b)}); }
  Operand either(Operand a, Operand b) { return op(Opcode::LogicalOr, {a, b}); }
  Operand both(Operand a, Operand b) { return op(Opcode::LogicalAnd, {a, b}); }

  // Reports `bad` (any component) as `check`, except where an operand
  // `bad` depends on (`on`, operand indices) is tainted (set_taint).
  void report(Operand bad, UbCheck check, std::initializer_list<std::size_t> on) {
    if (is_vector(m_, m_.type_of(bad))) bad = op(Opcode::Any, {bad});
    std::optional<Operand> tainted;
    for (std::size_t i : on)
      if (auto it = taints_.find(i); it != taints_.end()) tainted = tainted ? either(*tainted, it->second) : it->second;
    if (tainted) bad = both(bad, op(Opcode::LogicalNot, {*tainted}));
    const std::uint32_t location = inst_.location.valid() ? inst_.location.index() : kUbNoLocation;
    op(Opcode::Call, {Operand(reporter_.function), bad, Operand(m_.uint_constant(static_cast<std::uint32_t>(check))),
                      Operand(m_.uint_constant(location))});
    sites_.push_back(UbSite{check, inst_.location});
  }
  // Operand i of the instruction becomes Select(bad, safe, it).
  void define(std::size_t i, Operand bad, double safe) { define(i, bad, constant(operand(i), safe)); }
  void define(std::size_t i, Operand bad, Operand safe) {
    const Operand x = operand(i);
    const TypeId t = m_.type_of(x);
    substituted(is_vector(m_, m_.type_of(bad)) ? op(Opcode::Any, {bad}) : bad);
    if (is_vector(m_, t) && !is_vector(m_, m_.type_of(bad)))
      bad = op(Opcode::ConstructVectorFromScalar, {bad}, m_.vector_type(ScalarKind::Bool, component_count(m_, t)));
    replaced_[i] = op(Opcode::Select, {bad, safe, x});
  }
  bool failed() const { return error_.has_value(); }
  // The current value of operand i (after an earlier define()).
  Operand operand(std::size_t i) const { return replaced_[i].value_or(inst_.operands[i]); }

  // The result becomes Select(defined, result, zero): a value the
  // instruction gave where `defined` holds, zero elsewhere.
  void define_result(Operand defined) {
    defined_result_ = defined;
    substituted(op(Opcode::LogicalNot, {defined}));
  }

  // Taint (a bool: "this value comes from a guard's substitute"): each
  // operand's, set before any report; the result's, once the guard is
  // built: the operands' or this guard's own substitution.
  void set_taint(std::size_t operand, Operand taint) {
    taints_[operand] = taint;
    tainted_ = tainted_ ? either(*tainted_, taint) : taint;
  }
  // The OR of the operands' taints.
  std::optional<Operand> operand_taint() const { return tainted_; }
  std::optional<Operand> result_taint() {
    if (tainted_ && substituted_) return either(*tainted_, *substituted_);
    return substituted_ ? substituted_ : tainted_;
  }
  // Whether the guard made any instruction (a taint alone makes some).
  bool emitted() const { return !out_.empty(); }
  // An instruction without result to run before, or after, the guarded one.
  void before(Opcode o, std::initializer_list<Operand> operands) { add_to(out_, o, operands); }
  void after(Opcode o, std::initializer_list<Operand> operands) { add_to(after_, o, operands); }
  bool has_after() const { return !after_.empty(); }

  Result<Transforms> finish() {
    if (error_) return *error_;
    Instruction copy = inst_;
    for (std::size_t i = 0; i < copy.operands.size() && i < replaced_.size(); ++i)
      if (replaced_[i]) copy.operands[i] = *replaced_[i];
    if (defined_result_ && copy.result.valid()) {
      const RegisterId result = copy.result;
      const RegisterId loaded = assign_new_register_to_instruction(m_, copy);
      const Operand zero(splat(m_, m_.reg(result).type, 0));
      out_.push_back(Transform::add(std::move(copy)));
      const Operand operands[] = {*defined_result_, Operand(loaded), zero};
      auto select = make_with_result_id(m_, Opcode::Select, result, operands);
      if (!select) return select.failure();
      select->location = inst_.location;
      out_.push_back(Transform::add(std::move(*select)));
    } else {
      out_.push_back(Transform::add(std::move(copy)));
    }
    for (Transform& t : after_) out_.push_back(std::move(t));
    return std::move(out_);
  }

 private:
  Module& m_;
  const Reporter& reporter_;
  const Instruction& inst_;
  std::vector<UbSite>& sites_;
  Transforms out_;
  std::array<std::optional<Operand>, 4> replaced_{};
  std::optional<Error> error_;
  std::optional<Operand> defined_result_;
  Transforms after_;
  std::map<std::size_t, Operand> taints_;  // by operand index
  std::optional<Operand> tainted_;
  std::optional<Operand> substituted_;

  void substituted(Operand bad) { substituted_ = substituted_ ? either(*substituted_, bad) : bad; }
  void add_to(Transforms& list, Opcode o, std::initializer_list<Operand> operands) {
    auto made = make(m_, o, std::span<const Operand>(operands.begin(), operands.size()));
    if (!made) {
      error_ = made.failure();
      return;
    }
    made->location = inst_.location;
    list.push_back(Transform::add(std::move(*made)));
  }
};


}  // namespace sluice::transform::ub
