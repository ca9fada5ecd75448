// rec-func and rec (see lower.h). A rec-func application stores its
// arguments into one Function-storage variable per parameter and becomes a
// Loop in one of two forms.
//
// Header form, for a body that is, through lets, (if c E STEP) or
// (if c STEP E) where every tail position of STEP (through ifs and lets) is
// a `rec` and no other part of the body mentions the rec-func (the common
// case: count down, test, step). The exit test is the loop's condition, as
// glslang lowers `while (c)`, and E is computed after the loop from the
// loop-carried values:
//
//   Declare: v_i
//   Store v_i arg_i
//   Loop
//     condition: r_i = Load v_i, the lets, c, LoopIf !c (or c)
//     body:      r_i = Load v_i, the lets, STEP  ; each rec: Store v_i a_i, Continue
//     merge:     r_i = Load v_i, the lets, E     ; the rec-func's value
//
// Blocks of the IR see only what their ancestors computed (docs/ir.md), so
// body and merge load the parameters they name again and compute the lets
// again. Computing them again, rather than keeping them in variables the
// condition stores, keeps the condition free of statements: GLSL output
// then writes `while (c)`, where a statement would make it
// `for (;;) { ...; if (!c) break; }`, the shape drivers hang on. A let
// bound to a function costs nothing to lower again (no IR), unless
// computing the function computes values.
//
// Drivers need this form: NVIDIA's 580 driver hangs on a float-counted loop
// nested in another whose exit test sits in a selection in the body
// (docs/workarounds.md, "loop-exit-in-header").
//
// General form, for every other body (several exits, a rec reached through
// a helper function or passed as a value):
//
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

  const HeaderForm* form = options_.loop_exit_in_header ? header_form(c.func) : nullptr;
  return form ? lower_rec_func_header(*form, loop_index, c.env, *blocks)
              : lower_rec_func_general(loop_index, c.env, *blocks, args.call);
}

Frame* Lowerer::load_loop_frame(std::uint32_t loop_index, const Frame* env, NodeId at,
                                const std::vector<bool>* uses) {
  const LoopFrame& loop = loops_[loop_index];
  const FuncInfo& f = res_.funcs[loop.func];
  Frame* frame = new_frame(env, f.param_count + 1);
  set_location(at);
  for (std::size_t i = 0; i < loop.vars.size(); ++i) {
    if (uses && !(*uses)[i]) continue;  // never looked up: its part does not name it
    auto loaded = b_.load(loop.vars[i]);
    if (!loaded) {
      error(at, "internal error: " + loaded.error());
      return nullptr;
    }
    frame->values[i] = Value::runtime(loop.types[i], *loaded);
  }
  frame->values[f.param_count] = Value::of(ValueKind::Rec, loop_index);
  return frame;
}

Lowered Lowerer::lower_rec_func_general(std::uint32_t loop_index, const Frame* env, const ir::LoopBlocks& blocks,
                                        NodeId call) {
  const FuncInfo& f = res_.funcs[loops_[loop_index].func];
  b_.set_block(blocks.condition);
  if (!terminate(ir::Opcode::LoopIf, ir::predefined::kTrue, call)) return std::nullopt;

  b_.set_block(blocks.body);
  Frame* frame = load_loop_frame(loop_index, env, call);
  if (!frame) return std::nullopt;
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
  m_.function(b_.function()).block(blocks.merge).merge_input = input;
  b_.set_block(blocks.merge);
  return Value::runtime(*type, input);
}

const Lowerer::HeaderForm* Lowerer::header_form(std::uint32_t func) {
  auto [it, inserted] = header_forms_.try_emplace(func);
  if (!inserted) return it->second ? &*it->second : nullptr;
  const FuncInfo& f = res_.funcs[func];
  const BindingRef rec{f.level, f.param_count};
  auto is_rec = [&](NodeId id) {
    const NodeInfo& info = res_.info[id];
    return node(id).kind == NodeKind::Identifier && info.ref == RefKind::Local && info.a == rec.level &&
           info.b == rec.slot;
  };
  // The body's references to its own rec, counted without recursion.
  const NodeId body = ast_.items(f.node)[2];
  std::size_t refs = 0;
  std::vector<NodeId> stack{body};
  while (!stack.empty()) {
    const NodeId id = stack.back();
    stack.pop_back();
    if (is_rec(id)) ++refs;
    if (node(id).kind == NodeKind::List)
      for (NodeId child : ast_.items(id)) stack.push_back(child);
  }
  if (refs == 0) return nullptr;

  HeaderForm form;
  NodeId at = body;
  while (node(at).kind == NodeKind::List && res_.info[at].form == Form::Let) {
    form.lets.push_back(at);
    at = ast_.items(at)[2];
  }
  if (node(at).kind != NodeKind::List || res_.info[at].form != Form::If) return nullptr;
  const auto items = ast_.items(at);
  auto is_rec_call = [&](NodeId id) {
    return node(id).kind == NodeKind::List && res_.info[id].form == Form::Apply && is_rec(ast_.items(id)[0]);
  };
  // A step: every tail position in it (through ifs and lets) is a `rec`,
  // and those are all the body's references to its rec — so the step never
  // leaves the loop, and nothing else mentions the rec.
  auto is_step = [&](NodeId step) {
    std::size_t calls = 0;
    std::vector<NodeId> tails{step};
    while (!tails.empty()) {
      const NodeId id = tails.back();
      tails.pop_back();
      if (is_rec_call(id)) {
        ++calls;
        continue;
      }
      if (node(id).kind != NodeKind::List) return false;
      const Form form_of = res_.info[id].form;
      const auto parts = ast_.items(id);
      if (form_of == Form::If) tails.insert(tails.end(), {parts[2], parts[3]});
      else if (form_of == Form::Let) tails.push_back(parts[2]);
      else return false;
    }
    return calls == refs;
  };
  form.condition = items[1];
  if (is_step(items[3])) {
    form.rec_call = items[3];
    form.exit_value = items[2];
    form.exit_when_true = true;
  } else if (is_step(items[2])) {
    form.rec_call = items[2];
    form.exit_value = items[3];
  } else {
    return nullptr;
  }
  // What each part needs. Let k's frame is level f.level + 1 + k, and a
  // binding of let k can only name parameters and earlier lets' bindings, so
  // one walk from the innermost let outwards finds everything needed.
  auto uses_of = [&](NodeId part) {
    HeaderForm::Uses uses;
    uses.params.assign(f.param_count, false);
    for (const NodeId let : form.lets) uses.bindings.emplace_back(ast_.items(ast_.items(let)[1]).size(), false);
    auto mark = [&](NodeId root) {
      std::vector<NodeId> pending{root};
      while (!pending.empty()) {
        const NodeId id = pending.back();
        pending.pop_back();
        const NodeInfo& info = res_.info[id];
        if (node(id).kind == NodeKind::Identifier && info.ref == RefKind::Local) {
          if (info.a == f.level && info.b < f.param_count) uses.params[info.b] = true;
          const std::size_t k = info.a - f.level - 1;
          if (info.a > f.level && k < uses.bindings.size() && info.b < uses.bindings[k].size())
            uses.bindings[k][info.b] = true;
        }
        if (node(id).kind == NodeKind::List)
          for (NodeId child : ast_.items(id)) pending.push_back(child);
      }
    };
    mark(part);
    for (std::size_t k = form.lets.size(); k-- > 0;) {
      const auto bindings = ast_.items(ast_.items(form.lets[k])[1]);
      for (std::size_t i = 0; i < bindings.size(); ++i)
        if (uses.bindings[k][i]) mark(ast_.items(bindings[i])[1]);
    }
    return uses;
  };
  form.condition_uses = uses_of(form.condition);
  form.step_uses = uses_of(form.rec_call);
  form.value_uses = uses_of(form.exit_value);
  it->second = std::move(form);
  return &*it->second;
}

const Frame* Lowerer::lower_header_lets(const HeaderForm& form, const Frame* env, const HeaderForm::Uses& uses) {
  for (std::size_t k = 0; k < form.lets.size(); ++k) {
    const auto bindings = ast_.items(ast_.items(form.lets[k])[1]);
    Frame* frame = new_frame(env, static_cast<std::uint32_t>(bindings.size()));
    for (std::size_t i = 0; i < bindings.size(); ++i) {
      if (!uses.bindings[k][i]) continue;  // never looked up in this part
      const auto binding = ast_.items(bindings[i]);
      auto v = lower_value(binding[1], env);
      if (!v) return nullptr;
      if (v->kind == ValueKind::Closure && closures_[v->index].name == kNoSymbol)
        closures_[v->index].name = node(binding[0]).symbol;
      frame->values[i] = *v;
    }
    env = frame;
  }
  return env;
}

Lowered Lowerer::lower_rec_func_header(const HeaderForm& form, std::uint32_t loop_index, const Frame* env,
                                       const ir::LoopBlocks& blocks) {
  // Condition: leave when the exit test says so.
  b_.set_block(blocks.condition);
  const Frame* params = load_loop_frame(loop_index, env, form.condition, &form.condition_uses.params);
  if (!params) return std::nullopt;
  const Frame* scope = lower_header_lets(form, params, form.condition_uses);
  if (!scope) return std::nullopt;
  auto cond = lower_condition(form.condition, scope);
  if (!cond) return cond;
  ir::Operand stay = cond->operand;
  if (form.exit_when_true) {
    // (eq a b) just computed for this test becomes (neq a b): the exact
    // complement, NaN included (ordered equal, unordered not-equal).
    auto& insts = b_.current_block().instructions;
    if (!insts.empty() && insts.back().opcode == ir::Opcode::Equal && cond->operand.is_register() &&
        insts.back().result == cond->operand.as_register()) {
      insts.back().opcode = ir::Opcode::NotEqual;
    } else {
      auto negated = emit(ir::Opcode::LogicalNot, {cond->operand}, form.condition);
      if (!negated) return negated;
      stay = negated->operand;
    }
  }
  if (!terminate(ir::Opcode::LoopIf, stay, form.condition)) return std::nullopt;

  // Body: the step.
  b_.set_block(blocks.body);
  params = load_loop_frame(loop_index, env, form.rec_call, &form.step_uses.params);
  if (!params) return std::nullopt;
  scope = lower_header_lets(form, params, form.step_uses);
  if (!scope) return std::nullopt;
  auto step = lower(form.rec_call, scope, nullptr, loop_index);
  if (!step) return step;

  // Merge: the value, from the parameters the loop ended with.
  b_.set_block(blocks.merge);
  params = load_loop_frame(loop_index, env, form.exit_value, &form.value_uses.params);
  if (!params) return std::nullopt;
  scope = lower_header_lets(form, params, form.value_uses);
  if (!scope) return std::nullopt;
  auto value = lower_value(form.exit_value, scope);
  if (!value) return value;
  if (!value->is_runtime())
    return error(form.exit_value, fmt::format("a rec-func's result must be a value, not {}", describe(*value)));
  return value;
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
