// A small reference interpreter of the IR for differential tests: run a
// module before and after a pass on the same inputs and compare outputs.
// Values are constants of the module itself; arithmetic is
// ir_arithmetic.h's, written independently of transform/fold, so a folding
// bug shows as a difference before and after the pass; pointers are a
// variable plus a path of component indices. It recurses on the nesting of
// the program it runs, so it is only for the small programs tests build
// (it refuses to go deeper than kMaxDepth).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "ir/module.h"
#include "ir/typing.h"
#include "ir_arithmetic.h"

namespace sluice::testing {

class Interpreter {
 public:
  static constexpr int kMaxDepth = 200;
  static constexpr long kMaxSteps = 2000000;

  explicit Interpreter(ir::Module& m) : m_(m), arithmetic_(m) {}

  // Sets an input (or any global) variable by name.
  void set(const std::string& name, ir::ConstantId value) { memory_[find(name).index()] = value; }
  // Runs main(); afterwards `text_of(name)` describes a variable's value.
  // Returns an error message if the program does something the
  // interpreter does not model or that is undefined.
  std::optional<std::string> run() {
    for (ir::VariableId g : m_.globals()) {
      const ir::Variable& v = m_.variable(g);
      if (v.initializer.valid() && !memory_.count(g.index())) memory_[g.index()] = v.initializer;
    }
    const ir::FunctionId main = m_.entry_point();
    if (!main.valid()) return "no main";
    call(main);
    if (discarded_) result_ = "discarded";
    return failure_;
  }
  std::string text_of(const std::string& name) {
    if (discarded_) return "discarded";
    auto it = memory_.find(find(name).index());
    return it == memory_.end() ? "undefined" : text(it->second);
  }

 private:
  struct Pointer {
    ir::VariableId var;
    std::vector<std::uint32_t> path;
  };
  enum class Exit { Return, Discard, Merge, Break, Continue, LoopIf, Passthrough, Fail };
  struct Outcome {
    Exit exit;
    std::optional<ir::Operand> value;  // resolved to a constant
  };

  ir::VariableId find(const std::string& name) const {
    for (std::uint32_t i = 0; i < m_.variable_count(); ++i)
      if (m_.variable(ir::VariableId(i)).name.text == name) return ir::VariableId(i);
    return {};
  }

  std::string text(ir::ConstantId c) const {
    const ir::Constant& k = m_.constant(c);
    if (k.is_composite()) {
      std::string s = "(";
      for (ir::ConstantId p : k.components) s += text(p) + ",";
      return s + ")";
    }
    switch (*ir::component_kind(m_, k.type)) {
      case ir::ScalarKind::Float: return fmt::format("{:a}", k.as_float());
      case ir::ScalarKind::Int: return std::to_string(k.as_int());
      case ir::ScalarKind::Uint: return std::to_string(k.as_uint());
      case ir::ScalarKind::Bool: return k.as_bool() ? "true" : "false";
    }
    return "?";
  }

  Outcome fail(std::string why) {
    if (!failure_) failure_ = std::move(why);
    return Outcome{Exit::Fail, std::nullopt};
  }

  std::optional<ir::ConstantId> value(ir::Operand o) {
    if (o.is_constant()) return o.as_constant();
    if (o.is_register()) {
      auto it = values_.find(o.value());
      if (it != values_.end()) return it->second;
    }
    return std::nullopt;
  }
  std::optional<Pointer> pointer(ir::Operand o) {
    if (o.is_variable()) return Pointer{o.as_variable(), {}};
    if (o.is_register()) {
      auto it = pointers_.find(o.value());
      if (it != pointers_.end()) return it->second;
    }
    return std::nullopt;
  }

  std::optional<ir::ConstantId> load(const Pointer& p) {
    auto it = memory_.find(p.var.index());
    if (it == memory_.end()) return std::nullopt;
    ir::ConstantId c = it->second;
    for (std::uint32_t i : p.path) {
      const ir::Constant& k = m_.constant(c);
      if (i >= k.components.size()) return std::nullopt;
      c = k.components[i];
    }
    return c;
  }
  bool store(const Pointer& p, ir::ConstantId v) {
    if (p.path.empty()) {
      memory_[p.var.index()] = v;
      return true;
    }
    // Rebuild the composites along the path.
    std::vector<ir::ConstantId> chain;
    auto it = memory_.find(p.var.index());
    if (it == memory_.end()) return false;
    chain.push_back(it->second);
    for (std::size_t d = 0; d + 1 < p.path.size(); ++d) {
      const ir::Constant& k = m_.constant(chain.back());
      if (p.path[d] >= k.components.size()) return false;
      chain.push_back(k.components[p.path[d]]);
    }
    ir::ConstantId replacement = v;
    for (std::size_t d = p.path.size(); d-- > 0;) {
      ir::Constant k = m_.constant(chain[d]);
      if (p.path[d] >= k.components.size()) return false;
      k.components[p.path[d]] = replacement;
      replacement = m_.intern(k);
    }
    memory_[p.var.index()] = replacement;
    return true;
  }

  void declare(const ir::Block& b) {
    for (ir::VariableId v : b.declarations) {
      const ir::Variable& var = m_.variable(v);
      if (var.initializer.valid()) memory_[v.index()] = var.initializer;
      else memory_.erase(v.index());
    }
  }

  bool execute(const ir::Instruction& inst);

  std::optional<ir::ConstantId> call(ir::FunctionId fid, const std::vector<ir::Operand>& args = {});

  // Runs a chain from `start`; returns how it ended.
  Outcome run_chain(const ir::Function& f, ir::BlockId start, int depth);

  ir::Module& m_;
  Arithmetic arithmetic_;
  std::unordered_map<std::uint32_t, ir::ConstantId> memory_;
  std::unordered_map<std::uint32_t, ir::ConstantId> values_;
  std::unordered_map<std::uint32_t, Pointer> pointers_;
  std::optional<std::string> failure_;
  std::optional<std::string> result_;
  bool discarded_ = false;
  long steps_ = 0;
  int call_depth_ = 0;
};

inline bool Interpreter::execute(const ir::Instruction& inst) {
  using ir::Opcode;
  if (++steps_ > kMaxSteps) {
    fail("too many steps");
    return false;
  }
  const ir::OpcodeInfo& oi = ir::info(inst.opcode);
  auto operand_value = [&](std::size_t i) { return value(inst.operands[i]); };
  if (oi.family == ir::OpcodeFamily::Access) {
    auto base = pointer(inst.operands[0]);
    if (!base) return fail("access of an unknown pointer"), false;
    Pointer p = *base;
    for (std::size_t i = 1; i < inst.operands.size(); ++i) {
      const ir::Operand o = inst.operands[i];
      if (o.is_literal()) p.path.push_back(o.value());
      else if (auto c = value(o)) p.path.push_back(m_.constant(*c).bits);
      else return fail("access index unknown"), false;
    }
    if (inst.opcode == Opcode::AccessVectorComponentMulti) return fail("swizzled pointer"), false;
    pointers_[inst.result.index()] = p;
    return true;
  }
  switch (inst.opcode) {
    case Opcode::Load: {
      auto p = pointer(inst.operands[0]);
      auto v = p ? load(*p) : std::nullopt;
      if (!v) return fail("load of an undefined value"), false;
      values_[inst.result.index()] = *v;
      return true;
    }
    case Opcode::Store: {
      auto p = pointer(inst.operands[0]);
      auto v = operand_value(1);
      if (!p || !v || !store(*p, *v)) return fail("bad store"), false;
      return true;
    }
    case Opcode::Alias: {
      if (auto v = operand_value(0)) values_[inst.result.index()] = *v;
      else if (auto p = pointer(inst.operands[0])) pointers_[inst.result.index()] = *p;
      else return fail("alias of nothing"), false;
      return true;
    }
    case Opcode::PrefixIncrement:
    case Opcode::PrefixDecrement:
    case Opcode::PostfixIncrement:
    case Opcode::PostfixDecrement: {
      auto p = pointer(inst.operands[0]);
      auto old = p ? load(*p) : std::nullopt;
      if (!old) return fail("increment of undefined"), false;
      const ir::TypeId t = m_.constant(*old).type;
      const ir::ConstantId one = t == ir::predefined::kFloat ? ir::predefined::kFloatOne
                                 : t == ir::predefined::kInt ? ir::predefined::kIntOne
                                                             : ir::predefined::kUintOne;
      const bool up = inst.opcode == Opcode::PrefixIncrement || inst.opcode == Opcode::PostfixIncrement;
      const ir::Operand ops[] = {*old, one};
      auto now = arithmetic_.evaluate(up ? Opcode::Add : Opcode::Sub, t, ops);
      if (!now) return fail("increment overflow"), false;
      store(*p, *now);
      const bool prefix = inst.opcode == Opcode::PrefixIncrement || inst.opcode == Opcode::PrefixDecrement;
      values_[inst.result.index()] = prefix ? *now : *old;
      return true;
    }
    case Opcode::Call: {
      std::vector<ir::Operand> args(inst.operands.begin() + 1, inst.operands.end());
      auto r = call(inst.operands[0].as_function(), args);
      if (failure_) return false;
      if (inst.result.valid()) {
        if (!r) return fail("call returned nothing"), false;
        values_[inst.result.index()] = *r;
      }
      return true;
    }
    default: break;
  }
  if (oi.has_side_effects || !inst.result.valid())
    return fail(fmt::format("{} is not modelled", ir::name(inst.opcode))), false;
  std::vector<ir::Operand> ops;
  for (std::size_t i = 0; i < inst.operands.size(); ++i) {
    if (inst.operands[i].is_literal()) {
      ops.push_back(inst.operands[i]);
      continue;
    }
    auto v = operand_value(i);
    if (!v) return fail(fmt::format("{}: operand {} unknown", ir::name(inst.opcode), i)), false;
    ops.push_back(*v);
  }
  auto r = arithmetic_.evaluate(inst.opcode, m_.reg(inst.result).type, ops);
  if (!r) return fail(fmt::format("{} cannot be evaluated", ir::name(inst.opcode))), false;
  values_[inst.result.index()] = *r;
  return true;
}

inline std::optional<ir::ConstantId> Interpreter::call(ir::FunctionId fid, const std::vector<ir::Operand>& args) {
  const ir::Function& f = m_.function(fid);
  if (++call_depth_ > 32) return fail("calls too deep"), std::nullopt;
  std::vector<Pointer> copy_back;
  for (std::size_t i = 0; i < f.params.size(); ++i) {
    const ir::FunctionParam& p = f.params[i];
    if (p.direction == ir::ParamDirection::In) {
      auto v = value(args[i]);
      if (!v) return fail("argument unknown"), std::nullopt;
      memory_[p.variable.index()] = *v;
    } else {
      auto ptr = pointer(args[i]);
      if (!ptr) return fail("argument pointer unknown"), std::nullopt;
      memory_.erase(p.variable.index());
      if (p.direction == ir::ParamDirection::InOut) {
        auto v = load(*ptr);
        if (!v) return fail("inout of undefined"), std::nullopt;
        memory_[p.variable.index()] = *v;
      }
      copy_back.push_back(*ptr);
    }
  }
  Outcome out = run_chain(f, f.entry, 0);
  --call_depth_;
  if (out.exit == Exit::Discard) {
    discarded_ = true;
    return std::nullopt;
  }
  if (out.exit != Exit::Return) return fail("function did not return"), std::nullopt;
  std::size_t k = 0;
  for (const ir::FunctionParam& p : f.params) {
    if (p.direction == ir::ParamDirection::In) continue;
    auto it = memory_.find(p.variable.index());
    if (it != memory_.end()) store(copy_back[k], it->second);
    ++k;
  }
  if (out.value) return value(*out.value);
  return std::nullopt;
}

inline Interpreter::Outcome Interpreter::run_chain(const ir::Function& f, ir::BlockId start, int depth) {
  using ir::Opcode;
  if (depth > kMaxDepth) return fail("nested too deep");
  ir::BlockId b = start;
  auto enter_merge = [&](ir::BlockId merge, const std::optional<ir::Operand>& v) {
    const ir::RegisterId input = f.block(merge).merge_input;
    if (input.valid()) {
      auto c = v ? value(*v) : std::nullopt;
      if (!c) return false;
      values_[input.index()] = *c;
    }
    return true;
  };
  auto resolved = [&](const ir::Instruction& t) -> std::optional<ir::Operand> {
    if (t.operands.empty()) return std::nullopt;
    auto c = value(t.operands[0]);
    if (!c) return std::nullopt;
    return ir::Operand(*c);
  };
  for (;;) {
    if (discarded_) return Outcome{Exit::Discard, std::nullopt};
    const ir::Block& blk = f.block(b);
    declare(blk);
    if (blk.instructions.empty()) return fail("empty block");
    for (std::size_t i = 0; i + 1 < blk.instructions.size(); ++i)
      if (!execute(blk.instructions[i])) return Outcome{Exit::Fail, std::nullopt};
    const ir::Instruction& t = blk.instructions.back();
    switch (t.opcode) {
      case Opcode::Return: return Outcome{Exit::Return, resolved(t)};
      case Opcode::Discard: discarded_ = true; return Outcome{Exit::Discard, std::nullopt};
      case Opcode::Merge: return Outcome{Exit::Merge, resolved(t)};
      case Opcode::Break: return Outcome{Exit::Break, resolved(t)};
      case Opcode::Continue: return Outcome{Exit::Continue, std::nullopt};
      case Opcode::Passthrough: return Outcome{Exit::Passthrough, std::nullopt};
      case Opcode::LoopIf: return Outcome{Exit::LoopIf, resolved(t)};
      case Opcode::Unreachable: return fail("reached Unreachable");
      case Opcode::NextBlock: b = blk.merge; continue;
      case Opcode::If: {
        auto c = value(t.operands[0]);
        if (!c) return fail("If on unknown");
        const ir::BlockId sub = m_.constant(*c).as_bool() ? blk.if_true() : blk.if_false();
        if (sub.valid()) {
          Outcome o = run_chain(f, sub, depth + 1);
          if (o.exit != Exit::Merge) return o;
          if (!enter_merge(blk.merge, o.value)) return fail("merge value");
        }
        b = blk.merge;
        continue;
      }
      case Opcode::Loop:
      case Opcode::DoLoop: {
        bool body_first = t.opcode == Opcode::DoLoop;
        std::optional<Outcome> leave;
        for (long iteration = 0;; ++iteration) {
          if (iteration > 100000) return fail("loop does not end");
          if (!body_first) {
            Outcome c = run_chain(f, blk.loop_condition(), depth + 1);
            if (c.exit != Exit::LoopIf) {
              leave = c;
              break;
            }
            if (!m_.constant(c.value->as_constant()).as_bool()) {
              leave = Outcome{Exit::Break, std::nullopt};
              break;
            }
          }
          body_first = false;
          Outcome o = run_chain(f, blk.loop_body(), depth + 1);
          if (o.exit != Exit::Continue) {
            leave = o;
            break;
          }
          if (blk.loop_continue().valid()) {
            Outcome k = run_chain(f, blk.loop_continue(), depth + 1);
            if (k.exit != Exit::Continue) {
              leave = k;
              break;
            }
          }
        }
        if (leave->exit != Exit::Break) return *leave;
        if (!enter_merge(blk.merge, leave->value)) return fail("loop merge value");
        b = blk.merge;
        continue;
      }
      case Opcode::Switch: {
        auto c = value(t.operands[0]);
        if (!c) return fail("Switch on unknown");
        const std::uint32_t sel = m_.constant(*c).bits;
        std::size_t start_case = blk.cases.size();
        for (std::size_t i = 0; i < blk.cases.size(); ++i)
          if (blk.cases[i].value == sel) start_case = i;
        if (start_case == blk.cases.size())
          for (std::size_t i = 0; i < blk.cases.size(); ++i)
            if (!blk.cases[i].value) start_case = i;
        for (std::size_t i = start_case; i < blk.cases.size(); ++i) {
          Outcome o = run_chain(f, blk.case_blocks[i], depth + 1);
          if (o.exit == Exit::Passthrough) continue;
          if (o.exit != Exit::Break) return o;
          break;
        }
        b = blk.merge;
        continue;
      }
      default: return fail("unknown terminator");
    }
  }
}

}  // namespace sluice::testing
