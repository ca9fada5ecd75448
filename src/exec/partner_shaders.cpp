// GLSL text of the partner stages (partner_shaders.h), made from the
// checked shader's reflected interface. Every name the text declares
// starts with sluice_, so none clashes with another.
#include "exec/partner_shaders.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "exec/block_layout.h"
#include "exec/partner_values.h"
#include "exec/vulkan_error.h"

namespace sluice::exec {
namespace {

using Value = PartnerValue;

// The type of one vertex's value of a per-vertex array.
std::uint32_t per_vertex_element(const SpirvModule& m, std::uint32_t type) {
  return m.type(type).kind == SpirvType::Array ? m.type(type).element : type;
}

const char* kVersion = "#version 450\n";

// The inputs of the checked stage a feed must provide: per-vertex values
// (patch ones apart), or an error naming one it cannot make.
Result<bool> split_inputs(const SpirvModule& m, const ShaderInterface& iface, bool per_vertex,
                          std::vector<Value>& vertex_values, std::vector<Value>& patch_values) {
  for (const auto& in : iface.inputs) {
    const std::uint32_t type = per_vertex && !in.patch ? per_vertex_element(m, in.type) : in.type;
    auto values = partner_values(m, in, type);
    if (!values) return Error{"input " + values.error() + ", which the partner shaders cannot feed"};
    for (const Value& v : *values) (v.patch ? patch_values : vertex_values).push_back(v);
  }
  return true;
}

std::string feed_vertex_shader(const std::vector<Value>& values) {
  std::string s = kVersion;
  s += "layout(location = 0) in vec4 sluice_position;\n";
  for (const auto& v : values)
    s += fmt::format("{}out {} sluice_v{};\n", partner_layout(v), v.type, partner_suffix(v));
  s += "void main() {\n  gl_Position = sluice_position;\n";
  for (const auto& v : values)
    s += fmt::format("  sluice_v{} = {};\n", partner_suffix(v), partner_fed_value(v, "gl_VertexIndex"));
  return s + "}\n";
}

std::string pass_through_control_shader(const std::vector<Value>& values, const std::vector<Value>& patch_values) {
  std::string s = kVersion;
  s += "layout(vertices = 3) out;\n";
  for (const auto& v : values) {
    s += fmt::format("{}in {} sluice_v{}[];\n", partner_layout(v), v.type, partner_suffix(v));
    s += fmt::format("{}out {} sluice_o{}[];\n", partner_layout(v), v.type, partner_suffix(v));
  }
  for (const auto& v : patch_values)
    s += fmt::format("{}patch out {} sluice_p{};\n", partner_layout(v), v.type, partner_suffix(v));
  s += "void main() {\n  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;\n";
  for (const auto& v : values)
    s += fmt::format("  sluice_o{0}[gl_InvocationID] = sluice_v{0}[gl_InvocationID];\n", partner_suffix(v));
  for (const auto& v : patch_values)
    s += fmt::format("  sluice_p{} = {};\n", partner_suffix(v), partner_fed_value(v, "7"));
  s += "  for (int i = 0; i < 4; ++i) gl_TessLevelOuter[i] = 4.0;\n";
  s += "  gl_TessLevelInner[0] = 4.0;\n  gl_TessLevelInner[1] = 4.0;\n";
  return s + "}\n";
}

// Forwards the control shader's outputs to locations 0, 1, ... (`forwarded`
// gets them as the capture shader's inputs).
std::string forwarding_evaluation_shader(const std::vector<Value>& values, const std::vector<Value>& patch_values,
                                         std::vector<Value>& forwarded) {
  std::string s = kVersion;
  s += "layout(triangles, equal_spacing, ccw) in;\n";
  std::string body =
      "  const vec3 t = gl_TessCoord;\n"
      "  gl_Position = t.x * gl_in[0].gl_Position + t.y * gl_in[1].gl_Position + t.z * gl_in[2].gl_Position;\n";
  auto forward = [&](const Value& v, const std::string& expr) {
    Value f = v;
    f.location = static_cast<std::uint32_t>(forwarded.size());
    f.component = 0;
    s += fmt::format("{}{}out {} sluice_f{};\n", partner_layout(f), v.kind == ScalarKind::Float ? "" : "flat ", v.type,
                     f.location);
    body += fmt::format("  sluice_f{} = {};\n", f.location, expr);
    forwarded.push_back(f);
  };
  for (const auto& v : values) {
    s += fmt::format("{}in {} sluice_v{}[];\n", partner_layout(v), v.type, partner_suffix(v));
    const std::string n = "sluice_v" + partner_suffix(v);
    forward(v, v.kind == ScalarKind::Float ? fmt::format("t.x * {0}[0] + t.y * {0}[1] + t.z * {0}[2]", n)
                                           : fmt::format("{0}[0] + {0}[1] + {0}[2]", n));
  }
  for (const auto& v : patch_values) {
    s += fmt::format("{}patch in {} sluice_p{};\n", partner_layout(v), v.type, partner_suffix(v));
    forward(v, "sluice_p" + partner_suffix(v));
  }
  return s + "void main() {\n" + body + "}\n";
}

constexpr std::uint32_t kCapturedLocations = 7;  // 0-6; coverage takes the next free one

std::string capture_fragment_shader(const std::vector<Value>& values) {
  std::string s = kVersion;
  std::string body;
  std::uint32_t used = 0;
  for (const auto& v : values) {
    s += fmt::format("{}{}in {} sluice_i{};\n", partner_layout(v), v.kind == ScalarKind::Float ? "" : "flat ", v.type,
                     partner_suffix(v));
    s += fmt::format("{}out {} sluice_o{};\n", partner_layout(v), v.type, partner_suffix(v));
    body += fmt::format("  sluice_o{0} = sluice_i{0};\n", partner_suffix(v));
    used |= 1u << v.location;
  }
  std::uint32_t coverage = 0;
  while (used & (1u << coverage)) ++coverage;
  s += fmt::format("layout(location = {}) out vec4 sluice_coverage;\n", coverage);
  body += "  sluice_coverage = vec4(gl_FragCoord.xy, 0.0, 1.0);\n";
  return s + "void main() {\n" + body + "}\n";
}

// The outputs of the checked stage the capture shader can take.
std::vector<Value> capturable(const SpirvModule& m, const std::vector<StageVariable>& outputs, bool per_vertex,
                              std::vector<std::string>& uncaptured) {
  std::vector<Value> out;
  for (const auto& o : outputs) {
    const auto values = partner_values(m, o, per_vertex && !o.patch ? per_vertex_element(m, o.type) : o.type);
    if (!values) {
      uncaptured.push_back(o.name.empty() ? fmt::format("location {}", o.location) : o.name);
      continue;
    }
    // A block's members one by one; matrices and doubles take no colour
    // attachment.
    for (const Value& v : *values)
      if (!v.columns && !v.wide && v.location < kCapturedLocations)
        out.push_back(v);
      else
        uncaptured.push_back(v.name.empty() ? fmt::format("location {}", v.location) : v.name);
  }
  return out;
}

}  // namespace

Result<PartnerShaders> partner_shaders(const SpirvModule& checked, ShaderStage stage) {
  auto reflected = reflect_interface(checked, stage);
  if (!reflected) return reflected.failure();
  const ShaderInterface& iface = *reflected;
  PartnerShaders out;
  std::vector<Value> vertex_values, patch_values;
  switch (stage) {
    case ShaderStage::Vertex: {
      // The runner feeds 32-bit scalar and vector attributes only.
      SLUICE_TRY(split_inputs(checked, iface, false, vertex_values, patch_values));
      const auto captured = capturable(checked, iface.outputs, false, out.uncaptured);
      out.stages = {{ShaderStage::Vertex, ""}, {ShaderStage::Fragment, capture_fragment_shader(captured)}};
      out.checked = 0;
      return out;
    }
    case ShaderStage::Geometry: {
      SLUICE_TRY(split_inputs(checked, iface, true, vertex_values, patch_values));
      const auto captured = capturable(checked, iface.outputs, false, out.uncaptured);
      out.stages = {{ShaderStage::Vertex, feed_vertex_shader(vertex_values)},
                    {ShaderStage::Geometry, ""},
                    {ShaderStage::Fragment, capture_fragment_shader(captured)}};
      out.checked = 1;
      return out;
    }
    case ShaderStage::TessEvaluation: {
      SLUICE_TRY(split_inputs(checked, iface, true, vertex_values, patch_values));
      const auto captured = capturable(checked, iface.outputs, false, out.uncaptured);
      out.stages = {{ShaderStage::Vertex, feed_vertex_shader(vertex_values)},
                    {ShaderStage::TessControl, pass_through_control_shader(vertex_values, patch_values)},
                    {ShaderStage::TessEvaluation, ""},
                    {ShaderStage::Fragment, capture_fragment_shader(captured)}};
      out.checked = 2;
      return out;
    }
    case ShaderStage::TessControl: {
      SLUICE_TRY(split_inputs(checked, iface, true, vertex_values, patch_values));
      std::vector<Value> outs, patch_outs;
      for (const auto& v : capturable(checked, iface.outputs, true, out.uncaptured))
        (v.patch ? patch_outs : outs).push_back(v);
      std::vector<Value> forwarded;
      std::string evaluation = forwarding_evaluation_shader(outs, patch_outs, forwarded);
      // The forwarded values past the captured locations are left out.
      while (forwarded.size() > kCapturedLocations) {
        out.uncaptured.push_back(forwarded.back().name);
        forwarded.pop_back();
      }
      out.stages = {{ShaderStage::Vertex, feed_vertex_shader(vertex_values)},
                    {ShaderStage::TessControl, ""},
                    {ShaderStage::TessEvaluation, std::move(evaluation)},
                    {ShaderStage::Fragment, capture_fragment_shader(forwarded)}};
      out.checked = 1;
      return out;
    }
    default: break;
  }
  return Error{fmt::format("partner shaders are made for vertex, geometry and tessellation shaders, not {}",
                           shader_stage_name(stage))};
}

}  // namespace sluice::exec
