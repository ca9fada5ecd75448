// Module-level SPIR-V into the IR: the entry point and its execution modes,
// types, constants (specialization constants included) and global
// variables with their decorations (SPIR-V spec §2.4 logical layout: all of
// these come before the first function).
//
// Struct types are translated per layout: the IR's std140/std430 is a
// property of the struct, while SPIR-V states offsets and strides, so a
// block's layout is read from its storage class (Uniform → std140,
// StorageBuffer, BufferBlock and PushConstant → std430) and checked against
// the array strides it declares; nested structs take their block's layout,
// as glslang gives them. A struct whose members are built-ins (gl_PerVertex)
// becomes one variable per member, which is how the GLSL front end and the
// outputs see built-ins.
#include <algorithm>
#include <bit>
#include <fmt/format.h>

#include <spirv-tools/libspirv.h>

#include "frontend/spirv/reader_internal.h"
#include "ir/image_format.h"
#include "ir/stage_interface.h"
#include "ir/built_in.h"

namespace sluice::spirv_in::detail {
namespace {

using Kind = IdValue::Kind;

// The IR's name of SPIR-V built-in `b` (ir/built_in.h), nullptr when the
// IR does not know it.
const char* builtin_name(std::uint32_t b) {
  const ir::BuiltInInfo* info = ir::find_built_in_spirv(b);
  return info ? info->name.data() : nullptr;
}

std::string format_name(std::uint32_t f) {
  const ir::ImageFormat* known = ir::find_image_format(f);
  return known ? std::string(known->name) : std::string();
}

std::optional<ir::StorageClass> storage_class(std::uint32_t s) {
  switch (static_cast<spv::StorageClass>(s)) {
    case spv::StorageClass::Function: return ir::StorageClass::Function;
    case spv::StorageClass::Private: return ir::StorageClass::Private;
    case spv::StorageClass::Input: return ir::StorageClass::Input;
    case spv::StorageClass::Output: return ir::StorageClass::Output;
    case spv::StorageClass::Uniform: return ir::StorageClass::Uniform;
    case spv::StorageClass::StorageBuffer: return ir::StorageClass::StorageBuffer;
    case spv::StorageClass::PushConstant: return ir::StorageClass::PushConstant;
    case spv::StorageClass::UniformConstant: return ir::StorageClass::UniformConstant;
    case spv::StorageClass::Workgroup: return ir::StorageClass::Workgroup;
    default: return std::nullopt;
  }
}

bool is_identifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

std::string sanitize(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '(') break;  // glslang's mangled function names: "foo(vf4;"
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    out.push_back(ok ? c : '_');
  }
  if (!out.empty() && out[0] >= '0' && out[0] <= '9') out.insert(out.begin(), '_');
  return out;
}

}  // namespace

std::string Reader::name_of(Id id) const { return sanitize(sm_.name(id)); }

bool Reader::has_decoration(Id id, spv::Decoration d) const { return decoration(id, d).has_value(); }

bool Reader::has_member_decoration(Id struct_id, spv::Decoration d) const {
  if (struct_id >= member_decorations_.size()) return false;
  return std::any_of(member_decorations_[struct_id].begin(), member_decorations_[struct_id].end(), [&](InstrIndex i) {
    const Instruction& inst = sm_.instructions[i];
    return inst.operands.size() > 2 && inst.operand_word(2) == static_cast<std::uint32_t>(d);
  });
}

Id Reader::block_struct(Id type_id) const {
  // Bounded: a malformed cycle of array types ends after as many steps as
  // the module has instructions.
  for (std::size_t steps = 0; steps < sm_.instructions.size(); ++steps) {
    const Instruction* t = sm_.definition(type_id);
    if (!t || (t->opcode != spv::Op::OpTypeArray && t->opcode != spv::Op::OpTypeRuntimeArray) ||
        t->operands.size() < 2)
      return type_id;
    type_id = t->operand_word(1);
  }
  return type_id;
}

std::optional<std::uint32_t> Reader::decoration(Id id, spv::Decoration d) const {
  if (id >= decorations_.size()) return std::nullopt;
  for (InstrIndex i : decorations_[id]) {
    const Instruction& inst = sm_.instructions[i];
    if (inst.operands.size() < 2 || inst.operand_word(1) != static_cast<std::uint32_t>(d)) continue;
    return inst.operands.size() > 2 ? inst.operand_word(2) : 0u;
  }
  return std::nullopt;
}

ir::Precision Reader::precision_of(Id id) const {
  return has_decoration(id, spv::Decoration::RelaxedPrecision) ? ir::Precision::Medium : ir::Precision::None;
}

void Reader::fail(const std::string& message) {
  if (!error_) error_ = ReadError{fmt::format("{}: error: {}", options_.file_name, message)};
}

void Reader::fail(const Instruction& inst, const std::string& message) {
  const char* n = spvOpcodeString(static_cast<std::uint32_t>(inst.opcode));
  std::string what = n ? n : "Op?";
  if (!what.starts_with("Op")) what = "Op" + what;
  if (inst.result_id) what = sm_.describe(inst.result_id) + " " + what;
  fail(fmt::format("{}: {}", what, message));
}

ir::ConstantId Reader::zero_constant(ir::TypeId t) {
  // Iterative over the type's nesting: components first, then composites.
  std::vector<std::pair<ir::TypeId, bool>> stack{{t, false}};
  std::vector<ir::ConstantId> done;
  while (!stack.empty()) {
    auto [ty, expanded] = stack.back();
    stack.pop_back();
    // A result type that failed to read (an id that is not a type) is no
    // type id; it was reported where it was read.
    if (!ty.valid() || ty.index() >= m_.type_count()) {
      fail("no zero value of a type that could not be read");
      return m_.int_constant(0);
    }
    const ir::Type& tt = m_.type(ty);
    std::uint32_t n = 0;
    switch (tt.kind) {
      case ir::TypeKind::Scalar: {
        ir::Constant zero;
        zero.type = ty;
        done.push_back(m_.intern(zero));
        continue;
      }
      case ir::TypeKind::Vector:
      case ir::TypeKind::Matrix:
      case ir::TypeKind::Array: n = tt.count; break;
      case ir::TypeKind::Struct: n = static_cast<std::uint32_t>(tt.members.size()); break;
      default:
        fail(fmt::format("no zero value of type {}", ty.index()));
        return m_.int_constant(0);
    }
    if (n > 65536) {
      fail("a zero value of over 65536 components");
      return m_.int_constant(0);
    }
    if (expanded) {
      ir::Constant c;
      c.type = ty;
      c.components.assign(done.end() - n, done.end());
      done.resize(done.size() - n);
      done.push_back(m_.intern(c));
      continue;
    }
    stack.push_back({ty, true});
    for (std::uint32_t i = n; i-- > 0;)
      stack.push_back({tt.kind == ir::TypeKind::Struct ? tt.members[i].type : tt.element, false});
  }
  return done.back();
}

ir::TypeId Reader::type(Id id, ir::BlockLayout layout) {
  const Instruction* d = sm_.definition(id);
  if (!d) {
    fail(fmt::format("%{} is not a type", id));
    return {};
  }
  const bool layout_free = layout == ir::BlockLayout::None || (d->opcode != spv::Op::OpTypeStruct &&
                                                               d->opcode != spv::Op::OpTypeArray &&
                                                               d->opcode != spv::Op::OpTypeRuntimeArray);
  if (layout_free && id < ids_.size() && ids_[id].kind == Kind::Type) return ir::TypeId(ids_[id].index);
  if (d->opcode == spv::Op::OpTypeStruct)
    for (const auto& [key, t] : layout_types_)
      if (key.first == id && key.second == layout) return t;
  if (++type_depth_ > 64) {
    --type_depth_;
    fail(*d, "types nested over 64 deep");
    return {};
  }
  ir::TypeId t;
  // A type names only types declared before it (SPIR-V 1.6 §2.4, logical
  // layout; forward pointers are physical addressing, which is refused), so
  // a cycle (%v = OpTypeVector %v 4) gets its own message.
  auto part_type = [&](Id part, ir::BlockLayout part_layout) -> ir::TypeId {
    if (part < sm_.def.size() && sm_.def[part] != kNone && sm_.def[part] >= sm_.def[id]) {
      fail(*d, fmt::format("names the type {}, which is not declared before it (a type cycle?)", sm_.describe(part)));
      return {};
    }
    return type(part, part_layout);
  };
  auto sub = [&](std::size_t k) { return part_type(in(*d, k), layout); };
  switch (d->opcode) {
    case spv::Op::OpTypeVoid: t = m_.intern(ir::Type::make_void()); break;
    case spv::Op::OpTypeBool: t = m_.scalar_type(ir::ScalarKind::Bool); break;
    case spv::Op::OpTypeInt:
      if (in(*d, 0) != 32) fail(*d, fmt::format("{}-bit integers are not supported", in(*d, 0)));
      else t = m_.scalar_type(in(*d, 1) ? ir::ScalarKind::Int : ir::ScalarKind::Uint);
      break;
    case spv::Op::OpTypeFloat:
      if (in(*d, 0) == 64) t = m_.double_type();  // the IR's double
      else if (in(*d, 0) != 32) fail(*d, fmt::format("{}-bit floats are not supported", in(*d, 0)));
      else t = m_.scalar_type(ir::ScalarKind::Float);
      break;
    case spv::Op::OpTypeVector: {
      const ir::TypeId e = sub(0);
      if (e.valid()) t = m_.intern(ir::Type::make_vector(e, in(*d, 1)));
      break;
    }
    case spv::Op::OpTypeMatrix: {
      const ir::TypeId c = sub(0);
      if (c.valid()) t = m_.intern(ir::Type::make_matrix(c, in(*d, 1)));
      break;
    }
    case spv::Op::OpTypeArray: {
      const ir::TypeId e = sub(0);
      const Id len = in(*d, 1);
      const Instruction* ld = sm_.definition(len);
      if (!e.valid()) break;
      if (!ld || (ld->opcode != spv::Op::OpConstant && ld->opcode != spv::Op::OpSpecConstant)) {
        fail(*d, "an array length that is not a constant");
        break;
      }
      const std::uint32_t n = ld->operand_word(2);
      if (ld->opcode == spv::Op::OpSpecConstant && has_decoration(len, spv::Decoration::SpecId))
        t = m_.intern(ir::Type::make_spec_array(e, n, ir::ConstantId(ids_[len].index)));
      else
        t = m_.array_type(e, n);
      break;
    }
    case spv::Op::OpTypeRuntimeArray: {
      const ir::TypeId e = sub(0);
      if (e.valid()) t = m_.intern(ir::Type::make_unsized_array(e));
      break;
    }
    case spv::Op::OpTypeStruct: {
      const bool is_block = has_decoration(id, spv::Decoration::Block) || has_decoration(id, spv::Decoration::BufferBlock);
      std::vector<ir::StructMember> members;
      const std::size_t n = in_count(*d);
      for (std::size_t i = 0; i < n && !failed(); ++i) {
        ir::StructMember mem;
        mem.type = sub(i);
        mem.name = fmt::format("m{}", i);
        if (id < member_names_.size())
          for (const auto& [k, s] : member_names_[id])
            if (k == i && !s.empty()) mem.name = sanitize(s);
        if (id < member_decorations_.size())
          for (InstrIndex di : member_decorations_[id]) {
            const Instruction& md = sm_.instructions[di];
            if (md.operand_word(1) != i) continue;
            const auto deco = static_cast<spv::Decoration>(md.operand_word(2));
            const std::uint32_t arg = md.operands.size() > 3 ? md.operand_word(3) : 0;
            if (deco == spv::Decoration::Offset) {
              if (layout != ir::BlockLayout::None) mem.offset = arg;
              else mem.xfb_offset = arg;
            }
            if (deco == spv::Decoration::Location && is_block) mem.location = arg;
            if (deco == spv::Decoration::RowMajor) mem.matrix_layout = ir::MatrixLayout::RowMajor;
            if (deco == spv::Decoration::ColMajor) mem.matrix_layout = ir::MatrixLayout::ColumnMajor;
            if (deco == spv::Decoration::RelaxedPrecision) mem.precision = ir::Precision::Medium;
            if (deco == spv::Decoration::BuiltIn) {
              const char* b = builtin_name(arg);
              if (b) mem.built_in = b;
              else fail(*d, fmt::format("member {}: unsupported built-in {}", i, arg));
            }
          }
        members.push_back(std::move(mem));
      }
      if (failed()) break;
      std::string name = name_of(id);
      if (name.empty()) name = fmt::format("S{}", id);
      t = m_.intern(ir::Type::make_struct(name, std::move(members), is_block, layout));
      layout_types_.push_back({{id, layout}, t});
      break;
    }
    case spv::Op::OpTypeImage: {
      ir::ImageDescriptor desc;
      const ir::TypeId st = sub(0);
      if (!st.valid()) break;
      desc.sampled_type = m_.type(st).scalar;
      switch (static_cast<spv::Dim>(in(*d, 1))) {
        case spv::Dim::Dim1D: desc.dim = ir::ImageDim::Dim1D; break;
        case spv::Dim::Dim2D: desc.dim = ir::ImageDim::Dim2D; break;
        case spv::Dim::Dim3D: desc.dim = ir::ImageDim::Dim3D; break;
        case spv::Dim::Cube: desc.dim = ir::ImageDim::Cube; break;
        case spv::Dim::Rect: desc.dim = ir::ImageDim::Rect; break;
        case spv::Dim::Buffer: desc.dim = ir::ImageDim::Buffer; break;
        case spv::Dim::SubpassData: desc.dim = ir::ImageDim::SubpassData; break;
        default: fail(*d, "unsupported image dimension"); break;
      }
      desc.depth = in(*d, 2) == 1;
      desc.arrayed = in(*d, 3) != 0;
      desc.multisampled = in(*d, 4) != 0;
      desc.storage = in(*d, 5) == 2 && desc.dim != ir::ImageDim::SubpassData;
      if (in(*d, 6) != 0 && !ir::find_image_format(in(*d, 6)))
        fail(*d, fmt::format("image format {} is not supported (ir/image_format.h lists those that are)", in(*d, 6)));
      desc.format = format_name(in(*d, 6));
      t = m_.intern(ir::Type::make_image(std::move(desc)));
      break;
    }
    case spv::Op::OpTypeSampler: t = m_.intern(ir::Type::make_sampler()); break;
    case spv::Op::OpTypeSampledImage: {
      const ir::TypeId img = sub(0);
      if (img.valid()) t = m_.intern(ir::Type::make_sampled_image(img));
      break;
    }
    case spv::Op::OpTypePointer: {
      auto sc = storage_class(in(*d, 0));
      if (!sc) {
        fail(*d, fmt::format("unsupported storage class {}", in(*d, 0)));
        break;
      }
      const Id pointee = in(*d, 1);
      ir::BlockLayout l = layout;
      // The block of a pointer to a block or an array of blocks (a
      // uniform block array: its members' Offsets are a layout's).
      const Id block = block_struct(pointee);
      const bool buffer_block = has_decoration(block, spv::Decoration::BufferBlock);
      if (buffer_block && *sc == ir::StorageClass::Uniform) sc = ir::StorageClass::StorageBuffer;
      if (has_decoration(block, spv::Decoration::Block) || buffer_block) {
        if (*sc == ir::StorageClass::Uniform) l = ir::BlockLayout::Std140;
        else if (*sc == ir::StorageClass::StorageBuffer || *sc == ir::StorageClass::PushConstant)
          l = ir::BlockLayout::Std430;
        // A Uniform block whose arrays have strides below 16 is std430 (scalar
        // arrays in std140 have 16). Only the block's own members are looked at,
        // so the check is linear in the struct's size.
        if (l == ir::BlockLayout::Std140)
          if (const Instruction* st = sm_.definition(block); st && st->opcode == spv::Op::OpTypeStruct)
            for (std::size_t k = 0; k < in_count(*st); ++k) {
              const Instruction* member = sm_.definition(in(*st, k));
              if (!member || (member->opcode != spv::Op::OpTypeArray && member->opcode != spv::Op::OpTypeRuntimeArray))
                continue;
              auto stride = decoration(member->result_id, spv::Decoration::ArrayStride);
              if (stride && *stride % 16 != 0) l = ir::BlockLayout::Std430;
            }
      }
      const ir::TypeId p = part_type(pointee, l);
      if (p.valid()) t = m_.pointer_type(p, *sc);
      break;
    }
    default: fail(*d, "unsupported type"); break;
  }
  --type_depth_;
  // Cached once per id, in the plain form for structs and arrays (a block's layout makes others).
  if (t.valid() && layout_free && d->opcode != spv::Op::OpTypeStruct) ids_[id] = IdValue{Kind::Type, t.index()};
  return t;
}

std::optional<ReadError> Reader::read_globals() {
  ids_.assign(sm_.bound, IdValue{});
  decorations_.resize(sm_.bound);
  member_decorations_.resize(sm_.bound);
  member_names_.resize(sm_.bound);
  bool entry_seen = false;
  Id entry_function = 0;
  for (InstrIndex i = 0; i < sm_.instructions.size() && !failed(); ++i) {
    const Instruction& inst = sm_.instructions[i];
    if (inst.opcode == spv::Op::OpFunction) break;
    const auto arg = [&](std::size_t k) { return inst.operand_word(k); };
    // GLSL 4.60 §4.4.1.4: each local size "must be greater than 0"; spirv-val
    // does not check it, the IR validator does (stage_checks.cpp).
    const auto zero_local_size = [&](const Instruction& at) {
      for (int k = 0; k < 3; ++k)
        if (m_.shader().local_size[k] == 0 && !failed())
          fail(at, fmt::format("the workgroup's local size {} is 0; it must be at least 1", "xyz"[k]));
    };
    switch (inst.opcode) {
      case spv::Op::OpCapability: {
        const auto c = static_cast<spv::Capability>(arg(0));
        if (c == spv::Capability::Kernel || c == spv::Capability::Addresses || c == spv::Capability::Linkage)
          fail(inst, fmt::format("capability {} (Kernel, Addresses or Linkage): only Shader modules are read", arg(0)));
        break;
      }
      case spv::Op::OpExtInstImport:
        if (inst.operand_string(1) == "GLSL.std.450") ids_[inst.result_id] = IdValue{Kind::GlslStd450, 0};
        break;
      case spv::Op::OpEntryPoint: {
        if (entry_seen) break;  // the first entry point is read
        entry_seen = true;
        entry_function = arg(1);
        entry_stage(inst, arg(0));
        break;
      }
      case spv::Op::OpExecutionMode:
      case spv::Op::OpExecutionModeId: {
        if (arg(0) != entry_function) break;
        switch (static_cast<spv::ExecutionMode>(arg(1))) {
          case spv::ExecutionMode::LocalSize:
            m_.shader().local_size = {arg(2), arg(3), arg(4)};
            zero_local_size(inst);
            break;
          case spv::ExecutionMode::EarlyFragmentTests: m_.shader().early_fragment_tests = true; break;
          case spv::ExecutionMode::DepthReplacing: m_.shader().depth_replacing = true; break;
          case spv::ExecutionMode::Xfb: m_.shader().transform_feedback = true; break;
          case spv::ExecutionMode::OriginUpperLeft:
          case spv::ExecutionMode::DepthGreater:
          case spv::ExecutionMode::DepthLess:
          case spv::ExecutionMode::DepthUnchanged: break;
          case spv::ExecutionMode::LocalSizeId:
            for (int k = 0; k < 3; ++k) {
              const Instruction* c = sm_.definition(arg(2 + k));
              if (!c || c->operands.size() < 3) continue;
              m_.shader().local_size[k] = c->operand_word(2);
              if (auto sid = decoration(arg(2 + k), spv::Decoration::SpecId)) m_.shader().local_size_spec_id[k] = *sid;
            }
            zero_local_size(inst);
            break;
          default:
            if (!stage_execution_mode(inst, arg(1), inst.operands.size() > 2 ? arg(2) : 0) && !failed())
              fail(inst, fmt::format("unsupported execution mode {}", arg(1)));
            break;
        }
        break;
      }
      case spv::Op::OpDecorate:
      case spv::Op::OpDecorateId:
        if (arg(0) < sm_.bound) decorations_[arg(0)].push_back(i);
        break;
      case spv::Op::OpMemberDecorate:
        if (arg(0) < sm_.bound) member_decorations_[arg(0)].push_back(i);
        break;
      case spv::Op::OpMemberName:
        if (arg(0) < sm_.bound) member_names_[arg(0)].push_back({arg(1), inst.operand_string(2)});
        break;
      case spv::Op::OpDecorationGroup:
      case spv::Op::OpGroupDecorate:
      case spv::Op::OpGroupMemberDecorate: fail(inst, "decoration groups are not supported"); break;
      case spv::Op::OpConstantTrue:
      case spv::Op::OpConstantFalse:
      case spv::Op::OpSpecConstantTrue:
      case spv::Op::OpSpecConstantFalse:
      case spv::Op::OpConstant:
      case spv::Op::OpSpecConstant:
      case spv::Op::OpConstantComposite:
      case spv::Op::OpSpecConstantComposite:
      case spv::Op::OpConstantNull: {
        const ir::TypeId t = type(inst.type_id);
        if (!t.valid()) break;
        ir::Constant c;
        c.type = t;
        const auto op = inst.opcode;
        if (op == spv::Op::OpConstantTrue || op == spv::Op::OpSpecConstantTrue) c.bits = 1;
        if (op == spv::Op::OpConstant || op == spv::Op::OpSpecConstant) {
          // A 64-bit literal (a double) is two words, low-order first.
          const bool wide = m_.type(t).width == 64;
          if (wide && op == spv::Op::OpSpecConstant) {
            // Sluice's GLSL of such a module does not compile yet
            // (spv.specConstant.vert); refused until it does.
            fail(inst, "64-bit specialization constants are not supported");
            break;
          }
          if (inst.operands[2].num_words != (wide ? 2 : 1)) {
            fail(inst, wide ? "a double constant whose literal is not two words"
                            : "constants wider than 32 bits are not supported");
            break;
          }
          c.bits = arg(2);
          if (wide) c.high_bits = inst.words[inst.operands[2].first_word + 1];
        }
        if (op == spv::Op::OpConstantComposite || op == spv::Op::OpSpecConstantComposite) {
          for (std::size_t k = 2; k < inst.operands.size(); ++k) {
            const IdValue& v = ids_[std::min<std::uint32_t>(arg(k), sm_.bound - 1)];
            if (v.kind != Kind::Constant) {
              fail(inst, fmt::format("component %{} is not a constant the IR can hold", arg(k)));
              break;
            }
            c.components.push_back(ir::ConstantId(v.index));
          }
          if (failed()) break;
        }
        ir::ConstantId id;
        if (op == spv::Op::OpConstantNull) {
          id = zero_constant(t);
        } else {
          const bool spec = op == spv::Op::OpSpecConstantTrue || op == spv::Op::OpSpecConstantFalse ||
                            op == spv::Op::OpSpecConstant;
          if (spec) c.spec_id = decoration(inst.result_id, spv::Decoration::SpecId);
          id = m_.intern(c);
        }
        ids_[inst.result_id] = IdValue{Kind::Constant, id.index()};
        if (auto b = decoration(inst.result_id, spv::Decoration::BuiltIn);
            b && *b == static_cast<std::uint32_t>(spv::BuiltIn::WorkgroupSize)) {
          const ir::Constant& wc = m_.constant(id);
          for (std::size_t k = 0; k < 3 && k < wc.components.size(); ++k) {
            const ir::Constant& comp = m_.constant(wc.components[k]);
            m_.shader().local_size[k] = comp.bits;
            if (comp.spec_id) m_.shader().local_size_spec_id[k] = *comp.spec_id;
          }
        }
        break;
      }
      case spv::Op::OpSpecConstantOp: ids_[inst.result_id] = IdValue{Kind::SpecOp, i}; break;
      case spv::Op::OpUndef: {
        const ir::TypeId t = type(inst.type_id);
        if (t.valid()) ids_[inst.result_id] = IdValue{Kind::Constant, zero_constant(t).index()};
        break;
      }
      case spv::Op::OpVariable: {
        const Instruction* pt = sm_.definition(inst.type_id);
        const ir::TypeId t = type(inst.type_id);
        if (!t.valid() || !pt) break;
        if (m_.type(t).kind != ir::TypeKind::Pointer) {
          fail(inst, "the result type of a variable is not a pointer");
          break;
        }
        const ir::Type& ptr = m_.type(t);
        const ir::StorageClass sc = ptr.storage;
        const ir::TypeId vt = ptr.element;
        const Id pointee_id = pt->operand_word(2);
        // Buffers and push constants are blocks (arrays of blocks for
        // buffers): Vulkan's VUID-StandaloneSpirv-Uniform-06676 and
        // PushConstant-06675, and the IR's rule for push constants.
        if (sc == ir::StorageClass::Uniform || sc == ir::StorageClass::StorageBuffer ||
            sc == ir::StorageClass::PushConstant) {
          Id block = pointee_id;
          const Instruction* bd = sm_.definition(block);
          if (bd && sc != ir::StorageClass::PushConstant &&
              (bd->opcode == spv::Op::OpTypeArray || bd->opcode == spv::Op::OpTypeRuntimeArray))
            block = in(*bd, 0);
          if (!has_decoration(block, spv::Decoration::Block) && !has_decoration(block, spv::Decoration::BufferBlock)) {
            fail(inst, fmt::format("a {} variable whose type is not a struct decorated Block{}", ir::to_string(sc),
                                   sc == ir::StorageClass::PushConstant ? "" : " (or an array of them)"));
            break;
          }
        }
        ir::Decorations d;
        const Id id = inst.result_id;
        d.location = decoration(id, spv::Decoration::Location);
        // A block whose members have locations: theirs count (glslang's
        // --aml also puts one on the variable; the IR keeps one form,
        // VUID-StandaloneSpirv-Location-04918).
        if (ir::has_member_locations(m_, vt)) d.location.reset();
        d.component = decoration(id, spv::Decoration::Component);
        d.binding = decoration(id, spv::Decoration::Binding);
        d.set = decoration(id, spv::Decoration::DescriptorSet);
        d.index = decoration(id, spv::Decoration::Index);
        d.xfb_buffer = decoration(id, spv::Decoration::XfbBuffer);
        d.xfb_stride = decoration(id, spv::Decoration::XfbStride);
        d.xfb_offset = decoration(id, spv::Decoration::Offset);
        if (has_decoration(id, spv::Decoration::Flat)) d.interpolation = ir::Interpolation::Flat;
        if (has_decoration(id, spv::Decoration::NoPerspective)) d.interpolation = ir::Interpolation::NoPerspective;
        d.centroid = has_decoration(id, spv::Decoration::Centroid);
        d.sample = has_decoration(id, spv::Decoration::Sample);
        d.invariant = has_decoration(id, spv::Decoration::Invariant);
        // SPIR-V 1.4 also lets NonWritable mark a Private or Function
        // variable that is never written: a hint, which GLSL cannot spell
        // (its memory qualifiers are for images and buffers), so it is dropped.
        const bool hint_only = sc == ir::StorageClass::Private || sc == ir::StorageClass::Function;
        d.readonly = !hint_only && has_decoration(id, spv::Decoration::NonWritable);
        d.writeonly = has_decoration(id, spv::Decoration::NonReadable);
        d.coherent = has_decoration(id, spv::Decoration::Coherent);
        d.volatile_ = has_decoration(id, spv::Decoration::Volatile);
        d.restrict_ = has_decoration(id, spv::Decoration::Restrict);
        // glslang puts Patch on a patch block's members (spv.450.tesc);
        // the IR has it on the variable.
        d.patch = has_decoration(id, spv::Decoration::Patch) || has_member_decoration(block_struct(pointee_id),
                                                                                   spv::Decoration::Patch);
        d.stream = decoration(id, spv::Decoration::Stream);
        const std::vector<unsigned> member_interpolation =
            sc == ir::StorageClass::Input ? block_member_interpolation(pointee_id, d) : std::vector<unsigned>{};
        // docs/limits.md: interface locations end below 65536 (the
        // validator's rule; real devices have a few dozen).
        if ((sc == ir::StorageClass::Input || sc == ir::StorageClass::Output) &&
            std::uint64_t{d.location.value_or(0)} + ir::location_slots(m_, vt) > 65536) {
          fail(inst, fmt::format("an interface variable at location {} of {} locations; Sluice takes locations "
                                 "below 65536",
                                 d.location.value_or(0), ir::location_slots(m_, vt)));
          break;
        }
        d.passthrough = has_decoration(id, spv::Decoration::PassthroughNV);
        d.viewport_relative = has_decoration(id, spv::Decoration::ViewportRelativeNV);
        if (auto offset = decoration(id, spv::Decoration::SecondaryViewportRelativeNV))
          d.secondary_view_offset = static_cast<std::int32_t>(*offset);
        if (auto b = decoration(id, spv::Decoration::BuiltIn)) {
          const char* bn = builtin_name(*b);
          if (!bn) {
            fail(inst, fmt::format("unsupported built-in {}", *b));
            break;
          }
          d.built_in = bn;
          if (*b == static_cast<std::uint32_t>(spv::BuiltIn::FragDepth)) m_.shader().depth_replacing = true;
        }
        if (!member_interpolation.empty()) {
          split_interpolated_block(inst, vt, pointee_id, d, member_interpolation);
          break;
        }
        const ir::Type& value_type = m_.type(vt);
        // A passthrough gl_PerVertex input (GL_NV_geometry_shader_passthrough)
        // stays whole, as the GLSL front end keeps it: its decoration is the
        // block's and matters even when the shader never reads it.
        if (value_type.kind == ir::TypeKind::Struct && !value_type.members.empty() &&
            !value_type.members[0].built_in.empty() && !d.passthrough) {
          // gl_PerVertex: one variable per member.
          std::vector<ir::VariableId> members;
          // A copy: add_global interns pointer types, which may move the
          // module's type table under a reference into it.
          const std::vector<ir::StructMember> block_members = m_.type(vt).members;
          for (const ir::StructMember& mem : block_members) {
            ir::Decorations md;
            md.built_in = mem.built_in;
            md.invariant = d.invariant;
            md.passthrough = d.passthrough;
            md.xfb_buffer = d.xfb_buffer;
            md.xfb_offset = mem.xfb_offset;
            md.patch = d.patch;
            md.stream = d.stream;
            if (mem.built_in.empty()) md.location = d.location;
            const ir::Name n{mem.name, ir::NameSource::Internal};
            members.push_back(b_.add_global(n, mem.type, sc, mem.precision, md));
          }
          ids_[id] = IdValue{Kind::BuiltinBlock, static_cast<std::uint32_t>(builtin_blocks_.size())};
          builtin_blocks_.push_back(std::move(members));
          break;
        }
        ir::Name name{std::string(sm_.name(id)), ir::NameSource::Interface};
        if (sc == ir::StorageClass::Private || sc == ir::StorageClass::Workgroup) name.source = ir::NameSource::Temporary;
        if (value_type.kind == ir::TypeKind::Struct && value_type.is_block && name.text.empty()) {
          name = ir::Name{value_type.name, ir::NameSource::Internal};  // an anonymous block
        }
        if (!d.built_in.empty()) name.source = ir::NameSource::Internal;
        if (!is_identifier(name.text)) {
          name.text = sanitize(name.text);
          if (name.text.empty()) name.text = fmt::format("v{}", id);
          if (name.source == ir::NameSource::Interface) name.source = ir::NameSource::Internal;
        }
        ir::ConstantId init;
        if (inst.operands.size() > 3) {
          const IdValue& iv = ids_[std::min<std::uint32_t>(arg(3), sm_.bound - 1)];
          if (iv.kind == Kind::Constant) init = ir::ConstantId(iv.index);
          else fail(inst, "an initializer that is not a constant");
        }
        (void)pointee_id;
        const ir::VariableId v = b_.add_global(std::move(name), vt, sc, precision_of(id), std::move(d), init);
        ids_[id] = IdValue{Kind::Variable, v.index()};
        break;
      }
      default: break;
    }
  }
  if (!entry_seen) fail("the module has no entry point");
  else if (std::none_of(sm_.functions.begin(), sm_.functions.end(),
                        [&](const Function& f) { return f.id == entry_function; }))
    fail(fmt::format("the entry point %{} is not a function of the module", entry_function));
  if (failed()) return error_;
  // Functions: signatures first, so calls can name functions defined later.
  for (std::size_t fi = 0; fi < sm_.functions.size() && !failed(); ++fi) {
    const Function& f = sm_.functions[fi];
    const Instruction& fd = sm_.instructions[f.begin];
    const ir::TypeId rt = type(fd.type_id);
    if (!rt.valid()) break;
    std::string name = f.id == entry_function ? "main" : name_of(f.id);
    if (f.id != entry_function && (name.empty() || name == "main")) name = fmt::format("f{}", f.id);
    const ir::FunctionId fid = b_.begin_function(ir::Name{name, ir::NameSource::Temporary}, rt, precision_of(f.id));
    functions_.push_back(fid);
    ids_[f.id] = IdValue{Kind::Function, fid.index()};
    for (InstrIndex pi : f.parameters) {
      const Instruction& p = sm_.instructions[pi];
      const ir::TypeId pt = type(p.type_id);
      if (!pt.valid()) break;
      // A copy: add_parameter interns the parameter's pointer type, which
      // may move the module's type table (a reference would dangle).
      const ir::Type ptt = m_.type(pt);
      std::string pname = name_of(p.result_id);
      if (pname.empty()) pname = fmt::format("p{}", p.result_id);
      const ir::Name n{pname, ir::NameSource::Temporary};
      if (ptt.kind == ir::TypeKind::Pointer && ptt.storage != ir::StorageClass::UniformConstant) {
        if (ptt.storage != ir::StorageClass::Function && ptt.storage != ir::StorageClass::Private) {
          fail(p, "a pointer parameter to memory other than Function or Private");
          break;
        }
        const ir::VariableId v = b_.add_parameter(fid, n, ptt.element, ir::ParamDirection::InOut, precision_of(p.result_id));
        ids_[p.result_id] = IdValue{Kind::Variable, v.index()};
      } else {
        const ir::TypeId vt = ptt.kind == ir::TypeKind::Pointer ? ptt.element : pt;
        const ir::VariableId v = b_.add_parameter(fid, n, vt, ir::ParamDirection::In, precision_of(p.result_id));
        // A value parameter is loaded at the function's entry (reader_control.cpp);
        // a UniformConstant pointer is the parameter variable itself.
        ids_[p.result_id] = IdValue{ptt.kind == ir::TypeKind::Pointer ? Kind::Variable : Kind::None, v.index()};
      }
    }
  }
  if (failed()) return error_;
  return std::nullopt;
}

}  // namespace sluice::spirv_in::detail
