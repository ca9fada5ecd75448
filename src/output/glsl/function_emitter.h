// One function's text. The block tree is walked with an explicit stack of
// chain frames (a chain is a block and the merge blocks after it); each
// chain writes a chunk of the Document, and a construct is assembled once
// its sub-chains are written, so the walk never recurses.
//
// Inlining (the ANGLE IR text output's rule): a register used once, later in
// the same chain, is kept pending as an expression and spelled at its use;
// others get a `const` temporary. Before each instruction, a pending
// expression it does not consume is bound to a temporary if the two touch
// the same memory and one of them writes it (MemoryAccess::conflicts_with):
// a Load is never moved past a Store to its variable or past a call that
// may write its memory (call_effects.h), and a call never past another
// access to memory it may change. Pending
// expressions therefore commute with everything up to their use.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "output/glsl/analysis.h"
#include "output/glsl/context.h"
#include "output/glsl/document.h"

namespace sluice::glsl_out {

// Expressions longer than this many nested operations get a temporary.
inline constexpr std::uint32_t kMaxInlineDepth = 32;

// Module-wide per-register state of the emitter.
struct RegisterStates {
  enum class State : std::uint8_t { Unset, Pending, Bound, Consumed };
  std::vector<State> state;
  std::vector<Expr> pending;        // the expression of a Pending register
  std::vector<std::string> names;   // the name of a Bound register

  explicit RegisterStates(std::size_t n) : state(n, State::Unset), pending(n), names(n) {}
};

enum class ChainKind : std::uint8_t { Entry, IfTrue, IfFalse, LoopCondition, LoopBody, LoopContinue, Case };

// What a finished chain hands to the construct that owns it.
struct ChainResult {
  ChunkId chunk = 0;
  bool present = false;          // the sub-block exists
  bool declares = false;         // declarations at the chunk's top level
  std::optional<Expr> value;     // the operand of a final Merge or LoopIf, not yet spelled anywhere
  std::optional<ir::Operand> merged;  // a final Merge's operand itself
  ir::Opcode end = ir::Opcode::Unreachable;  // the chain's last terminator
  bool only_expressions = true;  // every statement is an expression statement (for a `for` step)
  std::vector<std::string> expressions;
};

// Emits function `f`: "signature {\n body }\n".
std::string emit_function(EmitContext& ctx, RegisterFacts& regs, VariableFacts& vars, RegisterStates& states,
                          ir::FunctionId f);

namespace detail {

struct Frame {
  ChainKind kind = ChainKind::Entry;
  ir::BlockId construct;         // the block whose terminator owns this chain
  std::uint32_t slot = 0;        // index among the construct's sub-blocks (listing order)
  ir::BlockId block;             // the chain's current block
  std::uint32_t step = 0;        // progress through the current block's sub-chains
  std::vector<ChainResult> subs; // by listing slot
  ChainResult result;
  std::vector<ir::RegisterId> pending;  // pending registers whose expressions access memory
};

// At most this many pending expressions that access memory per chain; the
// oldest is bound when there would be more, which bounds the cost of
// checking each instruction against them.
inline constexpr std::size_t kMaxPendingAccesses = 64;

struct LoopContext {
  ir::BlockId loop;
  std::optional<ChunkId> latch;  // placed before each `continue` (the continue block, ...)
  bool latch_declares = false;
  std::string step;              // the `for` step, when the continue block fits there
  std::string condition_flag;    // DoLoop with a statement condition: the flag `while` tests
};

class FunctionEmitter {
 public:
  FunctionEmitter(EmitContext& ctx, RegisterFacts& regs, VariableFacts& vars, RegisterStates& states,
                  ir::FunctionId f);
  std::string run();

 private:
  // --- control_flow.cpp: the walk and the constructs ---
  void walk();
  bool schedule_sub_chain(std::size_t frame_index);
  void finish_block(std::size_t frame_index);
  void terminator(Frame& f, ir::BlockId id, const ir::Block& b);
  void assemble_if(Frame& f, const ir::Block& b);
  void assemble_loop(Frame& f, ir::BlockId id, const ir::Block& b);
  void assemble_switch(Frame& f, const ir::Block& b);
  void after_continue_chain(Frame& f, const ir::Block& b);
  void after_condition_chain(Frame& f, const ir::Block& b);
  void continue_statement(Frame& f, ir::BlockId id);
  void break_statement(Frame& f, ir::BlockId id, const ir::Instruction& inst);
  LoopContext* innermost_loop() { return loops_.empty() ? nullptr : &loops_.back(); }

  // --- statements.cpp: declarations, instructions, operands ---
  // A block's local variables are declared in its Declare order (the order a
  // front end met them): each as late as its first use allows, and one whose
  // first use stores the whole variable as `T v = value;` at that store.
  void begin_declarations(Frame& f, ir::BlockId id, const ir::Block& b);
  void declare_through(Frame& f, std::size_t position);  // every one up to `position`, plainly
  void declare_until_store(Frame& f);                    // the next ones that need no store
  void declare_used(Frame& f, const ir::Instruction& inst, std::int32_t index);
  void instruction(Frame& f, ir::BlockId id, std::size_t index, const ir::Instruction& inst);
  void store(Frame& f, ir::BlockId id, const ir::Instruction& inst, std::int32_t index);
  // Flushes what evaluating operand `o` and then `access` would reorder,
  // then spells the operand.
  Expr value_operand(Frame& f, ir::Operand o, const MemoryAccess& access);
  // Binds the pending expressions not in `consumed` that conflict with `access`.
  // ...except those `defining` (the register the instruction defines)
  // meets to their right in one expression (spelled_before).
  void flush(Frame& f, std::span<const ir::RegisterId> consumed, const MemoryAccess& access,
             ir::RegisterId defining = {});
  bool spelled_before(ir::RegisterId earlier, ir::RegisterId later) const;
  // A pending expression that the text of `inst` would spell after a
  // pointer or opaque value defined later (a `const` value used as a
  // texture coordinate): a front end reading the text would evaluate them
  // in the other order, so the pending expressions up to the latest such
  // one are bound first, in the order they were defined.
  void bind_out_of_order(Frame& f, const ir::Instruction& inst);
  MemoryAccess own_access(const ir::Instruction& inst) const;
  bool extracts_from_loaded_value(const ir::Instruction& inst) const;
  // `Store p C` right before an Extract from the same constant C (the
  // source's `(t = C).b[2]`): a front end folds `C.b[2]`, so the Store is
  // spelled as the Extract's base instead.
  bool constant_extracted_next(ir::BlockId id, std::int32_t index, const ir::Instruction& store) const;
  bool unused_constant_access(ir::RegisterId r) const;
  void bind_branches_beside_sampler_construct(Frame& f, const ir::Instruction& inst);
  std::optional<ir::VariableId> local_root(ir::Operand pointer) const;
  std::vector<ir::RegisterId> consumed_by(std::span<const ir::Operand> operands) const;
  // A copy-back temporary's argument in its place (source_forms.h), else `o`.
  ir::Operand in_place(ir::Operand o) const;
  Expr operand(ir::Operand o);
  Expr inline_pointer(ir::RegisterId r);
  void define(Frame& f, ir::RegisterId r, Expr e, bool force_pending = false);
  void bind(Frame& f, ir::RegisterId r, Expr e);
  void statement(Frame& f, std::string text, bool expression);
  void declaration_line(Frame& f, std::string text);
  const std::string& register_name(ir::RegisterId r);
  std::string variable_declaration(ir::VariableId v, std::optional<std::string> initializer);
  std::string variable_name(ir::VariableId v) const;

  EmitContext& ctx_;
  const ir::Module& m_;
  const ir::FunctionId id_;
  const ir::Function& f_;
  RegisterFacts& regs_;
  VariableFacts& vars_;
  RegisterStates& states_;
  NameTable names_;
  FunctionAnalysis a_;
  Document doc_;
  std::vector<Frame> frames_;
  std::vector<LoopContext> loops_;
  ChainResult body_;
  bool returns_value_ = false;  // a `return value;` was written
  // The block whose declarations are being written, and the next one.
  const ir::Block* decl_block_ = nullptr;
  ir::BlockId decl_block_id_;
  std::size_t decl_next_ = 0;
  mutable std::vector<ir::RegisterId> consumed_stack_;  // consumed_by's, kept to reuse its memory
  std::vector<std::string> chain_targets_;  // the targets of a chained assignment so far
  std::vector<ir::RegisterId> kept_before_;  // flush's pending registers kept for spelled_before
  // bind_out_of_order's work lists, reused from one instruction to the next.
  struct OrderScratch {
    struct Span {
      ir::RegisterId pending;  // invalid for a pointer chain
      std::uint32_t first = 0, last = 0;
    };
    struct Item {
      ir::Operand o;
      bool after_operands = false;
    };
    std::vector<Span> spans;
    std::vector<Item> stack;
    std::vector<ir::Operand> held;
  };
  OrderScratch bind_scratch_;
  std::string for_init_;  // the for-init of the Loop that ends the current block, when it is a Store
  std::optional<Expr> assigned_constant_;  // `(p = C)`, for the Extract after it (constant_extracted_next)
};

}  // namespace detail
}  // namespace sluice::glsl_out
