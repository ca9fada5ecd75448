// Parses the global section of a SPIR-V binary for SpirvModule. Function
// bodies are skipped: nothing the runner needs lives there.
#include "exec/spirv_module.h"

#include <algorithm>

#include <fmt/format.h>

namespace sluice::exec {
namespace {

constexpr uint32_t kMagic = 0x07230203;

enum Op : uint32_t {
  OpName = 5, OpEntryPoint = 15, OpExecutionMode = 16, OpCapability = 17, OpTypeVoid = 19, OpTypeBool = 20,
  OpTypeInt = 21, OpTypeFloat = 22, OpTypeVector = 23, OpTypeMatrix = 24, OpTypeImage = 25, OpTypeSampler = 26,
  OpTypeSampledImage = 27, OpTypeArray = 28, OpTypeRuntimeArray = 29, OpTypeStruct = 30, OpTypePointer = 32,
  OpConstant = 43, OpSpecConstant = 50, OpFunction = 54, OpVariable = 59, OpDecorate = 71, OpMemberDecorate = 72,
  OpExecutionModeId = 331
};

enum Decoration : uint32_t {
  Block = 2, BufferBlock = 3, RowMajor = 4, ArrayStride = 6, MatrixStride = 7, BuiltIn = 11, NoPerspective = 13,
  Flat = 14, Patch = 15, Centroid = 16, Sample = 17, Location = 30, Component = 31, Index = 32, Binding = 33,
  DescriptorSet = 34, Offset = 35
};

constexpr uint32_t kLocalSize = 17;

// A literal string starting at words[0]; `used` gets the words it occupies.
std::string read_string(std::span<const uint32_t> words, size_t& used) {
  std::string s;
  for (used = 0; used < words.size(); ++used) {
    const uint32_t w = words[used];
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((w >> (8 * b)) & 0xff);
      if (c == 0) {
        ++used;
        return s;
      }
      s.push_back(c);
    }
  }
  return s;
}

void apply_decoration(SpirvDecorations& d, std::span<const uint32_t> operands) {
  if (operands.empty()) return;
  const uint32_t value = operands.size() > 1 ? operands[1] : 0;
  switch (operands[0]) {
    case Block: d.block = true; break;
    case BufferBlock: d.buffer_block = true; break;
    case RowMajor: d.row_major = true; break;
    case ArrayStride: d.array_stride = value; break;
    case MatrixStride: d.matrix_stride = value; break;
    case BuiltIn: d.builtin = value; break;
    case NoPerspective: d.no_perspective = true; break;
    case Flat: d.flat = true; break;
    case Patch: d.patch = true; break;
    case Centroid: d.centroid = true; break;
    case Sample: d.sample = true; break;
    case Location: d.location = value; break;
    case Component: d.component = value; break;
    case Index: d.index = value; break;
    case Binding: d.binding = value; break;
    case DescriptorSet: d.descriptor_set = value; break;
    case Offset: d.offset = value; break;
    default: break;
  }
}

}  // namespace

Result<SpirvModule> SpirvModule::parse(std::span<const uint32_t> words) {
  if (words.size() < 5 || words[0] != kMagic)
    return Error{"not a SPIR-V binary (missing magic number 0x07230203)"};
  SpirvModule m;
  m.version_ = words[1];
  std::unordered_map<uint32_t, std::array<uint32_t, 3>> local_sizes;
  std::unordered_map<uint32_t, std::vector<uint32_t>> modes;
  size_t pos = 5;
  while (pos < words.size()) {
    const uint32_t opcode = words[pos] & 0xffff;
    const uint32_t count = words[pos] >> 16;
    if (count == 0 || pos + count > words.size())
      return Error{fmt::format("malformed SPIR-V: bad instruction length at word {}", pos)};
    std::span<const uint32_t> ops = words.subspan(pos + 1, count - 1);
    pos += count;
    if (opcode == OpFunction) break;
    auto operand = [&](size_t i) -> uint32_t { return i < ops.size() ? ops[i] : 0; };
    switch (opcode) {
      case OpCapability: m.capabilities_.push_back(operand(0)); break;
      case OpName: {
        size_t used = 0;
        if (!ops.empty()) m.names_[ops[0]] = read_string(ops.subspan(1), used);
        break;
      }
      case OpEntryPoint: {
        SpirvEntryPoint e;
        e.model = operand(0);
        e.function = operand(1);
        size_t used = 0;
        if (ops.size() > 2) e.name = read_string(ops.subspan(2), used);
        for (size_t i = 2 + used; i < ops.size(); ++i) e.interface.push_back(ops[i]);
        m.entry_points_.push_back(std::move(e));
        break;
      }
      case OpExecutionMode:
        if (operand(1) == kLocalSize && ops.size() >= 5) local_sizes[ops[0]] = {ops[2], ops[3], ops[4]};
        if (ops.size() >= 2) modes[ops[0]].push_back(ops[1]);
        break;
      case OpExecutionModeId:
        // LocalSizeId names constants; resolved after the constants are read.
        if (operand(1) == 38 && ops.size() >= 5) local_sizes[ops[0]] = {ops[2] | 0x80000000u, ops[3], ops[4]};
        break;
      case OpTypeVoid: m.types_[operand(0)].kind = SpirvType::Void; break;
      case OpTypeBool: m.types_[operand(0)].kind = SpirvType::Bool; break;
      case OpTypeInt: {
        auto& t = m.types_[operand(0)];
        t.kind = SpirvType::Int;
        t.width = operand(1);
        t.is_signed = operand(2) != 0;
        break;
      }
      case OpTypeFloat: {
        auto& t = m.types_[operand(0)];
        t.kind = SpirvType::Float;
        t.width = operand(1);
        break;
      }
      case OpTypeVector:
      case OpTypeMatrix: {
        auto& t = m.types_[operand(0)];
        t.kind = opcode == OpTypeVector ? SpirvType::Vector : SpirvType::Matrix;
        t.element = operand(1);
        t.count = operand(2);
        break;
      }
      case OpTypeImage: {
        auto& t = m.types_[operand(0)];
        t.kind = SpirvType::Image;
        t.sampled_type = operand(1);
        t.dim = operand(2);
        t.depth = operand(3);
        t.arrayed = operand(4);
        t.multisampled = operand(5);
        t.sampled = operand(6);
        t.format = operand(7);
        break;
      }
      case OpTypeSampler: m.types_[operand(0)].kind = SpirvType::Sampler; break;
      case OpTypeSampledImage: {
        auto& t = m.types_[operand(0)];
        t.kind = SpirvType::SampledImage;
        t.element = operand(1);
        break;
      }
      case OpTypeArray: {
        auto& t = m.types_[operand(0)];
        t.kind = SpirvType::Array;
        t.element = operand(1);
        t.count = static_cast<uint32_t>(m.integer_constant(operand(2)).value_or(0));
        break;
      }
      case OpTypeRuntimeArray: {
        auto& t = m.types_[operand(0)];
        t.kind = SpirvType::RuntimeArray;
        t.element = operand(1);
        break;
      }
      case OpTypeStruct: {
        auto& t = m.types_[operand(0)];
        t.kind = SpirvType::Struct;
        t.members.assign(ops.begin() + 1, ops.end());
        break;
      }
      case OpTypePointer: {
        auto& t = m.types_[operand(0)];
        t.kind = SpirvType::Pointer;
        t.storage_class = operand(1);
        t.element = operand(2);
        break;
      }
      case OpConstant:
      case OpSpecConstant:
        if (ops.size() >= 3 && m.type(ops[0]).kind == SpirvType::Int) {
          uint64_t v = ops[2];
          if (ops.size() >= 4) v |= static_cast<uint64_t>(ops[3]) << 32;
          m.constants_[ops[1]] = v;
        }
        break;
      case OpVariable: {
        SpirvVariable v;
        v.pointer_type = operand(0);
        v.id = operand(1);
        v.storage_class = operand(2);
        v.type = m.type(v.pointer_type).element;
        m.variables_.push_back(v);
        break;
      }
      case OpDecorate:
        if (!ops.empty()) apply_decoration(m.decorations_[ops[0]], ops.subspan(1));
        break;
      case OpMemberDecorate:
        if (ops.size() >= 2) apply_decoration(m.member_decorations_[{ops[0], ops[1]}], ops.subspan(2));
        break;
      default:
        break;
    }
  }
  for (auto& e : m.entry_points_) {
    if (auto mode = modes.find(e.function); mode != modes.end()) e.execution_modes = mode->second;
    auto it = local_sizes.find(e.function);
    if (it == local_sizes.end()) continue;
    e.local_size = it->second;
    if (e.local_size[0] & 0x80000000u) {
      const std::array<uint32_t, 3> ids{e.local_size[0] & 0x7fffffffu, e.local_size[1], e.local_size[2]};
      for (int i = 0; i < 3; ++i) e.local_size[i] = static_cast<uint32_t>(m.integer_constant(ids[i]).value_or(1));
    }
  }
  return m;
}

const SpirvType& SpirvModule::type(uint32_t id) const {
  static const SpirvType kUnknown{};
  auto it = types_.find(id);
  return it == types_.end() ? kUnknown : it->second;
}

const SpirvDecorations& SpirvModule::decorations(uint32_t id) const {
  static const SpirvDecorations kNone{};
  auto it = decorations_.find(id);
  return it == decorations_.end() ? kNone : it->second;
}

const SpirvDecorations& SpirvModule::member_decorations(uint32_t struct_id, uint32_t member) const {
  static const SpirvDecorations kNone{};
  auto it = member_decorations_.find({struct_id, member});
  return it == member_decorations_.end() ? kNone : it->second;
}

std::string SpirvModule::name(uint32_t id) const {
  auto it = names_.find(id);
  return it == names_.end() ? std::string() : it->second;
}

std::optional<uint64_t> SpirvModule::integer_constant(uint32_t id) const {
  auto it = constants_.find(id);
  if (it == constants_.end()) return std::nullopt;
  return it->second;
}

bool SpirvModule::has_capability(uint32_t capability) const {
  return std::find(capabilities_.begin(), capabilities_.end(), capability) != capabilities_.end();
}

}  // namespace sluice::exec
