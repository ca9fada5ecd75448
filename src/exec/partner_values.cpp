// Flattening an interface variable into the values a partner stage
// declares (partner_values.h). Locations follow SPIR-V spec 2.16.2
// ("Location Assignment"): a block member without its own Location takes
// the next location after the previous member, a scalar or vector one (a
// dvec3 or dvec4 two), a matrix one per column.
#include "exec/partner_values.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

namespace sluice::exec {
namespace {

// A 32-bit scalar, vector or float matrix, located later.
std::optional<PartnerValue> leaf(const SpirvModule& m, std::uint32_t type) {
  const SpirvType& t = m.type(type);
  PartnerValue out;
  if (t.kind == SpirvType::Matrix) {
    const ScalarVector column = scalar_vector(m, t.element);
    if (column.kind != ScalarKind::Float || column.bytes != 4 || column.components < 2 || column.components > 4 ||
        t.count < 2 || t.count > 4)
      return std::nullopt;
    out.columns = t.count;
    out.rows = column.components;
    out.type = t.count == column.components ? fmt::format("mat{}", t.count)
                                            : fmt::format("mat{}x{}", t.count, column.components);
    return out;
  }
  if (t.kind != SpirvType::Float && t.kind != SpirvType::Int && t.kind != SpirvType::Vector) return std::nullopt;
  const ScalarVector sv = scalar_vector(m, type);
  out.wide = sv.kind == ScalarKind::Float && sv.bytes == 8;
  if (sv.components == 0 || sv.components > 4 || (sv.bytes != 4 && !out.wide) || sv.kind == ScalarKind::Bool)
    return std::nullopt;
  const char* scalar_name = out.wide                     ? "double"
                            : sv.kind == ScalarKind::Int  ? "int"
                            : sv.kind == ScalarKind::Uint ? "uint"
                                                          : "float";
  const char* prefix = out.wide ? "d" : sv.kind == ScalarKind::Int ? "i" : sv.kind == ScalarKind::Uint ? "u" : "";
  out.type = sv.components == 1 ? std::string(scalar_name) : fmt::format("{}vec{}", prefix, sv.components);
  out.kind = sv.kind;
  out.rows = sv.components;
  return out;
}

}  // namespace

Result<std::vector<PartnerValue>> partner_values(const SpirvModule& m, const StageVariable& v, std::uint32_t type) {
  const SpirvType& t = m.type(type);
  const std::string name = v.name.empty() ? fmt::format("location {}", v.location) : "'" + v.name + "'";
  if (t.kind != SpirvType::Struct) {
    auto value = leaf(m, type);
    if (!value)
      return Error{fmt::format("{} (location {}) is not a 32-bit scalar, vector or float matrix, a double scalar or "
                               "vector, or a block of them",
                               name, v.location)};
    value->location = v.location;
    value->component = v.component;
    value->patch = v.patch;
    value->name = v.name;
    return std::vector<PartnerValue>{*value};
  }
  std::vector<PartnerValue> out;
  std::uint32_t next = v.location;
  for (std::uint32_t i = 0; i < t.members.size(); ++i) {
    auto value = leaf(m, t.members[i]);
    if (!value)
      return Error{fmt::format("{} (location {}): member {} is not a 32-bit scalar, vector or float matrix or a "
                               "double scalar or vector",
                               name, v.location, i)};
    const SpirvDecorations& d = m.member_decorations(type, i);
    value->location = d.location.value_or(next);
    value->component = d.component.value_or(0);
    value->patch = v.patch || d.patch;
    value->name = fmt::format("{}.{}", v.name.empty() ? m.name(type) : v.name, i);
    next = value->location + (value->columns ? value->columns : value->wide && value->rows > 2 ? 2 : 1);
    out.push_back(std::move(*value));
  }
  return out;
}

std::string partner_layout(const PartnerValue& v) {
  return v.component ? fmt::format("layout(location = {}, component = {}) ", v.location, v.component)
                     : fmt::format("layout(location = {}) ", v.location);
}

std::string partner_suffix(const PartnerValue& v) { return fmt::format("{}_{}", v.location, v.component); }

std::string partner_fed_value(const PartnerValue& v, const std::string& vertex) {
  if (v.columns) {
    std::string elements;
    for (std::uint32_t k = 0; k < v.columns * v.rows; ++k)
      elements += fmt::format("{}0.25 * float({}) + {}", k ? ", " : "", vertex, 0.125 * v.location + 0.0625 + k / 64.0);
    return fmt::format("{}({})", v.type, elements);
  }
  switch (v.kind) {
    case ScalarKind::Int: return fmt::format("{}({} + {})", v.type, vertex, v.location + 1);
    case ScalarKind::Uint: return fmt::format("{}(uint({} + {}))", v.type, vertex, v.location + 1);
    default:
      return fmt::format("{}(0.25 * {}({}) + {})", v.type, v.wide ? "double" : "float", vertex,
                         0.125 * v.location + 0.0625);
  }
}

}  // namespace sluice::exec
