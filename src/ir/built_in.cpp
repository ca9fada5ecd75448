// The built-in table. Availability follows GLSL 4.60 §7.1 and GLSL ES 3.20
// §7.1 (ES 3.10 lacks the geometry and tessellation built-ins' stages, the
// sample variables and the clip and cull distances), and for the NVIDIA
// ones the extensions' specifications (GL_NV_viewport_array2,
// GL_NV_stereo_view_rendering, GL_NVX_multiview_per_view_attributes), whose
// SPIR-V counterparts are the same-named SPV_ extensions.
#include "ir/built_in.h"

#include <algorithm>

#include <spirv/unified1/spirv.hpp11>

namespace sluice::ir {
namespace {

constexpr std::uint32_t n(spv::BuiltIn b) { return static_cast<std::uint32_t>(b); }
using K = BuiltInType::Kind;

constexpr BuiltInInfo kBuiltIns[] = {
    {"Position", n(spv::BuiltIn::Position), "gl_Position", "", true, "", {K::Float, 4}},
    {"PointSize", n(spv::BuiltIn::PointSize), "gl_PointSize", "", true, "", {K::Float, 1}},
    {"ClipDistance", n(spv::BuiltIn::ClipDistance), "gl_ClipDistance", "", false, "", {K::Float, 1, true}},
    {"CullDistance", n(spv::BuiltIn::CullDistance), "gl_CullDistance", "", false, "", {K::Float, 1, true}},
    {"VertexId", n(spv::BuiltIn::VertexId), "gl_VertexID", "", true, "", {K::Integer, 1}},
    {"InstanceId", n(spv::BuiltIn::InstanceId), "gl_InstanceID", "", true, "", {K::Integer, 1}},
    {"VertexIndex", n(spv::BuiltIn::VertexIndex), "gl_VertexIndex", "", true, "", {K::Integer, 1}},
    {"InstanceIndex", n(spv::BuiltIn::InstanceIndex), "gl_InstanceIndex", "", true, "", {K::Integer, 1}},
    {"BaseVertex", n(spv::BuiltIn::BaseVertex), "gl_BaseVertexARB", "GL_ARB_shader_draw_parameters", false, "",
     {K::Integer, 1}},
    {"BaseInstance", n(spv::BuiltIn::BaseInstance), "gl_BaseInstanceARB", "GL_ARB_shader_draw_parameters", false,
     "", {K::Integer, 1}},
    {"DrawIndex", n(spv::BuiltIn::DrawIndex), "gl_DrawIDARB", "GL_ARB_shader_draw_parameters", false, "",
     {K::Integer, 1}},
    {"PrimitiveId", n(spv::BuiltIn::PrimitiveId), "gl_PrimitiveID", "", false, "GL_EXT_geometry_shader",
     {K::Integer, 1}},
    {"InvocationId", n(spv::BuiltIn::InvocationId), "gl_InvocationID", "", true, "", {K::Integer, 1}},
    {"Layer", n(spv::BuiltIn::Layer), "gl_Layer", "", false, "GL_EXT_geometry_shader", {K::Integer, 1}},
    {"ViewportIndex", n(spv::BuiltIn::ViewportIndex), "gl_ViewportIndex", "", false, "", {K::Integer, 1}},
    {"FragCoord", n(spv::BuiltIn::FragCoord), "gl_FragCoord", "", true, "", {K::Float, 4}},
    {"PointCoord", n(spv::BuiltIn::PointCoord), "gl_PointCoord", "", true, "", {K::Float, 2}},
    {"FrontFacing", n(spv::BuiltIn::FrontFacing), "gl_FrontFacing", "", true, "", {K::Bool, 1}},
    {"SampleId", n(spv::BuiltIn::SampleId), "gl_SampleID", "", false, "GL_OES_sample_variables", {K::Integer, 1}},
    {"SamplePosition", n(spv::BuiltIn::SamplePosition), "gl_SamplePosition", "", false, "GL_OES_sample_variables",
     {K::Float, 2}},
    {"SampleMask", n(spv::BuiltIn::SampleMask), "gl_SampleMask", "", false, "GL_OES_sample_variables",
     {K::Integer, 1, true}},
    {"FragDepth", n(spv::BuiltIn::FragDepth), "gl_FragDepth", "", true, "", {K::Float, 1}},
    {"HelperInvocation", n(spv::BuiltIn::HelperInvocation), "gl_HelperInvocation", "", true, "", {K::Bool, 1}},
    {"NumWorkgroups", n(spv::BuiltIn::NumWorkgroups), "gl_NumWorkGroups", "", true, "", {K::Integer, 3}},
    {"WorkgroupSize", n(spv::BuiltIn::WorkgroupSize), "gl_WorkGroupSize", "", true, "", {K::Integer, 3}},
    {"WorkgroupId", n(spv::BuiltIn::WorkgroupId), "gl_WorkGroupID", "", true, "", {K::Integer, 3}},
    {"LocalInvocationId", n(spv::BuiltIn::LocalInvocationId), "gl_LocalInvocationID", "", true, "", {K::Integer, 3}},
    {"GlobalInvocationId", n(spv::BuiltIn::GlobalInvocationId), "gl_GlobalInvocationID", "", true, "", {K::Integer, 3}},
    {"LocalInvocationIndex", n(spv::BuiltIn::LocalInvocationIndex), "gl_LocalInvocationIndex", "", true, "",
     {K::Integer, 1}},
    {"ViewIndex", n(spv::BuiltIn::ViewIndex), "gl_ViewIndex", "GL_EXT_multiview", true, "", {K::Integer, 1}},
    {"SubgroupSize", n(spv::BuiltIn::SubgroupSize), "gl_SubgroupSize", "GL_KHR_shader_subgroup_basic", true, "",
     {K::Integer, 1}},
    {"SubgroupLocalInvocationId", n(spv::BuiltIn::SubgroupLocalInvocationId), "gl_SubgroupInvocationID",
     "GL_KHR_shader_subgroup_basic", true, "", {K::Integer, 1}},
    {"NumSubgroups", n(spv::BuiltIn::NumSubgroups), "gl_NumSubgroups", "GL_KHR_shader_subgroup_basic", true, ""},
    {"SubgroupId", n(spv::BuiltIn::SubgroupId), "gl_SubgroupID", "GL_KHR_shader_subgroup_basic", true, ""},
    // Geometry and tessellation: GLSL ES has them with the stage's
    // extension, which the GLSL output's header names for the whole shader.
    {"PatchVertices", n(spv::BuiltIn::PatchVertices), "gl_PatchVerticesIn", "", true, "", {K::Integer, 1}},
    {"TessLevelOuter", n(spv::BuiltIn::TessLevelOuter), "gl_TessLevelOuter", "", true, "", {K::Float, 1, true, 4}},
    {"TessLevelInner", n(spv::BuiltIn::TessLevelInner), "gl_TessLevelInner", "", true, "", {K::Float, 1, true, 2}},
    {"TessCoord", n(spv::BuiltIn::TessCoord), "gl_TessCoord", "", true, "", {K::Float, 3}},
    // NVIDIA: per-viewport masks, the second view of stereo rendering and
    // the per-view attributes of multiview (desktop GLSL only).
    {"ViewportMaskNV", n(spv::BuiltIn::ViewportMaskNV), "gl_ViewportMask", "GL_NV_viewport_array2", false, ""},
    {"SecondaryPositionNV", n(spv::BuiltIn::SecondaryPositionNV), "gl_SecondaryPositionNV",
     "GL_NV_stereo_view_rendering", false, ""},
    {"SecondaryViewportMaskNV", n(spv::BuiltIn::SecondaryViewportMaskNV), "gl_SecondaryViewportMaskNV",
     "GL_NV_stereo_view_rendering", false, ""},
    {"PositionPerViewNV", n(spv::BuiltIn::PositionPerViewNV), "gl_PositionPerViewNV",
     "GL_NVX_multiview_per_view_attributes", false, ""},
    {"ViewportMaskPerViewNV", n(spv::BuiltIn::ViewportMaskPerViewNV), "gl_ViewportMaskPerViewNV",
     "GL_NVX_multiview_per_view_attributes", false, ""},
};

}  // namespace

std::span<const BuiltInInfo> built_ins() { return kBuiltIns; }

const BuiltInInfo* find_built_in(std::string_view name) {
  const auto it = std::find_if(std::begin(kBuiltIns), std::end(kBuiltIns), [&](const BuiltInInfo& b) { return b.name == name; });
  return it == std::end(kBuiltIns) ? nullptr : &*it;
}

const BuiltInInfo* find_built_in_spirv(std::uint32_t spirv) {
  const auto it =
      std::find_if(std::begin(kBuiltIns), std::end(kBuiltIns), [&](const BuiltInInfo& b) { return b.spirv == spirv; });
  return it == std::end(kBuiltIns) ? nullptr : &*it;
}

// The types of the built-ins (built_in.h).
namespace {

using Kind = BuiltInType::Kind;

std::string describe(const BuiltInType& s) {
  std::string element = s.kind == Kind::Float ? "32-bit float" : s.kind == Kind::Integer ? "32-bit integer" : "bool";
  std::string what = s.components == 1 ? "a " + element : "a " + std::to_string(s.components) + "-component vector of " +
                                                              element + "s";
  if (!s.array) return what;
  return (s.length ? "an array of " + std::to_string(s.length) + " " : "an array of ") + what.substr(2) + "s";
}

bool scalar_fits(Kind k, ScalarKind s) {
  switch (k) {
    case Kind::Float: return s == ScalarKind::Float;
    case Kind::Integer: return s == ScalarKind::Int || s == ScalarKind::Uint;
    case Kind::Bool: return s == ScalarKind::Bool;
    case Kind::None: return true;
  }
  return false;
}

bool fits(const Module& m, const BuiltInType& s, TypeId t) {
  if (!t.valid() || t.index() >= m.type_count()) return false;
  const Type* ty = &m.type(t);
  if (s.array) {
    if (ty->kind != TypeKind::Array && ty->kind != TypeKind::UnsizedArray) return false;
    if (s.length && (ty->kind != TypeKind::Array || ty->count != s.length)) return false;
    if (!ty->element.valid() || ty->element.index() >= m.type_count()) return false;
    ty = &m.type(ty->element);
  }
  if (s.components == 1) return ty->kind == TypeKind::Scalar && scalar_fits(s.kind, ty->scalar);
  if (ty->kind != TypeKind::Vector || ty->count != s.components) return false;
  if (!ty->element.valid() || ty->element.index() >= m.type_count()) return false;
  const Type& e = m.type(ty->element);
  return e.kind == TypeKind::Scalar && scalar_fits(s.kind, e.scalar);
}

}  // namespace

std::optional<std::string> built_in_type_problem(const Module& m, std::string_view name, TypeId t) {
  const BuiltInInfo* b = find_built_in(name);
  if (!b || b->type.kind == Kind::None) return std::nullopt;
  return fits(m, b->type, t) ? std::nullopt : std::optional<std::string>(describe(b->type));
}

}  // namespace sluice::ir
