// glslang types, precisions and constant values in IR terms.
//
// Structs are nominal in the IR (the name takes part in equality), and a
// struct declared once can still give two IR types: glslang copies a struct
// used inside a row_major block with the members' matrix layout. Values move
// between such twins through coerce() (conversions.cpp).
#include <fmt/format.h>

#include "frontend/glsl/translator.h"
#include "ir/typing.h"

namespace sluice::glsl_in::detail {
namespace {

using glslang::TType;

// Structs nested deeper than this are refused (the IR type walk recurses
// once per nesting level).
constexpr std::uint32_t kMaxStructNesting = 64;

std::optional<ir::ImageDim> image_dim(glslang::TSamplerDim d) {
  switch (d) {
    case glslang::Esd1D: return ir::ImageDim::Dim1D;
    case glslang::Esd2D: return ir::ImageDim::Dim2D;
    case glslang::Esd3D: return ir::ImageDim::Dim3D;
    case glslang::EsdCube: return ir::ImageDim::Cube;
    case glslang::EsdRect: return ir::ImageDim::Rect;
    case glslang::EsdBuffer: return ir::ImageDim::Buffer;
    case glslang::EsdSubpass: return ir::ImageDim::SubpassData;
    default: return std::nullopt;
  }
}

std::optional<ir::ScalarKind> scalar_kind(glslang::TBasicType b) {
  switch (b) {
    case glslang::EbtFloat: return ir::ScalarKind::Float;
    case glslang::EbtDouble: return ir::ScalarKind::Float;  // 64 bits: Translator::type()
    case glslang::EbtInt: return ir::ScalarKind::Int;
    case glslang::EbtUint: return ir::ScalarKind::Uint;
    case glslang::EbtBool: return ir::ScalarKind::Bool;
    default: return std::nullopt;
  }
}

ir::MatrixLayout matrix_layout(glslang::TLayoutMatrix m) {
  // Column-major is the default; only row_major makes a difference, so a
  // struct's twin inside a default block stays the same IR type.
  return m == glslang::ElmRowMajor ? ir::MatrixLayout::RowMajor : ir::MatrixLayout::Default;
}

}  // namespace

ir::Precision Translator::declared_precision(const glslang::TIntermSymbol& s) const {
  // glslang gives an operation's precision to operands that have none
  // (propagatePrecision), the symbol nodes of desktop GLSL's built-ins
  // included, which are declared without one (ES declares every built-in
  // with a precision), and decorates a variable as its first node says. A
  // lowp/mediump that came so is kept (it makes RelaxedPrecision); highp
  // and none, alike to SPIR-V, become what the GLSL text says again: none
  // for a built-in, and for gl_FragColor and gl_FragData, which become user
  // outputs, what a user output gets in desktop GLSL (highp under Vulkan).
  const glslang::TQualifier& q = s.getQualifier();
  const ir::Precision p = precision(q);
  if (ast_.getProfile() == EEsProfile || !std::string_view(s.getName().c_str()).starts_with("gl_") ||
      p == ir::Precision::Low || p == ir::Precision::Medium)
    return p;
  const bool user_output = q.builtIn == glslang::EbvNone || q.builtIn == glslang::EbvFragColor ||
                           q.builtIn == glslang::EbvFragData;
  return user_output && options_.vulkan ? ir::Precision::High : ir::Precision::None;
}

ir::Precision Translator::to_precision(glslang::TPrecisionQualifier p) {
  switch (p) {
    case glslang::EpqLow: return ir::Precision::Low;
    case glslang::EpqMedium: return ir::Precision::Medium;
    case glslang::EpqHigh: return ir::Precision::High;
    default: return ir::Precision::None;
  }
}

bool Translator::filtered_member(const glslang::TType& member) const {
  // The members of gl_PerVertex that only NVIDIA extensions use: glslang
  // declares them in every desktop gl_PerVertex and its SPIR-V leaves them
  // out unless the shader enables the extension (GlslangToSpv's
  // filterMember); so does the IR.
  // Members a redeclaration of a built-in block left out: glslang hides
  // them (void) and its SPIR-V skips them; so does the IR.
  if (member.hiddenMember()) return true;
  const std::string_view name = member.getFieldName().c_str();
  const auto& extensions = ast_.getRequestedExtensions();
  auto without = [&](const char* e) { return extensions.find(e) == extensions.end(); };
  if (name == "gl_SecondaryViewportMaskNV" || name == "gl_SecondaryPositionNV")
    return without("GL_NV_stereo_view_rendering");
  if (name == "gl_ViewportMask") return without("GL_NV_viewport_array2");
  if (name == "gl_PositionPerViewNV" || name == "gl_ViewportMaskPerViewNV")
    return without("GL_NVX_multiview_per_view_attributes");
  return false;
}

ir::TypeId Translator::type(const TType& t, const glslang::TSourceLoc& loc) {
  if (failed_) return {};
  ir::TypeId base;
  const glslang::TBasicType basic = t.getBasicType();
  if (basic == glslang::EbtVoid) {
    base = ir::predefined::kVoid;
  } else if (basic == glslang::EbtStruct || basic == glslang::EbtBlock) {
    const glslang::TTypeList* members = t.getStruct();
    if (!members) {
      unsupported(loc, "a struct without members");
      return {};
    }
    const bool is_block = basic == glslang::EbtBlock;
    const glslang::TQualifier& q = t.getQualifier();
    ir::BlockLayout layout = ir::BlockLayout::None;
    if (is_block) {
      switch (q.layoutPacking) {
        case glslang::ElpStd140: layout = ir::BlockLayout::Std140; break;
        case glslang::ElpStd430: layout = ir::BlockLayout::Std430; break;
        case glslang::ElpNone: break;
        default:
          unsupported(loc, fmt::format("the {} block layout", glslang::TQualifier::getLayoutPackingString(q.layoutPacking)));
          return {};
      }
      // Vulkan's defaults, where glslang leaves the packing unset.
      if (layout == ir::BlockLayout::None && q.storage == glslang::EvqUniform)
        layout = q.isPushConstant() ? ir::BlockLayout::Std430 : ir::BlockLayout::Std140;
      if (layout == ir::BlockLayout::None && q.storage == glslang::EvqBuffer) layout = ir::BlockLayout::Std430;
      // GL_EXT_scalar_block_layout lets glslang take std430 on a uniform block,
      // but Vulkan needs uniformBufferStandardLayout for it (the IR validator's
      // rule, src/validator/module_checks.cpp).
      if (layout == ir::BlockLayout::Std430 && q.storage == glslang::EvqUniform && !q.isPushConstant()) {
        unsupported(loc, "a std430 uniform block (Vulkan needs the uniformBufferStandardLayout feature for it; "
                         "use std140 or a buffer block)");
        return {};
      }
    }
    // One member list can meet different layouts (a block's packing, an
    // inherited row_major), so they take part in the key.
    const std::uint64_t key = reinterpret_cast<std::uintptr_t>(members) * 16 +
                              static_cast<std::uint64_t>(layout) * 4 + (is_block ? 2 : 0) +
                              (q.layoutMatrix == glslang::ElmRowMajor ? 1 : 0);
    if (auto it = struct_cache.find(key); it != struct_cache.end()) {
      base = it->second;
    } else {
      if (struct_nesting >= kMaxStructNesting) {
        unsupported(loc, fmt::format("nesting structs more than {} levels deep", kMaxStructNesting));
        return {};
      }
      ++struct_nesting;
      std::vector<ir::StructMember> ir_members;
      std::vector<int> remap;
      const bool varying = q.storage == glslang::EvqVaryingIn || q.storage == glslang::EvqVaryingOut;
      const auto locations = is_block && varying ? member_locations(t) : std::nullopt;
      for (const glslang::TTypeLoc& m : *members) {
        if (is_block && filtered_member(*m.type)) {
          remap.push_back(-1);
          continue;
        }
        remap.push_back(static_cast<int>(ir_members.size()));
        ir::StructMember member;
        member.name = m.type->getFieldName().c_str();
        member.type = type(*m.type, m.loc.line > 0 ? m.loc : loc);
        if (!member.type.valid()) {
          --struct_nesting;
          return {};
        }
        const glslang::TQualifier& mq = m.type->getQualifier();
        if (is_block && mq.hasOffset()) member.offset = static_cast<std::uint32_t>(mq.layoutOffset);
        if (locations) member.location = (*locations)[remap.size() - 1];
        if (is_block && ast_.getXfbMode() && mq.hasXfbOffset())
          member.xfb_offset = static_cast<std::uint32_t>(mq.layoutXfbOffset);
        if (is_block && ((mq.coherent && !q.coherent) || (mq.volatil && !q.volatil))) {
          --struct_nesting;
          unsupported(m.loc.line > 0 ? m.loc : loc, "coherent or volatile on a block member (not on the block)");
          return {};
        }
        member.matrix_layout = matrix_layout(mq.layoutMatrix != glslang::ElmNone ? mq.layoutMatrix : q.layoutMatrix);
        member.precision = to_precision(mq.precision);
        if (is_block && mq.builtIn != glslang::EbvNone) {
          // gl_PerVertex of gl_in[] / gl_out[] (interface.cpp).
          const char* b = builtin_name(mq.builtIn);
          if (!b) {
            --struct_nesting;
            unsupported(m.loc.line > 0 ? m.loc : loc, fmt::format("the built-in '{}'", m.type->getFieldName().c_str()));
            return {};
          }
          member.built_in = b;
        }
        ir_members.push_back(std::move(member));
      }
      --struct_nesting;
      if (ir_members.size() != members->size()) member_remap[members] = std::move(remap);
      base = module_.intern(ir::Type::make_struct(t.getTypeName().c_str(), std::move(ir_members), is_block, layout));
      struct_cache.emplace(key, base);
    }
  } else if (basic == glslang::EbtSampler) {
    const glslang::TSampler& s = t.getSampler();
    if (s.isPureSampler()) {
      base = module_.intern(ir::Type::make_sampler());
    } else {
      auto dim = image_dim(s.dim);
      auto sampled = scalar_kind(s.type);
      if (!dim || !sampled || s.isExternal() || s.isYuv() || s.isSubpass()) {
        unsupported(loc, fmt::format("the sampler type '{}'", s.getString().c_str()));
        return {};
      }
      ir::ImageDescriptor d;
      d.sampled_type = *sampled;
      d.dim = *dim;
      d.depth = s.isShadow();
      d.arrayed = s.isArrayed();
      d.multisampled = s.isMultiSample();
      d.storage = s.isImage();
      if (d.storage && t.getQualifier().hasFormat())
        d.format = glslang::TQualifier::getLayoutFormatString(t.getQualifier().layoutFormat);
      base = module_.intern(ir::Type::make_image(std::move(d)));
      if (s.isCombined()) base = module_.intern(ir::Type::make_sampled_image(base));
    }
  } else {
    auto kind = scalar_kind(basic);
    if (!kind) {
      unsupported(loc, fmt::format("the type '{}'", t.getBasicTypeString().c_str()));
      return {};
    }
    if (t.isMatrix()) {
      if (*kind != ir::ScalarKind::Float) {
        unsupported(loc, "a matrix of a non-float type");
        return {};
      }
      base = basic == glslang::EbtDouble
                 ? module_.double_matrix_type(static_cast<std::uint32_t>(t.getMatrixCols()),
                                              static_cast<std::uint32_t>(t.getMatrixRows()))
                 : module_.matrix_type(static_cast<std::uint32_t>(t.getMatrixCols()),
                                       static_cast<std::uint32_t>(t.getMatrixRows()));
    } else if (basic == glslang::EbtDouble) {
      base = module_.double_type(static_cast<std::uint32_t>(t.isVector() ? t.getVectorSize() : 1));
    } else {
      base = module_.vector_type(*kind, static_cast<std::uint32_t>(t.isVector() ? t.getVectorSize() : 1));
    }
  }
  if (!t.isArray()) return base;

  // Array dimensions, innermost (last) first; dimension 0 is the outermost.
  const glslang::TArraySizes* sizes = t.getArraySizes();
  ir::TypeId result = base;
  for (int dim = sizes->getNumDims() - 1; dim >= 0; --dim) {
    if (const TIntermTyped* length_node = sizes->getDimNode(dim)) {
      const ir::ConstantId length = spec_constant_expression(length_node);
      if (!length.valid()) return {};
      const std::uint32_t n = module_.constant(length).bits;
      if (n == 0 || n > static_cast<std::uint32_t>(INT32_MAX)) {
        error(loc, fmt::format("an array length of {} at the specialization constants' defaults", n));
        return {};
      }
      result = module_.intern(is_specialization(length) ? ir::Type::make_spec_array(result, n, length)
                                                        : ir::Type::make_array(result, n));
      continue;
    }
    int n = sizes->getDimSize(dim);
    if (n == glslang::UnsizedArraySize) {
      if (dim == 0 && t.getQualifier().storage == glslang::EvqBuffer) {
        result = module_.intern(ir::Type::make_unsized_array(result));
        continue;
      }
      // Implicitly sized arrays take the size their uses imply.
      n = dim == 0 ? sizes->getImplicitSize() : 0;
      if (n <= 0) {
        unsupported(loc, "an unsized array outside a buffer block");
        return {};
      }
    }
    result = module_.array_type(result, static_cast<std::uint32_t>(n));
  }
  return result;
}

ir::ConstantId Translator::constant(const TType& t, const glslang::TConstUnionArray& values,
                                    const glslang::TSourceLoc& loc) {
  if (failed_) return {};
  const ir::TypeId ir_type = type(t, loc);
  if (!ir_type.valid()) return {};
  // Walk the IR type with an explicit stack, consuming glslang's flat list
  // of scalars in order (matrices column by column, as glslang stores them).
  struct Frame {
    ir::TypeId type;
    std::vector<ir::ConstantId> components;
    std::uint32_t next = 0;
  };
  int index = 0;
  auto scalar = [&](ir::TypeId st) -> ir::ConstantId {
    if (index >= values.size()) return {};
    const glslang::TConstUnion& v = values[index++];
    double d = 0;
    std::int64_t i = 0;
    bool as_float = false;
    switch (v.getType()) {
      case glslang::EbtFloat:
      case glslang::EbtDouble: d = v.getDConst(); as_float = true; break;
      case glslang::EbtInt: i = v.getIConst(); break;
      case glslang::EbtUint: i = v.getUConst(); break;
      case glslang::EbtBool: i = v.getBConst() ? 1 : 0; break;
      default: return {};
    }
    // glslang keeps every float constant as a double; a double constant
    // takes it whole, never through float.
    if (module_.type(st).width == 64) return module_.double_constant(as_float ? d : static_cast<double>(i));
    switch (module_.type(st).scalar) {
      case ir::ScalarKind::Float:
        return module_.float_constant(as_float ? static_cast<float>(d) : static_cast<float>(i));
      case ir::ScalarKind::Int:
        return module_.int_constant(as_float ? static_cast<std::int32_t>(d) : static_cast<std::int32_t>(i));
      case ir::ScalarKind::Uint:
        return module_.uint_constant(as_float ? static_cast<std::uint32_t>(d) : static_cast<std::uint32_t>(i));
      case ir::ScalarKind::Bool: return module_.bool_constant(as_float ? d != 0 : i != 0);
    }
    return {};
  };
  auto child_count = [&](const ir::Type& ty) -> std::uint32_t {
    switch (ty.kind) {
      case ir::TypeKind::Vector:
      case ir::TypeKind::Matrix:
      case ir::TypeKind::Array: return ty.count;
      case ir::TypeKind::Struct: return static_cast<std::uint32_t>(ty.members.size());
      default: return 0;
    }
  };
  auto child_type = [&](const ir::Type& ty, std::uint32_t i) {
    return ty.kind == ir::TypeKind::Struct ? ty.members[i].type : ty.element;
  };
  if (module_.type(ir_type).kind == ir::TypeKind::Scalar) {
    ir::ConstantId c = scalar(ir_type);
    if (!c.valid()) unsupported(loc, "a constant of this type");
    return c;
  }
  std::vector<Frame> stack;
  stack.push_back(Frame{ir_type, {}, 0});
  ir::ConstantId done;
  while (!stack.empty()) {
    Frame& top = stack.back();
    const ir::Type& ty = module_.type(top.type);
    if (top.next < child_count(ty)) {
      const ir::TypeId ct = child_type(ty, top.next++);
      const ir::TypeKind ck = module_.type(ct).kind;
      if (ck == ir::TypeKind::Scalar) {
        ir::ConstantId c = scalar(ct);
        if (!c.valid()) {
          unsupported(loc, "a constant of this type");
          return {};
        }
        top.components.push_back(c);
      } else if (ck == ir::TypeKind::Vector || ck == ir::TypeKind::Matrix || ck == ir::TypeKind::Array ||
                 ck == ir::TypeKind::Struct) {
        stack.push_back(Frame{ct, {}, 0});
      } else {
        unsupported(loc, "a constant of this type");
        return {};
      }
      continue;
    }
    ir::ConstantId c = module_.composite_constant(top.type, top.components);
    stack.pop_back();
    if (stack.empty())
      done = c;
    else
      stack.back().components.push_back(c);
  }
  return done;
}

ir::ConstantId Translator::zero(ir::TypeId t) {
  if (failed_ || !t.valid()) return {};
  // Same explicit-stack walk as constant(), with every scalar zero.
  struct Frame {
    ir::TypeId type;
    std::vector<ir::ConstantId> components;
    std::uint32_t next = 0;
  };
  auto scalar_zero = [&](ir::TypeId st) -> ir::ConstantId {
    if (module_.type(st).width == 64) return module_.double_constant(0.0);
    switch (module_.type(st).scalar) {
      case ir::ScalarKind::Float: return ir::predefined::kFloatZero;
      case ir::ScalarKind::Int: return ir::predefined::kIntZero;
      case ir::ScalarKind::Uint: return ir::predefined::kUintZero;
      case ir::ScalarKind::Bool: return ir::predefined::kFalse;
    }
    return {};
  };
  const ir::Type& top_type = module_.type(t);
  if (top_type.kind == ir::TypeKind::Scalar) return scalar_zero(t);
  std::vector<Frame> stack;
  stack.push_back(Frame{t, {}, 0});
  ir::ConstantId done;
  while (!stack.empty()) {
    Frame& top = stack.back();
    const ir::Type& ty = module_.type(top.type);
    std::uint32_t n = 0;
    if (ty.kind == ir::TypeKind::Vector || ty.kind == ir::TypeKind::Matrix || ty.kind == ir::TypeKind::Array)
      n = ty.count;
    else if (ty.kind == ir::TypeKind::Struct)
      n = static_cast<std::uint32_t>(ty.members.size());
    else
      return {};  // no zero value for opaque or unsized types
    if (top.next < n) {
      const ir::TypeId ct = ty.kind == ir::TypeKind::Struct ? ty.members[top.next].type : ty.element;
      ++top.next;
      if (module_.type(ct).kind == ir::TypeKind::Scalar)
        top.components.push_back(scalar_zero(ct));
      else
        stack.push_back(Frame{ct, {}, 0});
      continue;
    }
    ir::ConstantId c = module_.composite_constant(top.type, top.components);
    stack.pop_back();
    if (stack.empty())
      done = c;
    else
      stack.back().components.push_back(c);
  }
  return done;
}

}  // namespace sluice::glsl_in::detail
