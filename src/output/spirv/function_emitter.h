// Emission of one function: its CFG (cfg.h) block by block in emission
// order, each block's IR instructions through instruction selection
// (instructions.cpp, arithmetic.cpp, images.cpp, memory.cpp), with promoted
// variables read and written through Ssa (ssa.h) instead of memory.
//
// Values in registers are always plain-flavoured (layout.h); pointers carry
// the flavour of the memory they point into, and load()/store() convert at
// that boundary. A pointer register can also be a swizzle of a vector
// pointer (AccessVectorComponentMulti), which SPIR-V cannot express: loads
// through it shuffle after loading the vector, stores load, shuffle and
// store the whole vector.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "output/spirv/cfg.h"
#include "output/spirv/context.h"
#include "output/spirv/ssa.h"

namespace sluice::spirv::detail {

// Whether loads of this memory are reused across the dominator tree
// (readonly_loads.cpp): Uniform, PushConstant and Input (but gl_HelperInvocation).
bool reuses_loads_of(ir::StorageClass s);

class FunctionEmitter {
 public:
  // `local_slots` has one zero entry per variable of the module and is
  // shared by the module's functions: each leaves it all zero again, so
  // a function costs its own variables, not the module's.
  FunctionEmitter(ModuleContext& mc, ir::FunctionId function, std::vector<std::uint32_t>& local_slots);
  ~FunctionEmitter();
  FunctionEmitter(const FunctionEmitter&) = delete;
  FunctionEmitter& operator=(const FunctionEmitter&) = delete;
  // Appends the function to mc.functions (or records an error in mc).
  void emit();

 private:
  // --- Variables of this function (function_emitter.cpp) ---
  struct Local {
    ir::VariableId var;
    ir::TypeId type;                 // the value type (pointee)
    std::uint32_t id = 0;            // OpVariable, or the pointer parameter for out/inout
    std::uint32_t param_value = 0;   // `in` parameters: the OpFunctionParameter
    std::uint32_t ssa_index = kNone; // promoted variables
    bool is_param = false;
    bool pointer_param = false;      // out/inout: the parameter is a pointer
    bool escapes = false;            // used other than by Load/Store/increments
    bool declared_in_entry = false;
  };
  Local* local(ir::VariableId v);
  const Local* local_const(ir::VariableId v) const;
  Local& add_local(ir::VariableId v);
  std::uint32_t slot_of(const Local& l) const { return static_cast<std::uint32_t>(&l - locals_.data()); }
  // A read or write of a local, recorded in the one scan over the blocks.
  static constexpr std::uint8_t kRead = 1, kWrite = 2;
  struct Event {
    std::uint32_t local;  // index into locals_
    std::uint32_t node;
    std::uint8_t kind;    // kRead | kWrite
  };
  std::vector<Event> events_;
  // Pointer register -> local slot + 1: a swizzle or constant component of
  // a Function local vector, which does not make the local escape.
  FlatMap vector_part_of_;
  bool is_vector_part_access(const ir::Instruction& inst) const;
  void collect_variables();
  void scan_ssa_events();  // feeds the promoted locals' events_ to Ssa and places phis
  // Feeds the reads and writes of events_ to `ssa`, for the locals that
  // `index_of` (per local) gives an index there; kNone: not fed.
  void feed_events(Ssa& ssa, std::span<const std::uint32_t> index_of) const;
  // The fall-through-in-memory and loop-vectors-in-memory workarounds
  // (kept_in_memory.cpp): per local, 1 when it stays in memory although it
  // could be promoted; empty when neither is selected.
  std::vector<std::uint8_t> locals_kept_in_memory() const;

  // --- Blocks (function_emitter.cpp) ---
  std::uint32_t label(std::uint32_t node);
  void emit_node(std::uint32_t node);
  void emit_declarations(std::uint32_t node, const ir::Block& b);
  void emit_exit(std::uint32_t node);
  void patch_phis();

  // --- Values and memory (function_emitter.cpp) ---
  std::uint32_t value(ir::Operand op);
  ir::TypeId type_of(ir::Operand op) const { return m_.type_of(op); }
  // The type, or void for an invalid id (a literal where a value belongs).
  const ir::Type& type_at(ir::TypeId t) const { return m_.type(t.valid() ? t : ir::predefined::kVoid); }
  std::uint32_t type_id(ir::TypeId t) { return mc_.type(t); }
  struct PointerRef {
    enum class Kind : std::uint8_t { Memory, Promoted, Swizzle, Invalid } kind = Kind::Invalid;
    std::uint32_t id = 0;            // Memory: the pointer
    std::uint32_t ssa_index = 0;     // Promoted
    std::uint32_t swizzle = 0;       // Swizzle: index into swizzles_
    ir::TypeId pointee;
    ir::StorageClass storage = ir::StorageClass::Function;
    Flavour flavour = kPlain;
  };
  // With `materialize_chains` false, a deferred access chain
  // (access_chains.cpp) comes back as Memory with id 0: for the access that
  // extends it.
  PointerRef pointer(ir::Operand op, bool materialize_chains = true);
  std::uint32_t load(const PointerRef& p);
  void store(const PointerRef& p, std::uint32_t value_id);
  // The id of a real pointer (variables, access chains); fails for others.
  std::uint32_t memory_pointer(ir::Operand op);
  // Converts a value of `t` between a block flavour and plain.
  std::uint32_t convert_flavour(std::uint32_t value_id, ir::TypeId t, Flavour from, Flavour to);
  std::uint32_t temporary_variable(ir::TypeId t);

  // --- Instruction selection (instructions.cpp, arithmetic.cpp, images.cpp) ---
  void emit_instruction(const ir::Instruction& inst);
  void emit_access(const ir::Instruction& inst);
  void emit_extract(const ir::Instruction& inst);
  void emit_construct(const ir::Instruction& inst);
  void emit_call(const ir::Instruction& inst);
  void emit_increment(const ir::Instruction& inst);
  void emit_unary(const ir::Instruction& inst);
  void emit_binary(const ir::Instruction& inst);
  void emit_builtin(const ir::Instruction& inst);
  bool emit_with_output_pointers(const ir::Instruction& inst);
  void emit_texture(const ir::Instruction& inst);
  void emit_image(const ir::Instruction& inst);
  void emit_atomic(const ir::Instruction& inst);
  void emit_image_atomic(const ir::Instruction& inst);
  void set_result(const ir::Instruction& inst, std::uint32_t id);
  // RelaxedPrecision on `id`, made by `inst`, when the result's precision asks for it.
  void relax_made(const ir::Instruction& inst, std::uint32_t id);

  // Helpers producing a value in the current block.
  std::uint32_t op(spv::Op o, std::uint32_t type, std::initializer_list<std::uint32_t> args);
  std::uint32_t op(spv::Op o, std::uint32_t type, std::span<const std::uint32_t> args);
  std::uint32_t glsl(GLSLstd450 inst, std::uint32_t type, std::initializer_list<std::uint32_t> args);
  std::uint32_t extract(ir::TypeId result, std::uint32_t composite, std::uint32_t index);
  std::uint32_t construct(ir::TypeId result, std::span<const std::uint32_t> parts);
  // Component-wise arithmetic on scalars, vectors and (column by column) matrices.
  std::uint32_t arith(ir::Opcode opcode, ir::TypeId t, std::uint32_t a, std::uint32_t b);
  std::uint32_t negate(ir::TypeId t, std::uint32_t a);
  std::uint32_t convert(std::uint32_t v, ir::TypeId from, ir::TypeId to);
  std::uint32_t whole_equal(ir::TypeId t, std::uint32_t a, std::uint32_t b);
  std::uint32_t select(ir::TypeId t, std::uint32_t cond, ir::TypeId cond_type, std::uint32_t a, std::uint32_t b);
  std::uint32_t splat(ir::TypeId vector, std::uint32_t scalar);
  std::uint32_t fold_constant(ir::TypeId result, std::span<const std::uint32_t> parts);
  std::uint32_t image_of(ir::Operand op);  // OpImage of a sampled image, or the image itself

  ModuleContext& mc_;
  const ir::Module& m_;
  const ir::FunctionId fid_;
  const ir::Function& f_;
  Cfg cfg_;
  std::unique_ptr<Ssa> ssa_;

  std::vector<Local> locals_;
  std::vector<std::uint32_t>& local_slot_;  // per VariableId: index into locals_ + 1, 0 = none
  std::vector<ir::VariableId> implicit_locals_;  // used but never declared: live from the entry
  std::vector<ir::TypeId> ssa_types_;            // per ssa index: the variable's value type
  std::vector<ir::Precision> ssa_precisions_;    // per ssa index: the variable's precision

  Words vars_;   // OpVariables of the entry block
  Words body_;   // the entry block's code, then the other blocks
  std::uint32_t current_node_ = kNone;
  std::uint32_t result_floor_ = 0;             // ids from here on were made by the current instruction
  std::vector<std::uint32_t> labels_;          // per node
  std::vector<std::uint32_t> edge_values_;     // per node: id its Branch hands to a merge input

  struct PhiPatch {
    std::size_t at;         // word index in body_ of the OpPhi's first operand slot
    std::uint32_t node;
    std::uint32_t var;      // ssa index, or kNone for the IR merge input
    ir::TypeId type;
  };
  std::vector<PhiPatch> phi_patches_;

  struct Swizzle {
    ir::Operand base;       // pointer to the whole vector (never itself a swizzle)
    std::uint32_t components[4];
    std::uint32_t count;
  };
  std::vector<Swizzle> swizzles_;
  FlatMap swizzle_of_;          // register -> index into swizzles_ + 1
  struct SampledImage {
    ir::Operand image, sampler;
  };
  std::vector<SampledImage> sampled_images_;
  FlatMap sampled_image_of_;    // register -> index + 1: materialized at each use
  FlatMap struct_field_of_;     // pointer register -> index into struct_fields_ + 1
  FlatMap image_pointer_of_;    // image register -> the pointer it was loaded from (for image atomics)
  std::vector<std::pair<ir::Operand, std::uint32_t>> struct_fields_;  // (base pointer, member)

  // --- Access chains (access_chains.cpp) ---
  // An access whose pointer only further accesses use is not emitted; an
  // access built on it names the root pointer and every index in one
  // OpAccessChain, as spirv-opt's combine-access-chains leaves them.
  struct Chain {
    std::uint32_t root;                  // id of the pointer the chain starts from
    std::vector<std::uint32_t> indices;  // ids of the indices, outermost first
    ir::TypeId pointee;                  // the chain's result: a pointer to this
    ir::StorageClass storage;
    Flavour flavour;
  };
  std::vector<Chain> chains_;
  FlatMap chain_of_;         // deferred access register -> index into chains_ + 1
  FlatMap pointer_needed_;   // pointer register -> 1: something other than an access's base reads it
  // Records, for the scan in collect_variables(), that `inst` reads its
  // operand `i`: a pointer register read other than as an access's base
  // is emitted where it is defined.
  void note_pointer_use(const ir::Instruction& inst, std::size_t i);
  // The deferred chain of `op`, or nullptr.
  const Chain* deferred_chain(ir::Operand op) const;
  // Emits the access with result register `r` from `root` and `indices`:
  // deferred when only other accesses read it, else one OpAccessChain.
  void emit_chain(const ir::Instruction& inst, std::uint32_t root, std::vector<std::uint32_t> indices,
                  Flavour flavour);
  // An OpAccessChain for a deferred chain, here (for a use the scan did not
  // foresee; never cached, since here need not dominate the next use).
  std::uint32_t materialize(const Chain& chain);

  // --- Loads of read-only memory reused (readonly_loads.cpp) ---
  // The key of a Load of Uniform or PushConstant memory through `pointer`
  // (a global variable or a deferred chain), as the words root, indices...,
  // precision; empty when the load is not one to reuse.
  std::vector<std::uint32_t> readonly_load_key(ir::Operand pointer, ir::Precision precision) const;
  // A value loaded by an equal load whose node dominates the current one
  // and lies in every loop the current node does; 0 if none.
  std::uint32_t reusable_load(const std::vector<std::uint32_t>& key) const;
  void remember_load(std::vector<std::uint32_t> key, std::uint32_t id);
  struct KeyHash {
    std::size_t operator()(const std::vector<std::uint32_t>& k) const;
  };
  struct LoadSite {
    std::uint32_t node, id;
  };
  std::unordered_map<std::vector<std::uint32_t>, std::vector<LoadSite>, KeyHash> readonly_loads_;
  // A deferred chain's OpAccessChain where a use needs it, or an equal one
  // from a dominating node.
  std::uint32_t materialize_reused(const Chain& chain);
  std::unordered_map<std::vector<std::uint32_t>, std::vector<LoadSite>, KeyHash> chains_made_;
};

}  // namespace sluice::spirv::detail
