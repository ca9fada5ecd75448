// Scopes (see dominance.h) and the messages for uses whose definition does
// not dominate them.
#include "validator/dominance.h"

#include <fmt/format.h>

namespace sluice::validator::detail {

void Scopes::release(Mark mark) {
  for (std::size_t i = mark.registers; i < registers_.size(); ++i) ctx_.register_visible[registers_[i].index()] = 0;
  registers_.resize(mark.registers);
  for (std::size_t i = mark.variables; i < variables_.size(); ++i) ctx_.variable_visible[variables_[i].index()] = 0;
  variables_.resize(mark.variables);
}

void Scopes::define_register(ir::RegisterId r, const Where& where) {
  std::uint32_t& defined_in = ctx_.register_defined_in[r.index()];
  if (defined_in != kNone) {
    if (defined_in == where.function.index())
      ctx_.report(fmt::format("r{} is defined more than once", r.index()), where);
    else
      ctx_.report(fmt::format("r{} is defined more than once: also in {}", r.index(),
                              ctx_.function_name(ir::FunctionId(defined_in))),
                  where);
    return;
  }
  defined_in = where.function.index();
  if (!ctx_.register_ok[r.index()]) {
    const ir::TypeId t = ctx_.m.reg(r).type;
    if (t.valid() && t.index() < ctx_.m.type_count() && ctx_.m.type(t).kind == ir::TypeKind::Void)
      ctx_.report(fmt::format("r{} has type void; registers always hold a value", r.index()), where);
    else if (!t.valid() || t.index() >= ctx_.m.type_count())
      ctx_.report(fmt::format("r{} has type {}, which does not exist", r.index(), id_text('t', t.index())), where);
  }
  ctx_.register_visible[r.index()] = 1;
  registers_.push_back(r);
}

void Scopes::use_register(ir::RegisterId r, const Where& where) {
  if (ctx_.register_visible[r.index()]) return;
  // The message depends on whether r is defined elsewhere, which is known
  // only after every function has been walked.
  const std::size_t problem = ctx_.report({}, where);
  if (problem != kNone) ctx_.pending_uses.push_back({problem, r});
}

void Scopes::declare_variable(ir::VariableId v, const Where& where) {
  if (ctx_.variable_declared[v.index()]) {
    ctx_.report(fmt::format("v{} is declared more than once", v.index()), where);
    return;
  }
  ctx_.variable_declared[v.index()] = 1;
  if (ctx_.variable_ok[v.index()] && ctx_.storage_of(v) != ir::StorageClass::Function)
    ctx_.report(
        fmt::format("v{} has {} storage; blocks declare only Function-storage variables, the others are globals",
                    v.index(), ir::to_string(ctx_.storage_of(v))),
        where);
  ctx_.variable_visible[v.index()] = 1;
  variables_.push_back(v);
}

void Scopes::use_variable(ir::VariableId v, const Where& where) {
  if (!ctx_.variable_ok[v.index()]) return;  // its type was reported
  const ir::StorageClass storage = ctx_.storage_of(v);
  if (storage == ir::StorageClass::Function) {
    if (ctx_.variable_visible[v.index()] || ctx_.param_of[v.index()] == where.function.index()) return;
    ctx_.report(fmt::format("v{} is used where it is not declared: it is neither a parameter of this function nor "
                            "declared in this block or one that dominates it",
                            v.index()),
                where);
  } else if (!ctx_.is_global[v.index()]) {
    ctx_.report(fmt::format("v{} has {} storage but is not listed in Globals", v.index(), ir::to_string(storage)),
                where);
  }
}

void resolve_pending_uses(Context& ctx) {
  for (const PendingUse& use : ctx.pending_uses) {
    Problem& p = ctx.problems[use.problem];
    const std::uint32_t defined_in = ctx.register_defined_in[use.reg.index()];
    if (defined_in == kNone)
      p.message = fmt::format("r{} is used but never defined", use.reg.index());
    else if (defined_in != p.function.index())
      p.message = fmt::format("r{} is defined in {}, not in this function", use.reg.index(),
                              ctx.function_name(ir::FunctionId(defined_in)));
    else
      p.message = fmt::format(
          "r{} is used where its definition does not dominate: it is defined later, or in a "
          "block that is not on the path to this one",
          use.reg.index());
  }
}

}  // namespace sluice::validator::detail
