// The walk from glslang's typed AST to Sluice IR. One Translator turns one
// linked glslang intermediate into one ir::Module; its member functions are
// split over files by topic: translator.cpp (shader-level driving and
// helpers), types.cpp (types, precision, constants), interface.cpp
// (variables and built-ins), functions.cpp (definitions and calls),
// statements.cpp (control flow), expressions.cpp (operators and access
// chains), conversions.cpp (constructors and implicit conversions),
// builtins.cpp (built-in functions) and textures.cpp (texture and image
// functions).
//
// Errors: the first unsupported feature or internal failure records a
// diagnostic and sets failed(); from then on every translate function
// returns at once with an invalid value, so nothing cascades and the module
// is discarded by the caller.
//
// Recursion: expression and statement translation recurse along the AST.
// The caller measures the tree's depth first with an explicit stack
// (ast_depth.cpp) and refuses trees deeper than kMaxAstDepth, so the native
// stack use here is bounded.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <glslang/Include/intermediate.h>
#include <glslang/MachineIndependent/localintermediate.h>

#include "frontend/glsl/glsl_frontend.h"
#include "ir/builder.h"
#include "ir/diagnostic.h"
#include "ir/module.h"

namespace sluice::glsl_in::detail {

// The SPIR-V BuiltIn name (as Decorations::built_in spells it) of a glslang
// built-in; nullptr for those the front end does not translate.
const char* builtin_name(glslang::TBuiltInVariable b);

using glslang::TIntermAggregate;
using glslang::TIntermBinary;
using glslang::TIntermBranch;
using glslang::TIntermConstantUnion;
using glslang::TIntermLoop;
using ::TIntermNode;
using glslang::TIntermOperator;
using glslang::TIntermSelection;
using glslang::TIntermSwitch;
using glslang::TIntermSymbol;
using glslang::TIntermTyped;
using glslang::TIntermUnary;

// The operand of an instruction without a result (a void call) and of any
// failed translation: a literal no value-taking operand accepts.
inline const ir::Operand kNoValue = ir::Operand::literal(ir::Operand::kMaxValue);

// What an expression evaluates to: a value, or a pointer to where the value
// lives (an lvalue, loaded only when a value is needed).
struct Value {
  ir::Operand operand;
  bool is_pointer = false;
  bool valid = false;

  static Value rvalue(ir::Operand o) { return Value{o, false, true}; }
  static Value pointer(ir::Operand o) { return Value{o, true, true}; }
};

// One enclosing loop or switch, for Break bookkeeping: a merge block that
// nothing reaches must end with Unreachable.
struct BreakScope {
  bool is_switch = false;
  bool has_break = false;
};

class Translator {
 public:
  Translator(const glslang::TIntermediate& ast, std::string_view source, ir::Module& module,
             Diagnostics& diagnostics, std::string file, const Options& options);

  // Translates the whole shader; false when a diagnostic was reported.
  bool run();
  // The geometry and tessellation execution modes glslang settled.
  void stage_modes(ir::ShaderInfo& info) const;

  // ---- translator.cpp: diagnostics and builder plumbing ----
  bool failed() const { return failed_; }
  // Records "`what` is not supported" at `loc` (the first error only).
  void unsupported(const glslang::TSourceLoc& loc, std::string_view what);
  void error(const glslang::TSourceLoc& loc, std::string message);
  // The word of source text at a node's location (the built-in function or
  // operator it names), for diagnostics.
  std::string operator_word(const TIntermNode* node) const;
  // Where `word` first appears in the source as a whole word (line 1 when
  // it does not): a position for what glslang gives none, such as the
  // declarations among the linker objects.
  glslang::TSourceLoc find_in_source(std::string_view word) const;
  // Points the builder's source location at `node`.
  void locate(const TIntermNode* node);
  // Builder calls: a builder error is an internal error of this front end,
  // reported at the current node.
  ir::Operand emit(ir::Opcode op, std::span<const ir::Operand> operands, const TIntermTyped* node = nullptr,
                   std::uint16_t aux = 0);
  ir::Operand emit(ir::Opcode op, std::initializer_list<ir::Operand> operands, const TIntermTyped* node = nullptr,
                   std::uint16_t aux = 0) {
    return emit(op, std::span<const ir::Operand>(operands.begin(), operands.size()), node, aux);
  }
  ir::Operand construct(ir::Opcode op, ir::TypeId type, std::span<const ir::Operand> operands,
                        const TIntermTyped* node = nullptr);
  ir::Operand construct(ir::Opcode op, ir::TypeId type, std::initializer_list<ir::Operand> operands,
                        const TIntermTyped* node = nullptr) {
    return construct(op, type, std::span<const ir::Operand>(operands.begin(), operands.size()), node);
  }
  void store(ir::Operand pointer, ir::Operand value);
  void terminate(ir::Opcode op, std::optional<ir::Operand> operand = std::nullopt);
  bool terminated() const { return builder_.terminated(); }
  ir::TypeId type_of(ir::Operand o) const { return module_.type_of(o); }
  // The precision a register or variable carries (none for constants).
  ir::Precision operand_precision(ir::Operand o) const;
  // The precision glslang computed for a node's operation (none on desktop GLSL).
  std::optional<ir::Precision> node_precision(const TIntermTyped* node) const;

  // ---- types.cpp ----
  // The IR type of a glslang type; invalid (after a diagnostic) when the
  // type is not supported.
  ir::TypeId type(const glslang::TType& t, const glslang::TSourceLoc& loc);
  static ir::Precision to_precision(glslang::TPrecisionQualifier p);
  ir::Precision precision(const glslang::TQualifier& q) const { return to_precision(q.precision); }
  // A global variable's precision as declared, from the qualifier of a
  // symbol node that may have been given its context's (types.cpp).
  ir::Precision declared_precision(const glslang::TIntermSymbol& s) const;
  ir::ConstantId constant(const glslang::TType& t, const glslang::TConstUnionArray& values,
                          const glslang::TSourceLoc& loc);
  ir::ConstantId zero(ir::TypeId t);
  ir::ConstantId int_constant(std::int32_t v) { return module_.int_constant(v); }

  // ---- spec_constants.cpp ----
  // Whether layout(local_size_x_id = N) & co. make gl_WorkGroupSize a
  // specialization constant, and that constant: a uvec3 of the local size,
  // its specialized dimensions specialization constants.
  bool workgroup_size_is_spec() const;
  ir::ConstantId workgroup_size_constant();
  // Whether a constant is or contains a specialization constant.
  bool is_specialization(ir::ConstantId id) const;
  // A specialization-constant expression glslang keeps beside an array
  // type (its length) as an IR constant; invalid after a diagnostic.
  ir::ConstantId spec_constant_expression(const TIntermTyped* node);
  void declare_unused_spec_constants(const TIntermAggregate* linker_objects);
  // ---- interface.cpp ----
  void declare_linker_objects(const TIntermAggregate* objects);
  // A symbol as a value: constants give their value, variables a pointer.
  Value symbol(const TIntermSymbol* s);
  // The pointer to a member of a block that is one variable per member:
  // a built-in block (gl_PerVertex: each member with its built-in) or an
  // interface block whose members differ in interpolation (split_block).
  std::optional<Value> block_member(const TIntermBinary* node);
  void split_block(const TIntermSymbol* s, const glslang::TSourceLoc& loc, const ir::Decorations& block);
  // A local variable declared with a constant initializer where the first
  // assignment to it can serve as one (see assign()).
  bool try_initialize_local(const TIntermSymbol* s, const TIntermTyped* init);
  // A `const` local whose initializer is not a constant expression
  // (glslang's EvqConstReadOnly, GLSL 4.20) names a value: no variable, its
  // uses read the initializer's register (as naga and Tint treat `let`).
  // nullopt when `s` is not such a local; else the value (kNoValue after a
  // diagnostic).
  std::optional<ir::Operand> try_bind_const_local(const TIntermSymbol* s, TIntermTyped* init);
  // Before a switch's cases are translated: the const locals declared at
  // the top level of a case, which later cases see too, stay variables
  // (a value defined in one case does not dominate the next).
  void keep_case_const_locals(std::span<TIntermNode* const> case_body);
  // The variable of a global symbol (interface, private or shared), made
  // on first sight.
  ir::VariableId global_variable(const TIntermSymbol* s);
  // Declares the pipeline inputs and outputs that a dead statement names:
  // the statement is dropped, the stage's interface is not (glslang's
  // SPIR-V declares them too).
  void declare_interface_of_dead_code(TIntermNode* dead);
  // Folds explicit member locations of an interface block into the block's
  // location `d`, or, when they leave the members' order, drops `d`'s
  // location for the members' own (member_locations); false (after a
  // diagnostic) when neither can express them.
  bool block_member_locations(const glslang::TType& t, const glslang::TSourceLoc& loc, ir::Decorations& d);
  // Every member's location (glslang's member order) when an explicit
  // member location is not the one its place in the block gives; nullopt
  // when the block's location and the members' order say it all.
  std::optional<std::vector<std::uint32_t>> member_locations(const glslang::TType& block) const;
  // Transform feedback: the buffer and its stride, and (with_offset) the
  // offset a qualifier gives.
  void xfb_decorations(const glslang::TQualifier& q, bool with_offset, ir::Decorations& d) const;
  // A Function-storage temporary declared in the current function's entry block.
  ir::VariableId temporary(std::string name, ir::TypeId t, ir::Precision p = ir::Precision::None);

  // ---- functions.cpp ----
  void declare_functions(const TIntermAggregate* root);
  void define_function(const TIntermAggregate* fn, std::span<TIntermNode* const> global_initializers);
  Value call(const TIntermAggregate* node);

  // ---- statements.cpp ----
  void statement(TIntermNode* node);
  void statements(std::span<TIntermNode* const> nodes);
  void if_statement(TIntermSelection* node);
  void loop_statement(TIntermLoop* node);
  void switch_statement(TIntermSwitch* node);
  void branch_statement(TIntermBranch* node);

  // ---- expressions.cpp ----
  Value expr(TIntermTyped* node);
  // expr() then load: always a value.
  ir::Operand rvalue(TIntermTyped* node);
  ir::Operand load(Value v, const TIntermTyped* node = nullptr);
  // The pointer an lvalue expression designates.
  ir::Operand lvalue(TIntermTyped* node);
  Value binary(TIntermBinary* node);
  Value unary(TIntermUnary* node);
  Value aggregate(TIntermAggregate* node);
  Value assign(TIntermBinary* node);
  Value compound_assign(TIntermBinary* node, glslang::TOperator op);
  Value index(TIntermBinary* node);
  // False (with an error) for a constant index past gl_SampleMask[In]'s spec size.
  bool sample_mask_index_in_range(TIntermBinary* node);
  Value swizzle(TIntermBinary* node);
  Value index_swizzle(TIntermBinary* node, TIntermBinary* swizzle_node);
  Value short_circuit(TIntermBinary* node);
  Value ternary(TIntermSelection* node);
  // A binary arithmetic, bitwise or comparison operator on two values;
  // `node` gives the result's type and precision.
  ir::Operand arithmetic(glslang::TOperator op, ir::Operand a, ir::Operand b, const TIntermTyped* node);

  // ---- conversions.cpp ----
  Value constructor(const TIntermAggregate* node);
  Value conversion(const TIntermUnary* node);
  // The constant a constructor of constants makes (its parts in order),
  // nullopt when some part is not a constant of the component's type.
  std::optional<ir::Operand> constant_composite(ir::TypeId t, std::span<const ir::Operand> parts);
  // Converts `v` to `to` (scalar/vector numeric conversions, and struct or
  // array copies between types that differ only in layout).
  ir::Operand coerce(ir::Operand v, ir::TypeId to, const TIntermTyped* node);
  // A scalar repeated into `shape` (a vector or matrix of the scalar's kind).
  ir::Operand splat(ir::Operand scalar, ir::TypeId shape, const TIntermTyped* node);
  // Makes two operands of a component-wise operation one type by splatting
  // a scalar to the other's vector or matrix shape.
  void match_shapes(ir::Operand& a, ir::Operand& b, const TIntermTyped* node);

  // ---- builtins.cpp ----
  // Built-in functions (unary or aggregate nodes whose operator is a
  // built-in); nullopt when `op` is not a built-in function.
  std::optional<Value> builtin(const TIntermOperator* node, std::span<TIntermTyped* const> args);

  // ---- textures.cpp ----
  Value texture(const TIntermOperator* node, std::span<TIntermTyped* const> args);
  Value image(const TIntermOperator* node, std::span<TIntermTyped* const> args);

 private:
  const glslang::TIntermediate& ast_;
  std::string_view source_;
  ir::Module& module_;
  ir::Builder builder_;
  Diagnostics& diagnostics_;
  std::string file_;
  Options options_;
  bool failed_ = false;
  std::uint32_t file_index_ = 0;
  const TIntermNode* current_node_ = nullptr;

  // Translation state, shared by the files above.
  // Symbol ids (unique per variable after linking) to IR variables.
  std::unordered_map<long long, ir::VariableId> variables;
  // Symbol ids of const locals bound to values (try_bind_const_local), and
  // those that must stay variables (keep_case_const_locals).
  std::unordered_map<long long, ir::Operand> const_values;
  std::unordered_set<long long> const_locals_kept;
  // Members of blocks split into variables: (block symbol id * 1024 +
  // member index) -> variable; and the split interface blocks.
  std::unordered_map<std::uint64_t, ir::VariableId> member_variables;
  std::unordered_set<long long> split_blocks;
  // Mangled function names ("foo(vf4;") to IR functions.
  std::unordered_map<std::string, ir::FunctionId> functions;
  // The function being translated and its entry block.
  ir::FunctionId current_function;
  ir::BlockId entry_block;
  ir::TypeId return_type;
  // Struct types by glslang member list and layout context (types.cpp).
  std::unordered_map<std::uint64_t, ir::TypeId> struct_cache;
  // Built-in blocks whose members glslang's SPIR-V leaves out (types.cpp,
  // filtered_member): glslang's member index -> the IR's (-1: left out).
  std::unordered_map<const glslang::TTypeList*, std::vector<int>> member_remap;
  bool filtered_member(const glslang::TType& member) const;
  std::uint32_t struct_nesting = 0;
  int coerce_depth = 0;
  // The shader uses `precise`, which the IR cannot mark (see run()).
  bool precise_seen = false;
  // The loops and switches around the statement being translated.
  std::vector<BreakScope> break_scopes_;
};

}  // namespace sluice::glsl_in::detail
