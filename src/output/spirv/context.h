// State shared by everything that emits one module: id allocation, the
// sections of the logical layout, and the caches that give every type,
// constant and OpUndef exactly one declaration. Types and constants are
// declared on first use (types.cpp, constants.cpp), so the module holds only
// what its code needs and the order of declarations follows from the
// deterministic order of uses.
//
// Errors do not unwind: fail() records the first message, emission carries
// on with placeholder ids, and emit() returns the message at the end.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp11>

#include "ir/module.h"
#include "output/spirv/flat_map.h"
#include "output/spirv/layout.h"
#include "output/spirv/spirv_output.h"
#include "output/spirv/words.h"

namespace sluice::spirv::detail {

// Types nested deeper than this are rejected before any code recurses on
// type structure (layouts, conversions, comparisons of whole values).
inline constexpr std::uint32_t kMaxTypeDepth = 64;

struct Features {
  std::uint32_t version = 0x00010000;
  bool vulkan = true;
  bool storage_buffer_class() const { return version >= 0x00010300; }
  bool interface_lists_all_globals() const { return version >= 0x00010400; }
  bool copy_logical() const { return version >= 0x00010400; }
  bool select_composites() const { return version >= 0x00010400; }
  bool terminate_invocation() const { return version >= 0x00010600; }
};

// What a SPIR-V constant id stands for, so constructors of constants can be
// folded into OpConstantComposite.
struct ConstantInfo {
  ir::TypeId type;
  std::uint32_t bits = 0;
  std::vector<std::uint32_t> components;  // SPIR-V ids of the components
};

// "Position", "FragCoord", ... as spelled in SPIR-V's BuiltIn enumerants.
std::optional<spv::BuiltIn> built_in_from_name(std::string_view name);

class ModuleContext {
 public:
  ModuleContext(const ir::Module& m, const Options& options);

  const ir::Module& m;
  const Options options;
  const Features features;
  // main(), found once: Module::entry_point() is a search by name, which
  // asked per function made emission quadratic in the function count.
  const ir::FunctionId entry;
  Layouts layouts;

  // --- Ids and errors ---
  std::uint32_t new_id() { return next_id_++; }
  std::uint32_t bound() const { return next_id_; }
  void fail(std::string message) {
    if (!error_) error_ = Error{std::move(message)};
  }
  bool failed() const { return error_.has_value(); }
  const Error& failure() const { return *error_; }

  // --- Sections (SPIR-V 2.4 logical layout) ---
  Words entry_points, execution_modes, names, annotations, globals;
  // Each function's words in pieces (header, entry variables, body), moved
  // here rather than copied, and concatenated once into the module.
  std::vector<Words> functions;
  void require(spv::Capability c) { capabilities_[static_cast<std::uint32_t>(c)] = true; }
  void require_extension(std::string name) { extensions_.insert(std::move(name)); }
  // The capabilities (and extensions) a variable or block member decorated
  // with built-in `b` needs in this module's stage.
  void require_built_in(spv::BuiltIn b);
  // The capabilities and extensions of NVIDIA's viewport masks and
  // viewport-relative layers (SPV_NV_viewport_array2) and of stereo view
  // rendering (SPV_NV_stereo_view_rendering).
  void require_viewport_mask();
  void require_stereo_view();
  const std::set<std::string>& extensions() const { return extensions_; }
  const std::map<std::uint32_t, bool>& capabilities() const { return capabilities_; }
  std::uint32_t glsl_std_450();          // the import's id, made on first use
  std::uint32_t glsl_import_id() const { return glsl_import_; }

  // --- Debug names and decorations ---
  // The OpString of source file `file` (Module::source_files), made on
  // first use into `sources` (-g, Options::debug_lines).
  std::uint32_t source_file(std::uint32_t file);
  Words sources;
  void name(std::uint32_t id, std::string_view text);
  void member_name(std::uint32_t id, std::uint32_t member, std::string_view text);
  void decorate(std::uint32_t id, spv::Decoration d, std::initializer_list<std::uint32_t> extra = {});
  void member_decorate(std::uint32_t id, std::uint32_t member, spv::Decoration d,
                       std::initializer_list<std::uint32_t> extra = {});
  // RelaxedPrecision (precision.cpp) on `id`, a value or variable of
  // `value_type`, when `p` is lowp or mediump and glslang would decorate
  // such a value: not bools, pointers or structs. Each id at most once.
  void relax(std::uint32_t id, ir::Precision p, ir::TypeId value_type);
  // The same for member `index` of the struct type `struct_id` (IR type `t`):
  // OpMemberDecorate ... RelaxedPrecision, as glslang's decorateStructType.
  void relax_member(std::uint32_t struct_id, ir::TypeId t, std::uint32_t index);
  // NoContraction (contraction.cpp) on `id`, the result of an `o`, when
  // Options::no_contraction is on and `o` is floating-point arithmetic.
  void forbid_contraction(spv::Op o, std::uint32_t id);

  // --- Types (types.cpp) ---
  spv::StorageClass storage_class(ir::StorageClass s) const;
  std::uint32_t type(ir::TypeId t, Flavour f = kPlain);
  std::uint32_t pointer_type(ir::TypeId pointee, ir::StorageClass storage, Flavour f);
  std::uint32_t function_type(std::uint32_t return_type, std::span<const std::uint32_t> params);
  // A struct of the given member types with no IR counterpart (the results
  // of OpIAddCarry and friends).
  std::uint32_t anonymous_struct(std::span<const std::uint32_t> members);
  // OpTypePointer Image to `scalar` (image atomics' texel pointers).
  std::uint32_t image_texel_pointer_type(std::uint32_t scalar);
  // The IR's predefined vector/scalar of `kind` with `n` components.
  ir::TypeId vector_of(ir::ScalarKind kind, std::uint32_t n) const;

  // --- Constants (constants.cpp) ---
  std::uint32_t constant(ir::ConstantId c);
  std::uint32_t spec_constant_op(const ir::Constant& k);
  std::uint32_t workgroup_size_constant(const ir::ShaderInfo& shader);
  std::uint32_t scalar_constant(ir::TypeId scalar_type, std::uint32_t bits);
  std::uint32_t int_constant(std::int32_t v) { return scalar_constant(ir::predefined::kInt, static_cast<std::uint32_t>(v)); }
  std::uint32_t uint_constant(std::uint32_t v) { return scalar_constant(ir::predefined::kUint, v); }
  std::uint32_t float_constant(float v);
  // A double (OpConstant with two words, low-order first).
  std::uint32_t double_constant(std::uint64_t bits);
  std::uint32_t bool_constant(bool v) { return scalar_constant(ir::predefined::kBool, v ? 1u : 0u); }
  // A constant of a plain composite type from the ids of its constituents.
  std::uint32_t composite_constant(ir::TypeId type, std::span<const std::uint32_t> components);
  // Scalar, vector or matrix of `type` with every component `bits`.
  std::uint32_t splat_constant(ir::TypeId type, std::uint32_t bits);
  // Scalar, vector or matrix of `type` with every component the small
  // integer `v` (0 or 1: exact in every component type, doubles included).
  std::uint32_t splat_number(ir::TypeId type, std::int32_t v);
  std::uint32_t undef(ir::TypeId type);
  // Non-null when `id` is a (non-specialization) constant made here.
  const ConstantInfo* constant_info(std::uint32_t id) const;
  // True when `id` is the OpUndef of `t`.
  bool is_undef(std::uint32_t id, ir::TypeId t) const { return id != 0 && undefs_.get(t.index()) == id; }

  // --- Ids of module-level entities ---
  std::uint32_t function_id(ir::FunctionId f);
  std::vector<std::uint32_t> global_ids;  // per VariableId; 0 for variables that are not globals
  std::vector<Flavour> global_flavours;   // per VariableId

  // --- Per-register state, module-wide because registers are ---
  std::vector<std::uint32_t> reg_ids;     // SPIR-V id holding the register's value (or pointer)
  std::vector<Flavour> reg_flavours;      // for pointer registers: layout of the memory

 private:
  std::uint32_t emit_type(ir::TypeId t, Flavour f);
  void decorate_struct_layout(ir::TypeId t, Flavour f, std::uint32_t id);
  std::uint32_t emit_image_type(const ir::ImageDescriptor& d);
  std::uint32_t record_constant(ConstantInfo info, std::uint32_t id);

  std::uint32_t next_id_ = 1;
  std::optional<Error> error_;
  std::map<std::uint32_t, bool> capabilities_;
  std::set<std::string> extensions_;
  std::uint32_t glsl_import_ = 0;
  std::map<std::uint32_t, std::uint32_t> source_files_;  // file index -> OpString id

  std::vector<std::uint32_t> plain_types_;   // per TypeId, flavour kPlain
  FlatMap flavoured_types_;                  // (type << 8 | flavour)
  FlatMap pointer_types_;                    // (pointee << 16 | flavour << 8 | storage)
  std::map<std::vector<std::uint32_t>, std::uint32_t> function_types_;
  std::map<std::vector<std::uint32_t>, std::uint32_t> anonymous_structs_;
  FlatMap texel_pointer_types_;  // scalar type id -> pointer type id

  std::vector<std::uint32_t> ir_constants_;  // per ConstantId
  FlatMap scalar_constants_;                 // (type << 32 | bits)
  std::map<std::uint64_t, std::uint32_t> double_constants_;  // bits -> id
  std::map<std::vector<std::uint32_t>, std::uint32_t> composite_constants_;  // [type, components...]
  FlatMap undefs_;                           // type -> id
  FlatMap constant_index_;                   // SPIR-V id -> index into constant_infos_
  std::vector<ConstantInfo> constant_infos_;

  std::vector<std::uint32_t> function_ids_;
  std::vector<bool> relaxed_;  // per SPIR-V id: already decorated RelaxedPrecision
};

}  // namespace sluice::spirv::detail
