// rec-func and rec (see lower.h). A rec-func application becomes
//
//   Declare: v_i            ; one Function-storage variable per parameter
//   Store v_i arg_i
//   Loop
//     condition: LoopIf true  ; the loop is left only by Break value
//     body:      r_i = Load v_i, then the body in tail position
//     merge:     Input r (τ)  ; the rec-func's value
//
// and `rec e_1 .. e_n` in tail position lowers every e_i first, then stores
// them all and ends with Continue: a parallel assignment, so a swap such as
// Euclid's (rec b (mod a b)) reads the old values.
#include <fmt/format.h>

#include "frontend/lambdav/lower.h"
#include "ir/predefined.h"

namespace sluice::lambdav {

std::optional<ir::TypeId> Lowerer::rec_match(ir::TypeId a, ir::TypeId b, NodeId at) {
  if (!a.valid()) return b;  // PureRec with anything: the other side's type
  if (!b.valid()) return a;
  if (a == b) return a;
  error(at, fmt::format("the branches of this if have different types: {} and {}", describe(a), describe(b)));
  return std::nullopt;
}

std::optional<ir::TypeId> Lowerer::finish_tail(const Value& v, NodeId at) {
  if (v.kind == ValueKind::Tail) return v.type;
  if (!v.is_runtime()) {
    error(at, fmt::format("a rec-func's result must be a value, not {}", describe(v)));
    return std::nullopt;
  }
  if (!terminate(ir::Opcode::Break, v.operand, at)) return std::nullopt;
  return v.type;
}

Lowered Lowerer::lower_rec_func(std::uint32_t index, const ArgList& args, const ArgList* rest) {
  const Closure c = closures_[index];
  const FuncInfo& f = res_.funcs[c.func];
  if (rest) return error(rest->call, "the value of a rec-func is not a function and cannot be applied");
  const auto params = ast_.items(ast_.items(f.node)[1]);
  for (std::uint32_t i = 0; i < args.count; ++i)
    if (!args.values[i].is_runtime())
      return error(args.nodes[i], fmt::format("argument {} of a rec-func is {}: the parameters of a rec-func are the "
                                              "values its loop carries, so they must be values, not functions "
                                              "(wrap the rec-func in a func that takes the function)",
                                              i + 1, describe(args.values[i])));

  const auto loop_index = static_cast<std::uint32_t>(loops_.size());
  loops_.emplace_back();
  LoopFrame& loop = loops_.back();
  loop.func = c.func;
  set_location(args.call);
  for (std::uint32_t i = 0; i < args.count; ++i) {
    const Value& a = args.values[i];
    const ir::VariableId var =
        b_.declare_local(ir::Name{std::string(ast_.name(node(params[i]).symbol)), ir::NameSource::Temporary}, a.type);
    loop.vars.push_back(var);
    loop.types.push_back(a.type);
    auto stored = b_.store(var, a.operand);
    if (!stored) return error(args.call, "internal error: " + stored.error());
  }
  auto blocks = b_.branch_loop(false, false);
  if (!blocks) return error(args.call, "internal error: " + blocks.error());
  b_.set_block(blocks->condition);
  if (!terminate(ir::Opcode::LoopIf, ir::predefined::kTrue, args.call)) return std::nullopt;

  b_.set_block(blocks->body);
  Frame* frame = new_frame(c.env, f.param_count + 1);
  for (std::uint32_t i = 0; i < args.count; ++i) {
    auto loaded = b_.load(loop.vars[i]);
    if (!loaded) return error(args.call, "internal error: " + loaded.error());
    frame->values[i] = Value::runtime(loop.types[i], *loaded);
  }
  frame->values[f.param_count] = Value::of(ValueKind::Rec, loop_index);

  const NodeId body = ast_.items(f.node)[2];
  auto result = lower(body, frame, nullptr, loop_index);
  if (!result) return result;
  auto type = finish_tail(*result, body);
  if (!type) return std::nullopt;
  if (loops_[loop_index].recs == 0)
    return error(f.node, "rec-func without rec: lowering its body never reached a rec in tail position (a "
                         "rec-func is a loop; use func for a plain function)");
  if (!type->valid())
    return error(f.node, "this rec-func never gives a value: every path through its body ends in rec, so the "
                         "loop would never end");

  const ir::RegisterId input = m_.new_register(*type);
  m_.function(b_.function()).block(blocks->merge).merge_input = input;
  b_.set_block(blocks->merge);
  return Value::runtime(*type, input);
}

Lowered Lowerer::lower_rec(std::uint32_t loop_index, const ArgList& args, const ArgList* rest, std::uint32_t tail) {
  if (tail != loop_index)
    return error(args.call, "rec is not in tail position: rec must be the last thing its rec-func's body does (the "
                            "body itself, a branch of an if in tail position, a let body or function body there), "
                            "and it continues the innermost rec-func around it");
  if (rest) return error(rest->call, "the result of rec cannot be applied");
  LoopFrame& loop = loops_[loop_index];
  const auto params = ast_.items(ast_.items(res_.funcs[loop.func].node)[1]);
  if (args.count != loop.types.size())
    return error(args.call, fmt::format("rec takes {} argument{} (its rec-func's parameters), {} given",
                                        loop.types.size(), loop.types.size() == 1 ? "" : "s", args.count));
  for (std::uint32_t i = 0; i < args.count; ++i) {
    const Value& a = args.values[i];
    if (!a.is_runtime() || a.type != loop.types[i])
      return error(args.nodes[i],
                   fmt::format("type mismatch: rec argument {} is {}, but the rec-func's parameter '{}' is {} (the "
                               "type of its first value)",
                               i + 1, describe(a), ast_.name(node(params[i]).symbol), describe(loop.types[i])));
  }
  // All new values exist before any variable changes: parallel assignment.
  set_location(args.call);
  for (std::uint32_t i = 0; i < args.count; ++i) {
    auto stored = b_.store(loop.vars[i], args.values[i].operand);
    if (!stored) return error(args.call, "internal error: " + stored.error());
  }
  if (!terminate(ir::Opcode::Continue, std::nullopt, args.call)) return std::nullopt;
  ++loop.recs;
  return Value::tail(ir::TypeId{});
}

}  // namespace sluice::lambdav
