// IR functions for first-order applications of closed closures (lower.h).
//
// Inlining every application makes output exponential in programs such as
// repeated doubling through higher-order functions. A closure that captures
// no run-time registers (its free bindings are constants, builtins and
// other such closures) can instead be lowered once per argument-type tuple
// into its own IR function, each application becoming a Call: the program
// `(define f1 (twice f0)) ... (f30 x)` then yields 31 small functions instead
// of 2^30 inlined bodies.
//
// Whether the body gives a value or a function is only known after
// lowering it; if it gives a function, the application is inlined after all
// and the function already made stays behind, uncalled and ending in a
// plain Return (valid IR). Functions whose body is syntactically a func are
// never tried (FuncInfo::returns_function_literal), so this is rare.
#include <fmt/format.h>

#include "frontend/lambdav/lower.h"
#include "ir/predefined.h"

namespace sluice::lambdav {
namespace {

constexpr std::uint32_t kInProgress = 0xffffffffu;
constexpr std::uint32_t kInline = 0xfffffffeu;

}  // namespace

std::uint32_t Lowerer::intern_closed(std::vector<std::uint32_t> key) {
  const auto next = static_cast<std::uint32_t>(closed_ids_.size());
  return closed_ids_.try_emplace(std::move(key), next).first->second;
}

Lowerer::CallOutcome Lowerer::call_ir_function(std::uint32_t index, const ArgList& args, Value& result) {
  const Closure c = closures_[index];
  const FuncInfo& f = res_.funcs[c.func];
  std::vector<std::uint32_t> key{c.closed_id};
  for (const Value& a : args.args()) key.push_back(a.type.index());

  auto [it, inserted] = ir_functions_.try_emplace(key, kInProgress);
  if (!inserted && it->second == kInline) return CallOutcome::Inline;
  if (!inserted && it->second == kInProgress) {
    const Node& def = node(f.node);
    error(args.call, fmt::format("recursion through func: {} (defined at {}:{}) is applied inside its own body; λV "
                                 "functions cannot call themselves, write the loop with rec-func and rec",
                                 function_name(c), def.line, def.column));
    return CallOutcome::Failed;
  }

  ir::FunctionId callee;
  if (!inserted) {
    callee = ir::FunctionId(it->second);
  } else {
    // Lower the body into a new function, then come back.
    const ir::FunctionId caller = b_.function();
    const ir::BlockId caller_block = b_.block();
    std::string name = c.name != kNoSymbol ? std::string(ast_.name(c.name)) : std::string("lambda");
    const std::uint32_t uses = function_names_[name]++;
    if (uses > 0) name = fmt::format("{}_{}", name, uses);
    set_location(f.node);
    callee = b_.begin_function(ir::Name{name, ir::NameSource::Internal}, ir::predefined::kVoid);
    const auto params = ast_.items(ast_.items(f.node)[1]);
    Frame* frame = new_frame(c.env, f.param_count);
    for (std::uint32_t i = 0; i < args.count; ++i) {
      const ir::VariableId var = b_.add_parameter(
          callee, ir::Name{std::string(ast_.name(node(params[i]).symbol)), ir::NameSource::Temporary},
          args.values[i].type, ir::ParamDirection::In);
      auto loaded = b_.load(var);
      if (!loaded) {
        error(args.call, "internal error: " + loaded.error());
        return CallOutcome::Failed;
      }
      frame->values[i] = Value::runtime(args.values[i].type, *loaded);
    }
    auto body = lower(ast_.items(f.node)[2], frame, nullptr, kNoTail);
    if (!body) return CallOutcome::Failed;
    const bool gives_value = body->is_runtime();
    if (gives_value) m_.function(callee).return_type = body->type;
    if (!terminate(ir::Opcode::Return, gives_value ? std::optional<ir::Operand>(body->operand) : std::nullopt,
                   f.node))
      return CallOutcome::Failed;
    b_.set_function(caller);
    b_.set_block(caller_block);
    // try_emplace may have rehashed while the body was lowered.
    ir_functions_[key] = gives_value ? callee.index() : kInline;
    if (!gives_value) return CallOutcome::Inline;
    ++stats_.ir_functions;
  }

  std::vector<ir::Operand> operands{callee};
  for (const Value& a : args.args()) operands.push_back(a.operand);
  auto call = emit(ir::Opcode::Call, operands, args.call);
  if (!call) return CallOutcome::Failed;
  result = *call;
  return CallOutcome::Called;
}

}  // namespace sluice::lambdav
