#include "ir/type.h"

#include <array>
#include <functional>
#include <string_view>

#include "ir/constant.h"
#include "ir/variable.h"

namespace sluice::ir {
namespace {

void combine(std::size_t& seed, std::size_t v) { seed ^= v + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2); }

constexpr std::array<std::string_view, 9> kStorageNames = {
    "Function", "Private", "Input", "Output", "Uniform", "StorageBuffer", "PushConstant", "UniformConstant",
    "Workgroup"};
constexpr std::array<std::string_view, 7> kDimNames = {"1D", "2D", "3D", "Cube", "Rect", "Buffer", "SubpassData"};

}  // namespace

std::size_t hash_value(const Type& t) {
  std::size_t h = static_cast<std::size_t>(t.kind);
  combine(h, static_cast<std::size_t>(t.scalar));
  combine(h, t.width);
  combine(h, t.element.index());
  combine(h, t.count);
  combine(h, t.length.index());
  combine(h, static_cast<std::size_t>(t.storage));
  combine(h, std::hash<std::string>{}(t.name));
  for (const auto& m : t.members) {
    combine(h, m.type.index());
    combine(h, std::hash<std::string>{}(m.name));
    combine(h, static_cast<std::size_t>(m.precision));
  }
  combine(h, static_cast<std::size_t>(t.image.dim));
  combine(h, static_cast<std::size_t>(t.image.sampled_type));
  return h;
}

std::size_t hash_value(const Constant& c) {
  std::size_t h = c.type.index();
  combine(h, c.bits);
  combine(h, c.high_bits);
  for (auto id : c.components) combine(h, id.index());
  combine(h, c.spec_id ? *c.spec_id + 1 : 0);
  combine(h, static_cast<std::size_t>(c.spec_op));
  for (auto id : c.operands) combine(h, id.index());
  return h;
}

namespace {
constexpr const char* kSpecOpNames[] = {"None", "CompositeExtract", "IAdd", "ISub", "IMul", "UDiv", "SDiv"};
}

const char* to_string(SpecOp op) { return kSpecOpNames[static_cast<std::size_t>(op)]; }

std::optional<SpecOp> spec_op_from_string(std::string_view s) {
  for (std::size_t i = 1; i < std::size(kSpecOpNames); ++i)
    if (s == kSpecOpNames[i]) return static_cast<SpecOp>(i);
  return std::nullopt;
}

const char* to_string(ScalarKind s) {
  switch (s) {
    case ScalarKind::Float: return "float";
    case ScalarKind::Int: return "int";
    case ScalarKind::Uint: return "uint";
    case ScalarKind::Bool: return "bool";
  }
  return "?";
}

const char* to_string(StorageClass s) { return kStorageNames[static_cast<std::size_t>(s)].data(); }
const char* to_string(ImageDim d) { return kDimNames[static_cast<std::size_t>(d)].data(); }

const char* to_string(BlockLayout l) {
  switch (l) {
    case BlockLayout::None: return "none";
    case BlockLayout::Std140: return "std140";
    case BlockLayout::Std430: return "std430";
  }
  return "?";
}

std::optional<StorageClass> storage_class_from_string(std::string_view s) {
  for (std::size_t i = 0; i < kStorageNames.size(); ++i)
    if (kStorageNames[i] == s) return static_cast<StorageClass>(i);
  return std::nullopt;
}

std::optional<ImageDim> image_dim_from_string(std::string_view s) {
  for (std::size_t i = 0; i < kDimNames.size(); ++i)
    if (kDimNames[i] == s) return static_cast<ImageDim>(i);
  return std::nullopt;
}

const char* to_string(Precision p) {
  switch (p) {
    case Precision::None: return "";
    case Precision::Low: return "lowp";
    case Precision::Medium: return "mediump";
    case Precision::High: return "highp";
  }
  return "?";
}

const char* to_string(ParamDirection d) {
  switch (d) {
    case ParamDirection::In: return "in";
    case ParamDirection::Out: return "out";
    case ParamDirection::InOut: return "inout";
  }
  return "?";
}

const char* to_string(NameSource s) {
  switch (s) {
    case NameSource::Interface: return "interface";
    case NameSource::Internal: return "internal";
    case NameSource::Temporary: return "temporary";
  }
  return "?";
}

}  // namespace sluice::ir
