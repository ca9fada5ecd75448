// The core of the λV lowering (see lower.h): literals, names, application,
// let, if, and/or, closures, and the limits every evaluation step checks.
#include "frontend/lambdav/lower.h"

#include <pthread.h>

#include <boost/container/small_vector.hpp>
#include <fmt/format.h>

#include "frontend/lambdav/types.h"
#include "ir/predefined.h"

namespace sluice::lambdav {

using ir::predefined::kBool;
using ir::predefined::kFloat;

namespace {

// Native stack kept free below the deepest lower() frame: room for the
// builder, the diagnostic and the unwinding after a limit is hit (a quarter
// of the stack when that is less).
constexpr std::size_t kStackReserve = 256 * 1024;

// The lowest address this thread's stack may grow to, plus the reserve; 0
// when unknown (then only the counted depth limit applies). At the default
// limit, lowering uses about 1 MiB (docs/lambdav.md, "Limits").
std::uintptr_t stack_limit() {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
  void* addr = nullptr;
  std::size_t size = 0;
  const bool ok = pthread_attr_getstack(&attr, &addr, &size) == 0;
  pthread_attr_destroy(&attr);
  if (!ok || size == 0) return 0;
  return reinterpret_cast<std::uintptr_t>(addr) + std::min(kStackReserve, size / 4);
}

}  // namespace

Lowerer::Lowerer(const Ast& ast, const Resolution& res, DiagnosticSink& sink, const CompileOptions& options,
                 ir::Module& m)
    : ast_(ast), res_(res), sink_(sink), options_(options), m_(m), b_(m) {
  stats_.nodes = ast.nodes.size();
  max_steps_ = options.max_steps ? options.max_steps : kBaseSteps + kStepsPerNode * ast.nodes.size();
  stack_limit_ = stack_limit();
  if (options.source_locations) source_file_ = m.add_source_file(sink.file());
  function_names_["main"] = 1;  // the entry point's name is taken: a user `main` becomes main_1
}

std::size_t Lowerer::KeyHash::operator()(const std::vector<std::uint32_t>& k) const noexcept {
  std::size_t h = k.size();
  for (std::uint32_t x : k) h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

// --- Errors and emission ---

std::nullopt_t Lowerer::error(NodeId at, std::string message) {
  if (at == kNoNode) {
    sink_.error(1, 1, std::move(message));
    return std::nullopt;
  }
  const Node& n = node(at);
  sink_.error(n.line, n.column, std::move(message));
  return std::nullopt;
}

std::string Lowerer::describe(ir::TypeId t) const { return describe_type(m_, t); }

std::string Lowerer::describe(const Value& v) const {
  switch (v.kind) {
    case ValueKind::Runtime: return describe(v.type);
    case ValueKind::Closure: return "a function";
    case ValueKind::Builtin: return fmt::format("the builtin '{}'", builtin(static_cast<BuiltinId>(v.index)).name);
    case ValueKind::Swizzle: return "a swizzle";
    case ValueKind::Rec: return "rec";
    case ValueKind::Tail: return v.type.valid() ? fmt::format("Rec {}", describe(v.type)) : "PureRec";
  }
  return "?";
}

void Lowerer::set_location(NodeId at) {
  if (!options_.source_locations || at == kNoNode) return;
  const Node& n = node(at);
  b_.set_location(ir::SourceLocation{source_file_, n.line, n.column});
}

Lowered Lowerer::emit(ir::Opcode op, std::span<const ir::Operand> operands, NodeId at) {
  set_location(at);
  auto r = b_.emit(op, operands);
  if (!r) return error(at, "internal error: " + r.error());
  return Value::runtime(m_.reg(*r).type, *r);
}

Lowered Lowerer::emit(ir::Opcode op, std::initializer_list<ir::Operand> operands, NodeId at) {
  return emit(op, std::span<const ir::Operand>(operands.begin(), operands.size()), at);
}

Lowered Lowerer::construct(ir::Opcode op, ir::TypeId type, std::span<const ir::Operand> operands, NodeId at) {
  set_location(at);
  auto r = b_.construct(op, type, operands);
  if (!r) return error(at, "internal error: " + r.error());
  return Value::runtime(type, *r);
}

bool Lowerer::terminate(ir::Opcode op, std::optional<ir::Operand> operand, NodeId at) {
  set_location(at);
  auto r = b_.terminate(op, operand);
  if (!r) {
    error(at, "internal error: " + r.error());
    return false;
  }
  return true;
}

// --- Limits ---

bool Lowerer::enter(NodeId e) {
  if (++stats_.steps > max_steps_) {
    if (!too_large_reported_)
      error(e, fmt::format("program too large: lowering it takes more than {} steps, because function bodies are "
                           "inlined at every application (see docs/lambdav.md, \"Limits\")",
                           max_steps_));
    too_large_reported_ = true;
    return false;
  }
  if (depth_ >= options_.max_depth) {
    error(e, fmt::format("expressions nest more than {} levels deep once function bodies are inlined (the limit; "
                         "see docs/lambdav.md, \"Limits\"); a func that recurses through functions it is given "
                         "would nest without end: loops are written with rec-func",
                         options_.max_depth));
    return false;
  }
  const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  if (stack_limit_ != 0 && here < stack_limit_) {
    error(e, "expressions nest too deeply for the compiler's stack (see docs/lambdav.md, \"Limits\")");
    return false;
  }
  ++depth_;
  return true;
}

// --- Frames and closures ---

Frame* Lowerer::new_frame(const Frame* parent, std::uint32_t size) {
  Frame* f = arena_.make_array<Frame>(1);
  f->parent = parent;
  f->level = parent ? parent->level + 1 : 0;
  f->size = size;
  f->values = arena_.make_array<Value>(size);
  return f;
}

Lowered Lowerer::lookup(const Frame* env, BindingRef b, NodeId at) {
  const Frame* f = env;
  while (f && f->level > b.level) f = f->parent;
  if (!f || f->level != b.level || b.slot >= f->size)
    return error(at, fmt::format("internal error: no binding at level {}, slot {}", b.level, b.slot));
  return f->values[b.slot];
}

std::string Lowerer::function_name(const Closure& c) const {
  if (c.name != kNoSymbol) return fmt::format("'{}'", ast_.name(c.name));
  const Node& n = node(res_.funcs[c.func].node);
  return fmt::format("the function at {}:{}", n.line, n.column);
}

Value Lowerer::make_closure(std::uint32_t func, const Frame* env) {
  Closure c;
  c.func = func;
  c.env = env;
  const FuncInfo& f = res_.funcs[func];
  if (options_.ir_functions && !f.free_overflow) {
    // Closed when every free binding is a compile-time value; the key names
    // the func node and those values, so equal closures share one id.
    std::vector<std::uint32_t> key{func};
    bool closed = true;
    for (const BindingRef& b : f.free) {
      const Lowered found = lookup(env, b, f.node);
      if (!found) {  // reported; the closure stays open
        closed = false;
        break;
      }
      const Value v = *found;
      switch (v.kind) {
        case ValueKind::Runtime:
          if (!v.operand.is_constant()) closed = false;
          key.insert(key.end(), {1u, v.operand.value()});
          break;
        case ValueKind::Closure:
          if (closures_[v.index].closed_id == kNotClosed) closed = false;
          key.insert(key.end(), {2u, closures_[v.index].closed_id});
          break;
        case ValueKind::Builtin: key.insert(key.end(), {3u, v.index}); break;
        case ValueKind::Swizzle: key.insert(key.end(), {4u, v.index}); break;
        case ValueKind::Rec:
        case ValueKind::Tail: closed = false; break;
      }
      if (!closed) break;
    }
    if (closed) c.closed_id = intern_closed(std::move(key));
  }
  closures_.push_back(c);
  return Value::of(ValueKind::Closure, static_cast<std::uint32_t>(closures_.size() - 1));
}

// --- Expressions ---

Lowered Lowerer::lower(NodeId e, const Frame* env, const ArgList* pending, std::uint32_t tail) {
  if (!enter(e)) return std::nullopt;
  struct Leave {
    Lowerer& l;
    ~Leave() { l.leave(); }
  } leave{*this};

  const Node& n = node(e);
  switch (n.kind) {
    case NodeKind::Number:
      return apply_pending(Value::runtime(kFloat, m_.float_constant(n.number)), pending, tail);
    case NodeKind::Bool:
      return apply_pending(
          Value::runtime(kBool, n.boolean ? ir::predefined::kTrue : ir::predefined::kFalse), pending, tail);
    case NodeKind::Identifier: {
      const NodeInfo& info = res_.info[e];
      switch (info.ref) {
        case RefKind::Local: {
          const Lowered v = lookup(env, {info.a, info.b}, e);
          return v ? apply_pending(*v, pending, tail) : std::nullopt;
        }
        case RefKind::Builtin: return apply_pending(Value::of(ValueKind::Builtin, info.a), pending, tail);
        case RefKind::Swizzle: return apply_pending(Value::of(ValueKind::Swizzle, info.a), pending, tail);
        case RefKind::None: break;
      }
      return error(e, "internal error: unresolved identifier");
    }
    case NodeKind::List: break;
  }
  switch (res_.info[e].form) {
    case Form::Apply: return lower_apply(e, env, pending, tail);
    case Form::Let: return lower_let(e, env, pending, tail);
    case Form::If: return lower_if(e, env, pending, tail);
    case Form::Func:
    case Form::RecFunc: return apply_pending(make_closure(res_.info[e].a, env), pending, tail);
    case Form::And:
    case Form::Or: {
      auto v = lower_short_circuit(e, env, res_.info[e].form == Form::And);
      if (!v) return v;
      return apply_pending(*v, pending, tail);
    }
    case Form::Atom:
    case Form::Define:
    case Form::Output: break;
  }
  return error(e, "internal error: unexpected form");
}

Lowered Lowerer::lower_apply(NodeId e, const Frame* env, const ArgList* pending, std::uint32_t tail) {
  const auto items = ast_.items(e);
  const std::size_t n = items.size() - 1;
  boost::container::small_vector<Value, 4> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto v = lower_value(items[i + 1], env);
    if (!v) return v;
    values[i] = *v;
  }
  ArgList list;
  list.values = values.data();
  list.nodes = items.data() + 1;
  list.count = static_cast<std::uint32_t>(n);
  list.call = e;
  list.next = pending;
  return lower(items[0], env, &list, tail);
}

Lowered Lowerer::apply_pending(Value v, const ArgList* pending, std::uint32_t tail) {
  while (pending) {
    const ArgList& args = *pending;
    pending = args.next;
    // The closures whose value this list is applied to are done with their
    // bodies on this path: (compose f g) may be applied again inside the
    // application of its result.
    for (const Release* r = args.releases; r; r = r->next) deactivate(*r->key);
    struct Reacquire {
      Lowerer& l;
      const Release* releases;
      ~Reacquire() {
        for (const Release* r = releases; r; r = r->next) l.activate(*r->key);
      }
    } reacquire{*this, args.releases};
    switch (v.kind) {
      case ValueKind::Closure: return apply_closure(v.index, args, pending, tail);
      case ValueKind::Rec: return lower_rec(v.index, args, pending, tail);
      case ValueKind::Builtin: {
        auto r = lower_builtin(static_cast<BuiltinId>(v.index), args);
        if (!r) return r;
        v = *r;
        break;
      }
      case ValueKind::Swizzle: {
        auto r = apply_swizzle(Swizzle::unpack(v.index), args);
        if (!r) return r;
        v = *r;
        break;
      }
      case ValueKind::Runtime:
        return error(args.call, fmt::format("a value of type {} is not a function and cannot be applied",
                                            describe(v.type)));
      case ValueKind::Tail: return error(args.call, "the result of rec cannot be applied");
    }
  }
  return v;
}

Lowered Lowerer::apply_closure(std::uint32_t index, const ArgList& args, const ArgList* rest, std::uint32_t tail) {
  Closure& c = closures_[index];
  const FuncInfo& f = res_.funcs[c.func];
  if (args.count != f.param_count)
    return error(args.call, fmt::format("{} takes {} argument{}, {} given", function_name(c), f.param_count,
                                        f.param_count == 1 ? "" : "s", args.count));
  const ApplicationKey key = application_key(index, args);
  if (active_.count(key)) {
    const Node& def = node(f.node);
    return error(args.call,
                 fmt::format("recursion through func: {} (defined at {}:{}) is applied inside its own body; λV "
                             "functions cannot call themselves, write the loop with rec-func and rec",
                             function_name(c), def.line, def.column));
  }
  activate(key);
  struct Deactivate {
    Lowerer& l;
    const ApplicationKey& key;
    ~Deactivate() { l.deactivate(key); }
  } deactivate_at_end{*this, key};
  if (f.is_rec) return lower_rec_func(index, args, rest);

  bool first_order = true;
  for (const Value& v : args.args()) first_order = first_order && v.is_runtime();
  if (c.closed_id != kNotClosed && first_order && !rest && !f.returns_function_literal) {
    Value result;
    switch (call_ir_function(index, args, result)) {
      case CallOutcome::Called: return result;
      case CallOutcome::Failed: return std::nullopt;
      case CallOutcome::Inline: break;
    }
  }

  Frame* frame = new_frame(c.env, f.param_count);
  for (std::uint32_t i = 0; i < args.count; ++i) frame->values[i] = args.values[i];
  // The body is lowered with the remaining arguments (they apply to its
  // value, possibly inside its branches); applying them releases this
  // closure, so only applications inside its own body count as recursion.
  ArgList released;
  Release release{&key, nullptr};
  if (rest) {
    released = *rest;
    release.next = rest->releases;
    released.releases = &release;
  }
  return lower(ast_.items(f.node)[2], frame, rest ? &released : nullptr, tail);
}

ApplicationKey Lowerer::application_key(std::uint32_t closure, const ArgList& args) const {
  ApplicationKey key{closure};
  key.reserve(1 + 2 * args.count);
  for (const Value& a : args.args()) {
    key.push_back(static_cast<std::uint32_t>(a.kind));
    key.push_back(a.is_runtime() ? a.type.index() : a.index);
  }
  return key;
}

void Lowerer::deactivate(const ApplicationKey& key) {
  auto it = active_.find(key);
  if (it != active_.end() && --it->second == 0) active_.erase(it);
}

Lowered Lowerer::lower_condition(NodeId cond_node, const Frame* env) {
  auto cond = lower_value(cond_node, env);
  if (!cond) return cond;
  if (!cond->is_runtime() || cond->type != kBool)
    return error(cond_node, fmt::format("the condition of if must be Bool, not {}{}", describe(*cond),
                                        cond->is_runtime() && shape_of(m_, cond->type).kind == Shape::Kind::BoolVec
                                            ? " (use any-of or all-of)"
                                            : ""));
  return cond;
}

Lowered Lowerer::lower_let(NodeId e, const Frame* env, const ArgList* pending, std::uint32_t tail) {
  const auto items = ast_.items(e);
  const auto bindings = ast_.items(items[1]);
  Frame* frame = new_frame(env, static_cast<std::uint32_t>(bindings.size()));
  for (std::size_t i = 0; i < bindings.size(); ++i) {
    const auto binding = ast_.items(bindings[i]);
    auto v = lower_value(binding[1], env);
    if (!v) return v;
    if (v->kind == ValueKind::Closure && closures_[v->index].name == kNoSymbol)
      closures_[v->index].name = node(binding[0]).symbol;
    frame->values[i] = *v;
  }
  return lower(items[2], frame, pending, tail);
}

Lowered Lowerer::lower_if(NodeId e, const Frame* env, const ArgList* pending, std::uint32_t tail) {
  const auto items = ast_.items(e);
  auto cond = lower_condition(items[1], env);
  if (!cond) return cond;
  set_location(e);
  auto blocks = b_.branch_if(cond->operand, true);
  if (!blocks) return error(e, "internal error: " + blocks.error());

  if (tail != kNoTail) {
    // Tail position of a rec-func body: each branch ends its own block.
    b_.set_block(blocks->true_block);
    auto then_value = lower(items[2], env, pending, tail);
    if (!then_value) return then_value;
    auto then_type = finish_tail(*then_value, items[2]);
    if (!then_type) return std::nullopt;
    b_.set_block(blocks->false_block);
    auto else_value = lower(items[3], env, pending, tail);
    if (!else_value) return else_value;
    auto else_type = finish_tail(*else_value, items[3]);
    if (!else_type) return std::nullopt;
    auto type = rec_match(*then_type, *else_type, e);
    if (!type) return std::nullopt;
    b_.set_block(blocks->merge);
    if (!terminate(ir::Opcode::Unreachable, std::nullopt, e)) return std::nullopt;
    return Value::tail(*type);
  }

  auto branch = [&](ir::BlockId block, NodeId expr, const char* which) -> Lowered {
    b_.set_block(block);
    auto v = lower(expr, env, pending, kNoTail);
    if (!v) return v;
    if (!v->is_runtime())
      return error(expr, fmt::format("the {} branch of this if gives {}: an if whose condition is known only at run "
                                     "time gives values, not functions (apply the function inside each branch)",
                                     which, describe(*v)));
    if (!terminate(ir::Opcode::Merge, v->operand, expr)) return std::nullopt;
    return v;
  };
  auto then_value = branch(blocks->true_block, items[2], "then");
  if (!then_value) return then_value;
  auto else_value = branch(blocks->false_block, items[3], "else");
  if (!else_value) return else_value;
  if (then_value->type != else_value->type)
    return error(e, fmt::format("the branches of this if have different types: {} and {}",
                                describe(then_value->type), describe(else_value->type)));
  const ir::RegisterId input = m_.new_register(then_value->type);
  m_.function(b_.function()).block(blocks->merge).merge_input = input;
  b_.set_block(blocks->merge);
  return Value::runtime(then_value->type, input);
}

Lowered Lowerer::lower_short_circuit(NodeId e, const Frame* env, bool is_and) {
  const auto items = ast_.items(e);
  const char* name = is_and ? "and" : "or";
  const std::size_t n = items.size() - 1;
  if (n < 2) return error(e, fmt::format("'{}' takes at least 2 arguments, {} given", name, n));
  auto first = lower_value(items[1], env);
  if (!first) return first;
  const Shape shape = first->is_runtime() ? shape_of(m_, first->type) : Shape{};
  if (shape.kind == Shape::Kind::BoolVec) {
    // Component-wise on Vec(n, b): nothing to skip, so evaluate all.
    boost::container::small_vector<Value, 4> values{*first};
    for (std::size_t i = 2; i <= n; ++i) {
      auto v = lower_value(items[i], env);
      if (!v) return v;
      values.push_back(*v);
    }
    ArgList list;
    list.values = values.data();
    list.nodes = items.data() + 1;
    list.count = static_cast<std::uint32_t>(n);
    list.call = e;
    return logic_eager(is_and, as_span(values), list);
  }
  if (shape.kind != Shape::Kind::Bool)
    return error(items[1], fmt::format("'{}' expects Bool or Vec(n, b) arguments, not {}", name, describe(*first)));

  // (and a b c): If a { If b { c } else false } else false, each If's merge
  // input carrying the value out.
  ir::Operand current = first->operand;
  std::vector<ir::IfBlocks> open;
  for (std::size_t i = 2; i <= n; ++i) {
    set_location(items[i]);
    auto blocks = b_.branch_if(current, true, kBool);
    if (!blocks) return error(e, "internal error: " + blocks.error());
    b_.set_block(is_and ? blocks->false_block : blocks->true_block);
    if (!terminate(ir::Opcode::Merge, is_and ? ir::predefined::kFalse : ir::predefined::kTrue, e))
      return std::nullopt;
    b_.set_block(is_and ? blocks->true_block : blocks->false_block);
    auto v = lower_value(items[i], env);
    if (!v) return v;
    if (!v->is_runtime() || v->type != kBool)
      return error(items[i], fmt::format("'{}' expects Bool arguments; argument {} is {}", name, i, describe(*v)));
    current = v->operand;
    open.push_back(*blocks);
  }
  while (!open.empty()) {
    if (!terminate(ir::Opcode::Merge, current, e)) return std::nullopt;
    b_.set_block(open.back().merge);
    current = b_.merge_input(open.back().merge);
    open.pop_back();
  }
  return Value::runtime(kBool, current);
}

}  // namespace sluice::lambdav
