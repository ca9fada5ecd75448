// Variables: the shader interface (inputs, outputs, uniform and storage
// blocks, push constants, samplers and images, shared variables), private
// globals, built-ins and locals, each made on first sight of its symbol.
//
// Locals are all declared in the function's entry block, however deep in
// the function GLSL declares them: glslang's AST keeps no declaration for a
// variable without initializer, so its scope is unknown, and the entry block
// dominates every use. A GLSL initializer is a Store where the declaration
// stood, so a variable declared in a loop is still re-initialized on every
// iteration; only an initializer that runs in the entry block itself
// becomes the variable's IR initializer.
#include <fmt/format.h>

#include "frontend/glsl/translator.h"
#include "ir/typing.h"

namespace sluice::glsl_in::detail {

// SPIR-V BuiltIn names, as the IR spells them in Decorations::built_in
// (ir/built_in.h lists them).
const char* builtin_name(glslang::TBuiltInVariable b) {
  switch (b) {
    case glslang::EbvNumWorkGroups: return "NumWorkgroups";
    case glslang::EbvWorkGroupSize: return "WorkgroupSize";
    case glslang::EbvWorkGroupId: return "WorkgroupId";
    case glslang::EbvLocalInvocationId: return "LocalInvocationId";
    case glslang::EbvGlobalInvocationId: return "GlobalInvocationId";
    case glslang::EbvLocalInvocationIndex: return "LocalInvocationIndex";
    case glslang::EbvVertexId: return "VertexId";
    case glslang::EbvInstanceId: return "InstanceId";
    case glslang::EbvVertexIndex: return "VertexIndex";
    case glslang::EbvInstanceIndex: return "InstanceIndex";
    case glslang::EbvBaseVertex: return "BaseVertex";
    case glslang::EbvBaseInstance: return "BaseInstance";
    case glslang::EbvDrawId: return "DrawIndex";
    case glslang::EbvPosition: return "Position";
    case glslang::EbvPointSize: return "PointSize";
    case glslang::EbvClipDistance: return "ClipDistance";
    case glslang::EbvCullDistance: return "CullDistance";
    case glslang::EbvPrimitiveId: return "PrimitiveId";
    case glslang::EbvLayer: return "Layer";
    case glslang::EbvViewportIndex: return "ViewportIndex";
    case glslang::EbvFace: return "FrontFacing";
    case glslang::EbvFragCoord: return "FragCoord";
    case glslang::EbvPointCoord: return "PointCoord";
    case glslang::EbvFragDepth: return "FragDepth";
    case glslang::EbvSampleId: return "SampleId";
    case glslang::EbvSamplePosition: return "SamplePosition";
    case glslang::EbvSampleMask: return "SampleMask";
    case glslang::EbvHelperInvocation: return "HelperInvocation";
    case glslang::EbvViewIndex: return "ViewIndex";
    case glslang::EbvInvocationId: return "InvocationId";
    case glslang::EbvPatchVertices: return "PatchVertices";
    case glslang::EbvTessLevelOuter: return "TessLevelOuter";
    case glslang::EbvTessLevelInner: return "TessLevelInner";
    case glslang::EbvTessCoord: return "TessCoord";
    case glslang::EbvSubgroupSize2: return "SubgroupSize";
    case glslang::EbvSubgroupInvocation2: return "SubgroupLocalInvocationId";
    case glslang::EbvViewportMaskNV: return "ViewportMaskNV";
    case glslang::EbvSecondaryPositionNV: return "SecondaryPositionNV";
    case glslang::EbvSecondaryViewportMaskNV: return "SecondaryViewportMaskNV";
    case glslang::EbvPositionPerViewNV: return "PositionPerViewNV";
    case glslang::EbvViewportMaskPerViewNV: return "ViewportMaskPerViewNV";
    default: return nullptr;
  }
}

namespace {

using glslang::TQualifier;
using glslang::TType;

bool is_opaque(const TType& t) { return t.getBasicType() == glslang::EbtSampler; }

std::optional<ir::StorageClass> storage_class(const TType& t, bool vulkan) {
  const TQualifier& q = t.getQualifier();
  switch (q.storage) {
    case glslang::EvqGlobal: return ir::StorageClass::Private;
    case glslang::EvqVaryingIn:
    case glslang::EvqVertexId:
    case glslang::EvqInstanceId:
    case glslang::EvqFace:
    case glslang::EvqFragCoord:
    case glslang::EvqPointCoord: return ir::StorageClass::Input;
    case glslang::EvqVaryingOut:
    case glslang::EvqPosition:
    case glslang::EvqPointSize:
    case glslang::EvqClipVertex:
    case glslang::EvqFragColor:
    case glslang::EvqFragDepth: return ir::StorageClass::Output;
    case glslang::EvqUniform:
      // Samplers and images, and (GLSL ES) structs holding them.
      if (is_opaque(t) || (t.getBasicType() == glslang::EbtStruct && t.containsOpaque()))
        return ir::StorageClass::UniformConstant;
      if (t.getBasicType() == glslang::EbtBlock)
        return q.isPushConstant() ? ir::StorageClass::PushConstant : ir::StorageClass::Uniform;
      // A uniform outside a block: OpenGL's default uniform block, which
      // SPIR-V for OpenGL spells as UniformConstant variables with locations.
      if (!vulkan) return ir::StorageClass::UniformConstant;
      return std::nullopt;
    case glslang::EvqBuffer: return ir::StorageClass::StorageBuffer;
    case glslang::EvqShared: return ir::StorageClass::Workgroup;
    default: return std::nullopt;
  }
}

ir::Decorations decorations_of(const TQualifier& q) {
  ir::Decorations d;
  if (q.hasLocation()) d.location = q.layoutLocation;
  if (q.hasComponent()) d.component = q.layoutComponent;
  if (q.hasBinding()) d.binding = q.layoutBinding;
  if (q.hasSet()) d.set = q.layoutSet;
  if (q.hasIndex()) d.index = q.layoutIndex;
  if (q.flat) d.interpolation = ir::Interpolation::Flat;
  if (q.nopersp) d.interpolation = ir::Interpolation::NoPerspective;
  d.centroid = q.centroid;
  d.sample = q.sample;
  d.invariant = q.invariant;
  d.readonly = q.readonly;
  d.writeonly = q.writeonly;
  d.coherent = q.coherent || q.devicecoherent || q.queuefamilycoherent || q.workgroupcoherent;
  d.volatile_ = q.volatil;
  d.restrict_ = q.restrict;
  d.patch = q.patch;
  // NVIDIA's layout qualifiers, as glslang's SPIR-V back end decorates
  // them; -2048 is glslang's "no secondary_view_offset".
  d.passthrough = q.layoutPassthrough;
  d.viewport_relative = q.layoutViewportRelative;
  if (q.layoutSecondaryViewportRelativeOffset != -2048) d.secondary_view_offset = q.layoutSecondaryViewportRelativeOffset;
  return d;
}

// A block whose members are built-ins (gl_PerVertex and its redeclarations).
bool is_builtin_block(const TType& t) {
  if (t.getBasicType() != glslang::EbtBlock || !t.getStruct() || t.getStruct()->empty()) return false;
  return (*t.getStruct())[0].type->getQualifier().builtIn != glslang::EbvNone;
}

// A built-in block the IR keeps whole, its members' built-ins on the
// members: gl_in[] and gl_out[], and a passthrough geometry input
// (`layout(passthrough) in gl_PerVertex {...};`), whose decoration is the
// block's and which matters even when the shader never reads it. Other
// built-in blocks become one variable per member.
bool is_whole_builtin_block(const TType& t) {
  return is_builtin_block(t) && (t.isArray() || t.getQualifier().layoutPassthrough);
}

std::string_view text(const glslang::TString& s) { return std::string_view(s.c_str(), s.size()); }

// The per-variable decorations a block member's qualifier asks for
// (interpolation, invariance), comparable between members.
int interpolation_of(const TQualifier& q) {
  return (q.flat ? 1 : 0) | (q.nopersp ? 2 : 0) | (q.centroid ? 4 : 0) | (q.sample ? 8 : 0) | (q.invariant ? 16 : 0);
}

void set_interpolation(ir::Decorations& d, const TQualifier& q) {
  d.interpolation = q.flat ? ir::Interpolation::Flat : q.nopersp ? ir::Interpolation::NoPerspective
                                                                 : ir::Interpolation::Smooth;
  d.centroid = q.centroid;
  d.sample = q.sample;
  d.invariant = d.invariant || q.invariant;
}

// An input or output block whose members ask for different decorations
// (`flat int id;` next to a smooth vec2, an invariant member, a member's
// layout(component)): the IR decorates variables, not members, so such a
// block becomes one variable per member.
bool has_mixed_interpolation(const TType& t) {
  if (t.getBasicType() != glslang::EbtBlock || !t.getStruct() || t.getStruct()->empty()) return false;
  if (is_builtin_block(t)) return false;  // one variable per member already
  const auto storage = t.getQualifier().storage;
  if (storage != glslang::EvqVaryingIn && storage != glslang::EvqVaryingOut) return false;
  const int first = interpolation_of((*t.getStruct())[0].type->getQualifier());
  for (const glslang::TTypeLoc& m : *t.getStruct()) {
    const TQualifier& mq = m.type->getQualifier();
    if (interpolation_of(mq) != first || mq.hasComponent()) return true;
  }
  return false;
}

}  // namespace

ir::VariableId Translator::temporary(std::string name, ir::TypeId t, ir::Precision p) {
  const ir::BlockId here = builder_.block();
  builder_.set_block(entry_block);
  ir::VariableId v = builder_.declare_local(ir::Name{std::move(name), ir::NameSource::Temporary}, t, p);
  builder_.set_block(here);
  return v;
}

bool Translator::try_initialize_local(const TIntermSymbol* s, const TIntermTyped* init) {
  if (failed_) return false;
  const TIntermConstantUnion* c = init->getAsConstantUnion();
  if (!c || builder_.block() != entry_block || variables.contains(s->getId())) return false;
  const glslang::TStorageQualifier storage = s->getQualifier().storage;
  if (storage == glslang::EvqTemporary || storage == glslang::EvqConstReadOnly) {
    const ir::TypeId t = type(s->getType(), s->getLoc());
    const ir::ConstantId value = constant(c->getType(), c->getConstArray(), c->getLoc());
    if (!t.valid() || !value.valid() || module_.constant(value).type != t) return false;
    variables[s->getId()] = builder_.declare_local(ir::Name{std::string(text(s->getName())), ir::NameSource::Temporary},
                                                   t, precision(s->getQualifier()), value);
    return true;
  }
  return false;
}

std::optional<ir::Operand> Translator::try_bind_const_local(const TIntermSymbol* s, TIntermTyped* init) {
  // glslang refuses a global const with a non-constant initializer, and
  // const parameters are in `variables` already.
  if (s->getQualifier().storage != glslang::EvqConstReadOnly || variables.contains(s->getId()) ||
      const_locals_kept.contains(s->getId()))
    return std::nullopt;
  // Stays a variable: a type holding an array, which a run-time index reads
  // through memory (as a value, each such read would copy the array whole
  // into a temporary; a matrix's few columns are worth it), and a local
  // declared at another precision than its initializer's (the value would
  // keep the initializer's).
  const glslang::TType& declared = s->getType();
  if (declared.containsArray() ||
      to_precision(declared.getQualifier().precision) != to_precision(init->getQualifier().precision))
    return std::nullopt;
  const ir::Operand v = rvalue(init);
  const ir::TypeId t = type(s->getType(), s->getLoc());
  if (failed_) return kNoValue;
  const ir::Operand value = coerce(v, t, init);
  const_values[s->getId()] = value;
  return value;
}

void Translator::keep_case_const_locals(std::span<TIntermNode* const> case_body) {
  std::vector<TIntermNode*> nodes(case_body.begin(), case_body.end());
  while (!nodes.empty()) {
    TIntermNode* n = nodes.back();
    nodes.pop_back();
    if (!n) continue;
    // A declaration list is a sequence of its initializations; a `{}`
    // block is a sequence too, and its const locals are kept as well (not
    // needed, but harmless).
    if (TIntermAggregate* a = n->getAsAggregate(); a && a->getOp() == glslang::EOpSequence) {
      nodes.insert(nodes.end(), a->getSequence().begin(), a->getSequence().end());
      continue;
    }
    const TIntermBinary* b = n->getAsBinaryNode();
    const TIntermSymbol* target = b && b->getOp() == glslang::EOpAssign ? b->getLeft()->getAsSymbolNode() : nullptr;
    if (target && target->getQualifier().storage == glslang::EvqConstReadOnly) const_locals_kept.insert(target->getId());
  }
}

std::optional<std::vector<std::uint32_t>> Translator::member_locations(const TType& t) const {
  // GLSL 4.60 §4.4.1.1: a member without a location takes the one after
  // the previous member's; the first takes the block's.
  const glslang::TTypeList& members = *t.getStruct();
  std::optional<std::uint32_t> next;
  if (t.getQualifier().hasLocation()) next = t.getQualifier().layoutLocation;
  std::vector<std::uint32_t> out;
  bool out_of_order = false;
  for (const glslang::TTypeLoc& m : members) {
    const TQualifier& mq = m.type->getQualifier();
    if (mq.hasLocation()) {
      out_of_order |= next && *next != mq.layoutLocation && !out.empty();
      next = mq.layoutLocation;
    }
    if (!next) return std::nullopt;  // no location at all (block_member_locations says why)
    out.push_back(*next);
    *next += static_cast<std::uint32_t>(glslang::TIntermediate::computeTypeLocationSize(*m.type, ast_.getStage()));
  }
  if (!out_of_order) return std::nullopt;
  return out;
}

bool Translator::block_member_locations(const TType& t, const glslang::TSourceLoc& loc, ir::Decorations& d) {
  // The IR gives a block one location, its members the following ones in
  // order, or (Vulkan's other form, VUID-StandaloneSpirv-Location-04919)
  // every member its own location and the block none. Explicit member
  // locations that agree with the order fold into the block's location.
  const glslang::TTypeList& members = *t.getStruct();
  bool any = false;
  for (const glslang::TTypeLoc& m : members) any |= m.type->getQualifier().hasLocation();
  if (!any) return true;
  // A member's own location overrides the block's.
  const TQualifier& first = members[0].type->getQualifier();
  if (first.hasLocation()) {
    d.location = first.layoutLocation;
  } else if (!d.location) {
    unsupported(loc, "layout(location) on a block member after the first");
    return false;
  }
  if (!member_locations(t)) return true;
  // Per-member locations: only on a block or a per-vertex array of them,
  // whose vertex dimension does not count (an array of blocks would need
  // locations per element).
  const EShLanguage stage = ast_.getStage();
  const bool input = t.getQualifier().storage == glslang::EvqVaryingIn;
  const bool per_vertex = t.isArray() && !t.getQualifier().patch && t.getArraySizes()->getNumDims() == 1 &&
                          (((stage == EShLangGeometry || stage == EShLangTessEvaluation) && input) ||
                           stage == EShLangTessControl);
  if (t.isArray() && !per_vertex) {
    unsupported(loc, "an array of blocks with layout(location) on a member out of the members' order");
    return false;
  }
  d.location.reset();
  return true;
}

void Translator::xfb_decorations(const TQualifier& q, bool with_offset, ir::Decorations& d) const {
  // glslang gives every output the default buffer 0; only a shader that
  // uses transform feedback (xfb mode) means it.
  if (!ast_.getXfbMode()) return;
  if (q.hasXfbBuffer()) {
    d.xfb_buffer = q.layoutXfbBuffer;
    // The buffer's stride, explicit or implied by the offsets (glslang
    // computes it when linking), as glslang's SPIR-V carries it.
    const unsigned stride = ast_.getXfbStride(static_cast<int>(q.layoutXfbBuffer));
    if (stride != TQualifier::layoutXfbStrideEnd) d.xfb_stride = stride;
  }
  if (with_offset && q.hasXfbOffset()) d.xfb_offset = q.layoutXfbOffset;
}

ir::VariableId Translator::global_variable(const TIntermSymbol* s) {
  if (auto it = variables.find(s->getId()); it != variables.end()) return it->second;
  const TType& t = s->getType();
  const TQualifier& q = t.getQualifier();
  // Linker objects carry no position: find the declaration by name.
  const bool anonymous = text(s->getName()).starts_with("anon@");
  const glslang::TSourceLoc loc =
      s->getLoc().line > 0 ? s->getLoc() : find_in_source(anonymous ? text(t.getTypeName()) : text(s->getName()));
  auto storage = storage_class(t, options_.vulkan);
  if (!storage) {
    unsupported(loc, fmt::format("the '{}' storage qualifier (on '{}')", glslang::GetStorageQualifierString(q.storage),
                                         text(s->getName())));
    return {};
  }
  ir::Decorations d = decorations_of(q);
  // A block's xfb offsets are its members' (types.cpp), as glslang emits them.
  xfb_decorations(q, t.getBasicType() != glslang::EbtBlock, d);
  if (t.getBasicType() == glslang::EbtBlock && !block_member_locations(t, loc, d)) return {};
  if (t.getBasicType() == glslang::EbtBlock && (q.storage == glslang::EvqVaryingIn || q.storage == glslang::EvqVaryingOut)) {
    // glslang lifts a member's interpolation to the block; the members say
    // what each one wants.
    if (has_mixed_interpolation(t)) {
      split_block(s, loc, d);
      return {};
    }
    set_interpolation(d, (*t.getStruct())[0].type->getQualifier());
  }
  // Translated only now: a split block's struct type would be a type
  // nothing uses (and the outputs would still emit it).
  const ir::TypeId value_type = type(t, loc);
  if (!value_type.valid()) return {};
  ir::Name name{std::string(text(s->getName())), ir::NameSource::Interface};
  if (*storage == ir::StorageClass::Private || *storage == ir::StorageClass::Workgroup)
    name.source = ir::NameSource::Temporary;
  if (t.getBasicType() == glslang::EbtBlock && anonymous) {
    // An anonymous block: its variable has no name (the block's type name
    // is what the interface knows). The GLSL output declares it anonymous
    // again, and the SPIR-V output gives it no OpName.
    name = ir::Name{"", ir::NameSource::Internal};
  }
  if (is_builtin_block(t)) name.source = ir::NameSource::Internal;  // gl_in, gl_out
  // A geometry output's stream, as glslang decorates it: only when the
  // shader uses more than one.
  if (q.hasStream() && ast_.isMultiStream() && *storage == ir::StorageClass::Output) d.stream = q.layoutStream;
  if (q.builtIn != glslang::EbvNone) {
    name.source = ir::NameSource::Internal;
    if (q.builtIn == glslang::EbvFragColor || q.builtIn == glslang::EbvFragData) {
      // Vulkan has no gl_FragColor built-in: glslang makes it output 0.
      d.location = 0;
    } else if (const char* b = builtin_name(q.builtIn)) {
      d.built_in = b;
    } else {
      unsupported(loc, fmt::format("the built-in variable '{}'", text(s->getName())));
      return {};
    }
    if (q.builtIn == glslang::EbvFragDepth) module_.shader().depth_replacing = true;
  }
  builder_.set_location(ir::SourceLocation{file_index_, static_cast<std::uint32_t>(std::max(loc.line, 0)),
                                           static_cast<std::uint32_t>(std::max(loc.column, 0))});
  const ir::VariableId v =
      builder_.add_global(std::move(name), value_type, *storage, declared_precision(*s), std::move(d));
  variables[s->getId()] = v;
  return v;
}

void Translator::declare_linker_objects(const TIntermAggregate* objects) {
  for (TIntermNode* node : objects->getSequence()) {
    if (failed_) return;
    const TIntermSymbol* s = node ? node->getAsSymbolNode() : nullptr;
    if (!s) continue;
    const TType& t = s->getType();
    // Constants have no storage; built-in blocks become one variable per
    // member, made when a member is used, but for passthrough ones.
    if (t.getQualifier().storage == glslang::EvqConst || (is_builtin_block(t) && !t.getQualifier().layoutPassthrough))
      continue;
    global_variable(s);
  }
}

namespace {

// Collects the symbols under a node.
class SymbolCollector : public glslang::TIntermTraverser {
 public:
  std::vector<const TIntermSymbol*> found;
  void visitSymbol(TIntermSymbol* s) override { found.push_back(s); }
};

}  // namespace

void Translator::declare_interface_of_dead_code(TIntermNode* dead) {
  SymbolCollector symbols;
  dead->traverse(&symbols);
  for (const TIntermSymbol* s : symbols.found) {
    if (failed_) return;
    const TType& t = s->getType();
    const TQualifier& q = t.getQualifier();
    const auto storage = storage_class(t, options_.vulkan);
    if (!storage || (*storage != ir::StorageClass::Input && *storage != ir::StorageClass::Output)) continue;
    // Built-ins the front end does not know stay an error where they are
    // used, not where they are dead.
    const bool known_builtin = q.builtIn == glslang::EbvNone || q.builtIn == glslang::EbvFragColor ||
                               q.builtIn == glslang::EbvFragData || builtin_name(q.builtIn) != nullptr;
    if (is_builtin_block(t) || !known_builtin) continue;
    global_variable(s);
  }
}

Value Translator::symbol(const TIntermSymbol* s) {
  if (failed_) return {};
  const TType& t = s->getType();
  const TQualifier& q = t.getQualifier();
  switch (q.storage) {
    case glslang::EvqConst: {
      if (q.builtIn == glslang::EbvWorkGroupSize && workgroup_size_is_spec())
        return Value::rvalue(workgroup_size_constant());
      if (q.specConstant && q.hasSpecConstantId()) {
        if (!t.isScalar()) {
          unsupported(s->getLoc(), "a non-scalar specialization constant");
          return {};
        }
        ir::ConstantId c = constant(t, s->getConstArray(), s->getLoc());
        if (!c.valid()) return {};
        ir::Constant spec = module_.constant(c);
        spec.spec_id = q.layoutSpecConstantId;
        return Value::rvalue(module_.intern(spec));
      }
      // A specialization-constant expression: computed where it is used.
      if (s->getConstSubtree()) return Value::rvalue(rvalue(s->getConstSubtree()));
      if (s->getConstArray().empty()) {
        unsupported(s->getLoc(), fmt::format("the constant '{}' without a value", text(s->getName())));
        return {};
      }
      return Value::rvalue(constant(t, s->getConstArray(), s->getLoc()));
    }
    case glslang::EvqConstReadOnly:
      // A const local with a value known only at run time (GLSL 4.2) is
      // the value it was initialized with (try_bind_const_local); one a
      // switch's later case sees is a variable; const parameters are found
      // as parameters.
      if (auto it = const_values.find(s->getId()); it != const_values.end()) return Value::rvalue(it->second);
      if (auto it = variables.find(s->getId()); it != variables.end()) return Value::pointer(it->second);
      [[fallthrough]];
    case glslang::EvqTemporary: {
      if (auto it = variables.find(s->getId()); it != variables.end()) return Value::pointer(it->second);
      const ir::TypeId vt = type(t, s->getLoc());
      if (!vt.valid()) return {};
      const ir::BlockId here = builder_.block();
      builder_.set_block(entry_block);
      locate(s);
      const ir::VariableId v =
          builder_.declare_local(ir::Name{std::string(text(s->getName())), ir::NameSource::Temporary}, vt, precision(q));
      builder_.set_block(here);
      variables[s->getId()] = v;
      return Value::pointer(v);
    }
    case glslang::EvqIn:
    case glslang::EvqOut:
    case glslang::EvqInOut: {
      if (auto it = variables.find(s->getId()); it != variables.end()) return Value::pointer(it->second);
      unsupported(s->getLoc(), fmt::format("the parameter '{}' outside its function", text(s->getName())));
      return {};
    }
    default: break;
  }
  // gl_in[] and gl_out[]: one array of the block, whose members carry
  // their built-ins (as glslang's SPIR-V has it), and a passthrough block;
  // another single block is one variable per member (block_member).
  if (is_whole_builtin_block(t)) {
    const ir::VariableId v = global_variable(s);
    return v.valid() ? Value::pointer(v) : Value{};
  }
  if (is_builtin_block(t)) {
    unsupported(s->getLoc(), fmt::format("using the built-in block '{}' as a whole", text(t.getTypeName())));
    return {};
  }
  const ir::VariableId v = split_blocks.contains(s->getId()) ? ir::VariableId() : global_variable(s);
  if (!v.valid()) {
    if (split_blocks.contains(s->getId()))
      unsupported(s->getLoc(), fmt::format("using the block '{}', whose members differ in interpolation, as a whole",
                                           text(t.getTypeName())));
    return {};
  }
  return Value::pointer(v);
}

void Translator::split_block(const TIntermSymbol* s, const glslang::TSourceLoc& loc, const ir::Decorations& block) {
  const TType& t = s->getType();
  // A per-vertex array of such blocks (a geometry or tessellation input,
  // a tessellation control output) becomes one per-vertex array per member:
  // the vertex index does not count towards locations, so the members keep
  // theirs. Other arrays of blocks lay their elements out one after another.
  const EShLanguage stage = ast_.getStage();
  const bool input = t.getQualifier().storage == glslang::EvqVaryingIn;
  const bool per_vertex = t.isArray() && !t.getQualifier().patch &&
                          (((stage == EShLangGeometry || stage == EShLangTessEvaluation) && input) ||
                           stage == EShLangTessControl);
  if (t.isArray() && (!per_vertex || t.getOuterArraySize() <= 0)) {
    unsupported(loc, "an array of blocks whose members differ in interpolation");
    return;
  }
  if (!block.location) {
    unsupported(loc, "a block without a location whose members differ in interpolation");
    return;
  }
  split_blocks.insert(s->getId());
  const std::string prefix(text(text(s->getName()).starts_with("anon@") ? t.getTypeName() : s->getName()));
  const ir::StorageClass storage =
      t.getQualifier().storage == glslang::EvqVaryingIn ? ir::StorageClass::Input : ir::StorageClass::Output;
  std::uint32_t location = *block.location;
  const glslang::TTypeList& members = *t.getStruct();
  for (std::size_t i = 0; i < members.size() && !failed_; ++i) {
    const TType& mt = *members[i].type;
    ir::TypeId vt = type(mt, loc);
    if (!vt.valid()) return;
    if (per_vertex) vt = module_.array_type(vt, static_cast<std::uint32_t>(t.getOuterArraySize()));
    ir::Decorations d = block;
    set_interpolation(d, mt.getQualifier());
    xfb_decorations(mt.getQualifier(), true, d);
    d.location = location;
    if (mt.getQualifier().hasComponent()) d.component = mt.getQualifier().layoutComponent;
    location += static_cast<std::uint32_t>(glslang::TIntermediate::computeTypeLocationSize(mt, ast_.getStage()));
    const ir::VariableId v = builder_.add_global(
        ir::Name{prefix + "_" + std::string(text(mt.getFieldName())), ir::NameSource::Internal}, vt, storage,
        precision(mt.getQualifier()), std::move(d));
    member_variables[static_cast<std::uint64_t>(s->getId()) * 1024 + i] = v;
  }
}

std::optional<Value> Translator::block_member(const TIntermBinary* node) {
  // `In[i].member` of a split per-vertex array of blocks: element i of the
  // member's array.
  if (const TIntermBinary* element = node->getLeft()->getAsBinaryNode();
      element && (element->getOp() == glslang::EOpIndexDirect || element->getOp() == glslang::EOpIndexIndirect)) {
    const TIntermSymbol* array = element->getLeft()->getAsSymbolNode();
    if (!array || !has_mixed_interpolation(array->getType())) return std::nullopt;
    if (!split_blocks.contains(array->getId())) global_variable(array);  // splits it
    if (failed_) return Value{};
    const TIntermConstantUnion* field = node->getRight()->getAsConstantUnion();
    const auto it = field ? member_variables.find(static_cast<std::uint64_t>(array->getId()) * 1024 +
                                                  static_cast<std::uint64_t>(field->getConstArray()[0].getIConst()))
                          : member_variables.end();
    if (it == member_variables.end()) {
      error(node->getLoc(), "internal error: a member of a split block without its variable");
      return Value{};
    }
    const ir::Operand i = rvalue(element->getRight());
    if (failed_) return Value{};
    locate(node);
    return Value::pointer(emit(ir::Opcode::AccessArrayElement, {ir::Operand(it->second), i}, node));
  }
  const TIntermSymbol* block = node->getLeft()->getAsSymbolNode();
  if (!block) return std::nullopt;
  if (has_mixed_interpolation(block->getType()) && !split_blocks.contains(block->getId())) {
    global_variable(block);  // splits it
    if (failed_) return Value{};
  }
  const bool split = split_blocks.contains(block->getId());
  if (!split && (!is_builtin_block(block->getType()) || is_whole_builtin_block(block->getType()))) return std::nullopt;
  const TIntermConstantUnion* index = node->getRight()->getAsConstantUnion();
  if (!index) return std::nullopt;
  const int member = index->getConstArray()[0].getIConst();
  const std::uint64_t key = static_cast<std::uint64_t>(block->getId()) * 1024 + static_cast<std::uint64_t>(member);
  if (auto it = member_variables.find(key); it != member_variables.end()) return Value::pointer(it->second);
  if (split) {
    error(node->getLoc(), "internal error: a member of a split block without its variable");
    return Value{};
  }
  const glslang::TTypeList& members = *block->getType().getStruct();
  if (member < 0 || static_cast<std::size_t>(member) >= members.size()) return std::nullopt;
  const TType& mt = *members[static_cast<std::size_t>(member)].type;
  const TQualifier& bq = block->getType().getQualifier();
  const char* b = builtin_name(mt.getQualifier().builtIn);
  auto storage = storage_class(block->getType(), options_.vulkan);
  if (!b || !storage) {
    unsupported(node->getLoc(), fmt::format("the built-in '{}'", text(mt.getFieldName())));
    return Value{};
  }
  const ir::TypeId vt = type(mt, node->getLoc());
  if (!vt.valid()) return Value{};
  ir::Decorations d = decorations_of(mt.getQualifier());
  // Captured built-ins: the block's buffer and stride, the member's offset.
  xfb_decorations(bq, false, d);
  xfb_decorations(mt.getQualifier(), true, d);
  d.built_in = b;
  d.invariant = d.invariant || bq.invariant;
  const ir::VariableId v = builder_.add_global(ir::Name{std::string(text(mt.getFieldName())), ir::NameSource::Internal},
                                               vt, *storage, precision(mt.getQualifier()), std::move(d));
  member_variables[key] = v;
  return Value::pointer(v);
}

}  // namespace sluice::glsl_in::detail
