// Scope resolution: the pass between parsing and lowering. It checks the
// shape of every special form, resolves every identifier to the binding it
// names (lexical scoping; user bindings shadow builtins), and reports all
// unbound identifiers at once. Lowering then never looks a name up.
//
// Bindings are addressed by (level, slot): level 0 is the program's
// `define`s, each let body and each function body opens the next level.
// At run time of the lowering each level is one frame, so a lookup walks up
// `current level - level` frames.
//
// For each func/rec-func it also records the bindings the body uses from
// outside ("free bindings", at most kMaxFreeBindings): a function whose free
// bindings hold no run-time values may become an IR function (lower.h).
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/lambdav/ast.h"
#include "frontend/lambdav/builtins.h"
#include "frontend/lambdav/diagnostics.h"

namespace sluice::lambdav {

// The special forms. `rec` is not one: it is a binding each rec-func makes.
enum class Form : std::uint8_t {
  Atom,     // a number, boolean or identifier
  Apply,    // (f args...)
  Let,      // (let ((name expr)...) body)
  If,       // (if cond then else)
  Func,     // (func (params...) body)
  RecFunc,  // (rec-func (params...) body)
  And,      // (and ...) naming the builtin: operands evaluated lazily
  Or,
  Define,   // top level only
  Output,
};

enum class RefKind : std::uint8_t { None, Local, Builtin, Swizzle };

struct NodeInfo {
  Form form = Form::Atom;
  RefKind ref = RefKind::None;  // identifiers
  std::uint32_t a = 0;          // Local: level; Builtin: BuiltinId; Swizzle: packed; Func/RecFunc: FuncInfo index
  std::uint32_t b = 0;          // Local: slot
};

struct BindingRef {
  std::uint32_t level = 0;
  std::uint32_t slot = 0;
  friend bool operator==(const BindingRef&, const BindingRef&) = default;
};

inline constexpr std::size_t kMaxFreeBindings = 64;

struct FuncInfo {
  NodeId node = kNoNode;
  std::uint32_t level = 0;        // the level of the parameter frame
  std::uint32_t param_count = 0;  // a rec-func's `rec` is slot param_count
  bool is_rec = false;
  // The body's value is syntactically a func or rec-func (through let and
  // if): applying it yields a function, so it never becomes an IR function.
  bool returns_function_literal = false;
  bool free_overflow = false;     // more than kMaxFreeBindings free bindings
  std::vector<BindingRef> free;   // bindings of outer levels the body uses
};

enum class TopKind : std::uint8_t { Define, Output };

struct TopForm {
  TopKind kind = TopKind::Output;
  NodeId node = kNoNode;   // the form (for a bare expression: the expression)
  NodeId expr = kNoNode;   // the expression it evaluates
  std::uint32_t slot = 0;      // Define: the level-0 slot
  std::uint32_t location = 0;  // Output: the location
};

inline constexpr std::uint32_t kMaxOutputLocation = 31;

struct Resolution {
  std::vector<NodeInfo> info;  // per node
  std::vector<FuncInfo> funcs;
  std::vector<TopForm> program;
  std::uint32_t global_slots = 0;
  std::vector<SymbolId> global_names;  // per level-0 slot
};

// Resolves a parsed program; errors go to the sink (all of them, up to its
// cap). The recursion depth is the tree's nesting, which parse() bounds.
Resolution resolve(const Ast& ast, DiagnosticSink& sink);

}  // namespace sluice::lambdav
