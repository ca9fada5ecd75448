// Lowering λV to IR. λV's functions are compile-time values, so lowering is
// an evaluator over the resolved tree that emits IR as it goes (the
// small-step semantics of docs/lambdav.md, "Evaluation", with environments
// instead of substitution):
//
//   lower(expr, env, pending, tail) -> Value
//
// `env` is the frame chain the expression's names live in; `pending` is the
// stack of argument lists the expression's value will be applied to
// (`((if c f g) x)` applies x inside each branch); `tail` names
// the rec-func whose tail position this is, if any. Arguments are lowered
// once, before the function body, and reused as registers, so the output
// grows with the source, not with substitution.
//
// Control flow: `if` becomes an If whose merge input is the value; in a
// rec-func body's tail position each branch ends the block itself (Break
// value, or Continue after a `rec`) and the If's merge block is Unreachable.
// A rec-func becomes a Loop whose condition is LoopIf true, its parameters
// Function-storage variables (stored before the loop and by `rec`, loaded at
// the top of the body) and its result the loop merge block's input.
//
// Recursion: lower() calls itself once per nested expression and once per
// inlined function body; a counted depth limit (CompileOptions::max_depth)
// and a check of the remaining native stack stop runaway nesting with a
// diagnostic, and a step budget stops programs whose inlining explodes.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/lambdav/ast.h"
#include "frontend/lambdav/builtins.h"
#include "frontend/lambdav/diagnostics.h"
#include "frontend/lambdav/lambdav.h"
#include "frontend/lambdav/resolve.h"
#include "frontend/lambdav/values.h"
#include "ir/builder.h"

namespace sluice::lambdav {

using Lowered = std::optional<Value>;  // nullopt: an error was reported

// Boost's small_vector is contiguous but not a std::contiguous_range.
template <class C>
std::span<const typename C::value_type> as_span(const C& c) {
  return {c.data(), c.size()};
}

inline constexpr std::uint32_t kNoTail = std::numeric_limits<std::uint32_t>::max();

// An application being lowered, as the recursion check compares them: the
// closure, then for each argument its kind and its closure/builtin index
// or, for a run-time value, its type (see Lowerer::application_key).
using ApplicationKey = std::vector<std::uint32_t>;

// Applications whose bodies have been lowered up to their value by the time
// an argument list is applied (see apply_closure): applying the list is no
// longer inside those bodies, so it may make them again.
struct Release {
  const ApplicationKey* key = nullptr;
  const Release* next = nullptr;
};

// Arguments waiting to be applied, innermost application first.
struct ArgList {
  const Value* values = nullptr;
  const NodeId* nodes = nullptr;  // where each argument is written
  std::uint32_t count = 0;
  NodeId call = kNoNode;          // the application
  const ArgList* next = nullptr;
  const Release* releases = nullptr;
  std::span<const Value> args() const { return {values, count}; }
};

// A rec-func being lowered: the loop's variables and how `rec` feeds them.
struct LoopFrame {
  std::vector<ir::VariableId> vars;
  std::vector<ir::TypeId> types;
  std::uint32_t func = 0;  // FuncInfo index
  std::uint32_t recs = 0;  // `rec`s lowered so far
};

class Lowerer {
 public:
  Lowerer(const Ast& ast, const Resolution& res, DiagnosticSink& sink, const CompileOptions& options,
          ir::Module& m);

  // Lowers the whole program into `main`; false after errors.
  bool lower_program();
  const CompileStats& stats() const { return stats_; }

  // --- Expressions (lower.cpp) ---
  Lowered lower(NodeId e, const Frame* env, const ArgList* pending, std::uint32_t tail);
  Lowered lower_value(NodeId e, const Frame* env) { return lower(e, env, nullptr, kNoTail); }

 private:
  bool enter(NodeId e);  // counts a step and a level; false (after reporting) past a limit
  void leave() { --depth_; }

  Lowered lower_apply(NodeId e, const Frame* env, const ArgList* pending, std::uint32_t tail);
  Lowered lower_let(NodeId e, const Frame* env, const ArgList* pending, std::uint32_t tail);
  Lowered lower_if(NodeId e, const Frame* env, const ArgList* pending, std::uint32_t tail);
  Lowered lower_short_circuit(NodeId e, const Frame* env, bool is_and);
  Lowered apply_pending(Value v, const ArgList* pending, std::uint32_t tail);
  Lowered apply_closure(std::uint32_t closure, const ArgList& args, const ArgList* rest, std::uint32_t tail);
  Value make_closure(std::uint32_t func, const Frame* env);
  ApplicationKey application_key(std::uint32_t closure, const ArgList& args) const;
  void activate(const ApplicationKey& key) { ++active_[key]; }
  void deactivate(const ApplicationKey& key);
  // The value bound at `b`; an internal error at `at` when the resolver's
  // reference does not name a slot of the frames (never, for resolved input).
  Lowered lookup(const Frame* env, BindingRef b, NodeId at);
  Frame* new_frame(const Frame* parent, std::uint32_t size);
  std::string function_name(const Closure& c) const;

  // --- rec-func and rec (lower_loop.cpp) ---
  Lowered lower_rec_func(std::uint32_t closure, const ArgList& args, const ArgList* rest);
  // The loop-header form of a rec-func body (lower_loop.cpp): the lets on
  // the way to an `if` one of whose branches (the step) ends in `rec` on
  // every path and holds all of the body's `rec`s.
  struct HeaderForm {
    std::vector<NodeId> lets;  // outermost first
    NodeId condition = kNoNode;
    NodeId rec_call = kNoNode;  // the step
    NodeId exit_value = kNoNode;
    bool exit_when_true = false;  // (if c E (rec ...)): leave when c holds
    // What each part needs: the parameters it names and the let bindings it
    // uses (through other bindings too); only those are loaded or lowered
    // there, so no part computes what it does not use.
    struct Uses {
      std::vector<bool> params;
      std::vector<std::vector<bool>> bindings;  // by let, by binding
    };
    Uses condition_uses, step_uses, value_uses;
  };
  const HeaderForm* header_form(std::uint32_t func);
  // Lowers the lets of `form` into new frames on top of `env` (again in
  // each part of the loop); null after an error.
  const Frame* lower_header_lets(const HeaderForm& form, const Frame* env, const HeaderForm::Uses& uses);
  Lowered lower_rec_func_general(std::uint32_t loop_index, const Frame* env, const ir::LoopBlocks& blocks,
                                 NodeId call);
  Lowered lower_rec_func_header(const HeaderForm& form, std::uint32_t loop_index, const Frame* env,
                                const ir::LoopBlocks& blocks);
  // The loop's parameters loaded in the current block, in a new frame (only
  // those `uses` marks, when given).
  Frame* load_loop_frame(std::uint32_t loop_index, const Frame* env, NodeId at,
                         const std::vector<bool>* uses = nullptr);
  // A Bool condition of an if, or the diagnostic lower_if gives.
  Lowered lower_condition(NodeId cond, const Frame* env);
  Lowered lower_rec(std::uint32_t loop, const ArgList& args, const ArgList* rest, std::uint32_t tail);
  // Ends a tail position: Break with a run-time value; a Tail value has
  // ended its block already. Gives τ of Rec τ (invalid for PureRec).
  std::optional<ir::TypeId> finish_tail(const Value& v, NodeId at);
  // rec-match of two branch types (docs/lambdav.md, "rec-func, rec and tail
  // position"; invalid = PureRec).
  std::optional<ir::TypeId> rec_match(ir::TypeId a, ir::TypeId b, NodeId at);

  // --- IR functions for closed first-order applications (lower_functions.cpp) ---
  enum class CallOutcome { Called, Inline, Failed };
  CallOutcome call_ir_function(std::uint32_t closure, const ArgList& args, Value& result);
  std::uint32_t intern_closed(std::vector<std::uint32_t> key);

  // --- Builtins (lower_builtins.cpp, lower_constructors.cpp) ---
  Lowered lower_builtin(BuiltinId id, const ArgList& args);
  Lowered apply_swizzle(Swizzle s, const ArgList& args);
  Lowered arithmetic(BuiltinKind kind, Value a, Value b, NodeId at, std::string_view name);
  Lowered compare(ir::Opcode op, Value a, Value b, NodeId at, std::string_view name, bool equality);
  Lowered logic_eager(bool is_and, std::span<const Value> args, const ArgList& list);
  Lowered float_op(const BuiltinInfo& bi, const ArgList& args);
  Lowered vector_constructor(const BuiltinInfo& bi, const ArgList& args);
  Lowered matrix_constructor(const BuiltinInfo& bi, const ArgList& args);
  Lowered frag_coord();
  // Broadcasts a Num to `target` (a vector or matrix type); folds constants.
  Lowered splat(const Value& scalar, ir::TypeId target, NodeId at);
  Lowered vector_from_parts(ir::TypeId type, std::span<const ir::Operand> parts, NodeId at);
  // The same value as a composite constant when all parts are constants.
  std::optional<ir::ConstantId> constant_composite(ir::TypeId type, std::span<const ir::Operand> parts);

  // --- Emission helpers (lower.cpp) ---
  Lowered emit(ir::Opcode op, std::initializer_list<ir::Operand> operands, NodeId at);
  Lowered emit(ir::Opcode op, std::span<const ir::Operand> operands, NodeId at);
  Lowered construct(ir::Opcode op, ir::TypeId type, std::span<const ir::Operand> operands, NodeId at);
  bool terminate(ir::Opcode op, std::optional<ir::Operand> operand, NodeId at);
  void set_location(NodeId at);

  std::nullopt_t error(NodeId at, std::string message);
  std::string describe(const Value& v) const;
  std::string describe(ir::TypeId t) const;
  const Node& node(NodeId id) const { return ast_.node(id); }

  const Ast& ast_;
  const Resolution& res_;
  DiagnosticSink& sink_;
  const CompileOptions& options_;
  ir::Module& m_;
  ir::Builder b_;
  std::uint32_t source_file_ = 0;

  Arena arena_;
  std::deque<Closure> closures_;
  std::deque<LoopFrame> loops_;
  Frame* globals_ = nullptr;

  struct KeyHash {
    std::size_t operator()(const std::vector<std::uint32_t>& k) const noexcept;
  };
  std::unordered_map<std::vector<std::uint32_t>, std::uint32_t, KeyHash> closed_ids_;
  // (closed id, argument types...) -> the IR function, or kInline / kInProgress.
  std::unordered_map<std::vector<std::uint32_t>, std::uint32_t, KeyHash> ir_functions_;
  // FuncInfo index -> its header form (nullopt: the general lowering).
  std::unordered_map<std::uint32_t, std::optional<HeaderForm>> header_forms_;
  std::map<std::string, std::uint32_t> function_names_;
  // Applications being lowered right now (a count per key). Lowering is
  // deterministic in its key — run-time values never choose what is
  // lowered, only their types do — so meeting an active key again is
  // recursion that would never end: "recursion through func". Different
  // function arguments (h applied to a lambda whose body applies h to
  // another function) are different keys and lower normally.
  std::unordered_map<ApplicationKey, std::uint32_t, KeyHash> active_;

  ir::VariableId frag_coord_;
  CompileStats stats_;
  std::uint64_t max_steps_ = 0;
  std::uint32_t depth_ = 0;
  std::uintptr_t stack_limit_ = 0;  // lowest frame address lower() may use
  bool too_large_reported_ = false;
};

}  // namespace sluice::lambdav
