// Generation of the pass-through vertex shader (see vertex_shader.h) and a
// SPIRV-Tools assembler wrapper.
#include "exec/vertex_shader.h"

#include <set>
#include <sstream>

#include <fmt/format.h>
#include <spirv-tools/libspirv.hpp>

namespace sluice::exec {
namespace {

class VertexShaderWriter {
 public:
  explicit VertexShaderWriter(const SpirvModule& m) : m_(m) {}

  Result<std::string> build(const ShaderInterface& iface) {
    std::string interface_ids = "%pos_in %pos_out";
    for (const auto& input : iface.inputs) {
      auto type = declare_type(input.type);
      if (!type) return type;
      const std::string var = fmt::format("%out{}", input.variable_id);
      types_ << fmt::format("%ptr_out{} = OpTypePointer Output {}\n{} = OpVariable %ptr_out{} Output\n",
                            input.variable_id, *type, var, input.variable_id);
      const auto& d = m_.decorations(input.variable_id);
      if (d.location) decorations_ << fmt::format("OpDecorate {} Location {}\n", var, *d.location);
      if (d.component) decorations_ << fmt::format("OpDecorate {} Component {}\n", var, *d.component);
      // Numbered from the location, not by position in the list: a variant
      // that leaves an unused input out (remove-unused-interface), or splits
      // a block into its members, feeds the others the same values.
      auto value = emit_value(input.type, d.flat, d.location.value_or(0), d.component.value_or(0));
      if (!value) return value;
      body_ << fmt::format("OpStore {} {}\n", var, *value);
      interface_ids += " " + var;
    }
    std::ostringstream out;
    out << "OpCapability Shader\n";
    if (float64_) out << "OpCapability Float64\n";
    if (int64_) out << "OpCapability Int64\n";
    out << "OpMemoryModel Logical GLSL450\n"
        << "OpEntryPoint Vertex %main \"main\" " << interface_ids << "\n"
        << "OpDecorate %pos_in Location 0\nOpDecorate %pos_out BuiltIn Position\n"
        << decorations_.str()
        << "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%f32 = OpTypeFloat 32\n%u32 = OpTypeInt 32 0\n"
           "%v2f32 = OpTypeVector %f32 2\n%v4f32 = OpTypeVector %f32 4\n"
           "%ptr_in_v2 = OpTypePointer Input %v2f32\n%ptr_out_v4 = OpTypePointer Output %v4f32\n"
           "%pos_in = OpVariable %ptr_in_v2 Input\n%pos_out = OpVariable %ptr_out_v4 Output\n"
           "%c_0 = OpConstant %f32 0\n%c_half = OpConstant %f32 0.5\n%c_1 = OpConstant %f32 1\n"
        << types_.str()
        << "%main = OpFunction %void None %fn\n%entry = OpLabel\n"
           "%p = OpLoad %v2f32 %pos_in\n%px = OpCompositeExtract %f32 %p 0\n%py = OpCompositeExtract %f32 %p 1\n"
           "%hx = OpFMul %f32 %px %c_half\n%u = OpFAdd %f32 %hx %c_half\n"
           "%hy = OpFMul %f32 %py %c_half\n%v = OpFAdd %f32 %hy %c_half\n"
           "%p4 = OpCompositeConstruct %v4f32 %px %py %c_0 %c_1\nOpStore %pos_out %p4\n"
        << body_.str() << "OpReturn\nOpFunctionEnd\n";
    return out.str();
  }

 private:
  // Declares the type (once) and returns its assembly name. Scalars, vectors
  // and matrices get structural names because SPIR-V forbids duplicates of
  // them; arrays and structs are named after the fragment shader's ids.
  Result<std::string> declare_type(uint32_t id) {
    const SpirvType& t = m_.type(id);
    std::string name, decl;
    switch (t.kind) {
      case SpirvType::Float:
        if (t.width != 32 && t.width != 64) return Error{"16-bit fragment inputs are not supported by the runner"};
        name = fmt::format("%f{}", t.width);
        decl = fmt::format("OpTypeFloat {}", t.width);
        float64_ |= t.width == 64;
        break;
      case SpirvType::Int:
        if (t.width != 32 && t.width != 64) return Error{"16-bit fragment inputs are not supported by the runner"};
        name = fmt::format("%{}{}", t.is_signed ? 'i' : 'u', t.width);
        decl = fmt::format("OpTypeInt {} {}", t.width, t.is_signed ? 1 : 0);
        int64_ |= t.width == 64;
        break;
      case SpirvType::Vector:
      case SpirvType::Matrix: {
        auto element = declare_type(t.element);
        if (!element) return element;
        name = fmt::format("%{}{}{}", t.kind == SpirvType::Vector ? 'v' : 'm', t.count, element->substr(1));
        decl = fmt::format("{} {} {}", t.kind == SpirvType::Vector ? "OpTypeVector" : "OpTypeMatrix", *element,
                           t.count);
        break;
      }
      case SpirvType::Array: {
        auto element = declare_type(t.element);
        if (!element) return element;
        name = fmt::format("%arr{}", id);
        if (!declared_.count(name)) types_ << fmt::format("%len{} = OpConstant %u32 {}\n", id, t.count);
        decl = fmt::format("OpTypeArray {} %len{}", *element, id);
        break;
      }
      case SpirvType::Struct: {
        name = fmt::format("%st{}", id);
        decl = "OpTypeStruct";
        for (uint32_t i = 0; i < t.members.size(); ++i) {
          auto member = declare_type(t.members[i]);
          if (!member) return member;
          decl += " " + *member;
          const auto& md = m_.member_decorations(id, i);
          if (md.location && !declared_.count(name))
            decorations_ << fmt::format("OpMemberDecorate {} {} Location {}\n", name, i, *md.location);
          if (md.component && !declared_.count(name))
            decorations_ << fmt::format("OpMemberDecorate {} {} Component {}\n", name, i, *md.component);
        }
        if (m_.decorations(id).block && !declared_.count(name)) decorations_ << "OpDecorate " << name << " Block\n";
        break;
      }
      default:
        return Error{"a fragment input has a type the runner's vertex shader cannot produce"};
    }
    if (!declared_.count(name) && name != "%f32" && name != "%u32" && name != "%v2f32" && name != "%v4f32")
      types_ << name << " = " << decl << "\n";
    declared_.insert(name);
    return name;
  }

  std::string fresh() { return fmt::format("%x{}", next_id_++); }

  std::string constant(const std::string& type, const std::string& literal) {
    const std::string id = fresh();
    types_ << fmt::format("{} = OpConstant {} {}\n", id, type, literal);
    return id;
  }

  // Locations a value of type `id` occupies (Vulkan "Location
  // Assignment": a 64-bit three- or four-component vector takes two, a
  // matrix one per column, an array or struct the sum of its elements).
  uint32_t locations(uint32_t id) const {
    const SpirvType& t = m_.type(id);
    switch (t.kind) {
      case SpirvType::Vector: return m_.type(t.element).width == 64 && t.count > 2 ? 2 : 1;
      case SpirvType::Matrix:
      case SpirvType::Array: return t.count * locations(t.element);
      case SpirvType::Struct: {
        uint32_t n = 0;
        for (uint32_t member : t.members) n += locations(member);
        return n;
      }
      default: return 1;
    }
  }

  // Emits instructions computing the pattern value of a whole input at
  // `location`, `component`: scalar n = 4 * location + component, the
  // components of a vector counting on; a matrix column, an array element
  // or a struct member starts at its own location.
  Result<std::string> emit_value(uint32_t id, bool flat, uint32_t location, uint32_t component) {
    const SpirvType& t = m_.type(id);
    auto type = declare_type(id);
    if (!type) return type;
    if (t.kind == SpirvType::Float || t.kind == SpirvType::Int) {
      const uint32_t n = 4 * location + component;
      if (t.kind == SpirvType::Int) return constant(*type, std::to_string(n + 1));
      if (flat || t.width == 64) return constant(*type, fmt::format("{}", 0.25 * (n + 1)));
      const std::string k = constant(*type, fmt::format("{}", 0.25 * (n / 2)));
      const std::string v = fresh();
      body_ << fmt::format("{} = OpFAdd %f32 {} {}\n", v, n % 2 == 0 ? "%u" : "%v", k);
      return v;
    }
    std::vector<std::string> parts;
    if (t.kind == SpirvType::Struct) {
      uint32_t next = location;
      for (uint32_t i = 0; i < t.members.size(); ++i) {
        const auto& md = m_.member_decorations(id, i);
        const uint32_t at = md.location.value_or(next);
        auto part = emit_value(t.members[i], flat || md.flat, at, md.location ? md.component.value_or(0) : 0);
        if (!part) return part;
        parts.push_back(*part);
        next = at + locations(t.members[i]);
      }
    } else if (t.kind == SpirvType::Vector) {
      for (uint32_t i = 0; i < t.count; ++i) {
        // Components past the fourth (a 64-bit vector's) spill into the next location.
        const uint32_t c = component + i;
        auto part = emit_value(t.element, flat, location + c / 4, c % 4);
        if (!part) return part;
        parts.push_back(*part);
      }
    } else {
      const uint32_t stride = locations(t.element);
      for (uint32_t i = 0; i < t.count; ++i) {
        auto part = emit_value(t.element, flat, location + i * stride, 0);
        if (!part) return part;
        parts.push_back(*part);
      }
    }
    const std::string v = fresh();
    body_ << v << " = OpCompositeConstruct " << *type;
    for (const auto& p : parts) body_ << " " << p;
    body_ << "\n";
    return v;
  }

  const SpirvModule& m_;
  std::ostringstream types_, decorations_, body_;
  std::set<std::string> declared_;
  uint32_t next_id_ = 0;
  bool float64_ = false, int64_ = false;
};

spv_target_env env_for(uint32_t version) {
  switch (version) {
    case 0x00010000: return SPV_ENV_UNIVERSAL_1_0;
    case 0x00010100: return SPV_ENV_UNIVERSAL_1_1;
    case 0x00010200: return SPV_ENV_UNIVERSAL_1_2;
    case 0x00010300: return SPV_ENV_UNIVERSAL_1_3;
    case 0x00010400: return SPV_ENV_UNIVERSAL_1_4;
    case 0x00010500: return SPV_ENV_UNIVERSAL_1_5;
    default: return SPV_ENV_UNIVERSAL_1_6;
  }
}

}  // namespace

Result<std::string> vertex_shader_assembly(const SpirvModule& fragment, const ShaderInterface& fragment_iface) {
  VertexShaderWriter writer(fragment);
  return writer.build(fragment_iface);
}

Result<std::vector<uint32_t>> assemble_spirv(const std::string& text, uint32_t spirv_version) {
  spvtools::SpirvTools tools(env_for(spirv_version));
  std::string messages;
  tools.SetMessageConsumer([&messages](spv_message_level_t, const char*, const spv_position_t& pos, const char* msg) {
    messages += fmt::format("line {}: {}\n", pos.line + 1, msg);
  });
  std::vector<uint32_t> binary;
  if (!tools.Assemble(text, &binary, SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS))
    return Error{"SPIR-V assembly failed: " + messages};
  return binary;
}

}  // namespace sluice::exec
