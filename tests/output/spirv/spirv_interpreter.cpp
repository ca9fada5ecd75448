// The SPIR-V interpreter (spirv_interpreter.h). Values are flat word
// vectors laid out by type (a vector is its components, a struct its
// members in order); memory is a list of such vectors, and a pointer is
// (slot, word offset). Calls push frames on a heap stack.
#include "spirv_interpreter.h"

#include <bit>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <unordered_map>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp11>

namespace sluice::testing {
namespace {

using spv::Op;

struct TypeInfo {
  Op op = Op::OpNop;
  std::uint32_t element = 0, count = 1, width = 32, is_signed = 0;
  std::vector<std::uint32_t> members;
};

struct Inst {
  Op op;
  std::uint32_t first, count;  // operand words in the module
};

struct Function {
  std::vector<std::uint32_t> params;
  std::size_t begin = 0;  // index of the first OpLabel
  std::unordered_map<std::uint32_t, std::size_t> labels;
};

struct Frame {
  const Function* function;
  std::size_t pc;
  std::uint32_t block = 0, previous = 0;
  std::uint32_t result = 0;  // caller's result id for the call
  std::unordered_map<std::uint32_t, Words> values;
};

class Interpreter {
 public:
  explicit Interpreter(std::span<const std::uint32_t> w) : w_(w) {}
  SpirvRun run(const std::map<std::string, Words>& inputs, std::uint64_t max_steps);

 private:
  bool parse();
  std::uint32_t size_of(std::uint32_t type) const;
  std::uint32_t operand(const Inst& i, std::size_t k) const { return w_[i.first + k]; }
  Words get(Frame& f, std::uint32_t id) const;
  bool step(std::vector<Frame>& stack, SpirvRun& out);
  bool fail(SpirvRun& out, std::string message) {
    out.error = std::move(message);
    return false;
  }

  std::span<const std::uint32_t> w_;
  std::vector<Inst> insts_;
  std::unordered_map<std::uint32_t, TypeInfo> types_;
  std::unordered_map<std::uint32_t, Words> constants_;
  std::unordered_map<std::uint32_t, std::uint32_t> type_of_;  // result id -> type id
  std::unordered_map<std::uint32_t, std::string> names_;
  std::unordered_map<std::uint32_t, Function> functions_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> globals_;  // (variable id, storage class)
  std::vector<Words> memory_;
  std::unordered_map<std::uint32_t, Words> global_pointers_;
  std::uint32_t entry_ = 0;
};

bool Interpreter::parse() {
  if (w_.size() < 5 || w_[0] != 0x07230203) return false;
  Function* current = nullptr;
  for (std::size_t at = 5; at < w_.size();) {
    const std::uint32_t count = w_[at] >> 16;
    if (count == 0 || at + count > w_.size()) return false;
    const Inst inst{static_cast<Op>(w_[at] & 0xffff), static_cast<std::uint32_t>(at + 1), count - 1};
    const std::size_t index = insts_.size();
    insts_.push_back(inst);
    at += count;
    auto o = [&](std::size_t k) { return w_[inst.first + k]; };
    switch (inst.op) {
      case Op::OpEntryPoint: entry_ = o(1); break;
      case Op::OpName: names_[o(0)] = reinterpret_cast<const char*>(&w_[inst.first + 1]); break;
      case Op::OpTypeVoid: case Op::OpTypeBool: case Op::OpTypeFunction: types_[o(0)] = {inst.op, 0, 1, 32, 0, {}}; break;
      case Op::OpTypeInt: types_[o(0)] = {inst.op, 0, 1, o(1), o(2), {}}; break;
      case Op::OpTypeFloat: types_[o(0)] = {inst.op, 0, 1, o(1), 1, {}}; break;
      case Op::OpTypeVector: case Op::OpTypeMatrix: types_[o(0)] = {inst.op, o(1), o(2), 32, 0, {}}; break;
      case Op::OpTypeArray: types_[o(0)] = {inst.op, o(1), constants_.at(o(2))[0], 32, 0, {}}; break;
      case Op::OpTypeStruct: {
        TypeInfo t{inst.op, 0, 1, 32, 0, {}};
        for (std::uint32_t k = 1; k < inst.count; ++k) t.members.push_back(o(k));
        types_[o(0)] = t;
        break;
      }
      case Op::OpTypePointer: types_[o(0)] = {inst.op, o(2), 1, 32, o(1), {}}; break;
      case Op::OpConstant: constants_[o(1)] = {o(2)}; type_of_[o(1)] = o(0); break;
      case Op::OpConstantTrue: constants_[o(1)] = {1}; type_of_[o(1)] = o(0); break;
      case Op::OpConstantFalse: constants_[o(1)] = {0}; type_of_[o(1)] = o(0); break;
      case Op::OpUndef:
        constants_[o(1)] = Words(size_of(o(0)), 0);
        type_of_[o(1)] = o(0);
        break;
      case Op::OpConstantComposite: {
        Words v;
        for (std::uint32_t k = 2; k < inst.count; ++k) {
          const Words& part = constants_.at(o(k));
          v.insert(v.end(), part.begin(), part.end());
        }
        constants_[o(1)] = v;
        type_of_[o(1)] = o(0);
        break;
      }
      case Op::OpVariable:
        if (!current) {
          const std::uint32_t pointee = types_.at(o(0)).element;
          Words init = inst.count > 3 ? constants_.at(o(3)) : Words(size_of(pointee), 0);
          global_pointers_[o(1)] = {static_cast<std::uint32_t>(memory_.size()), 0};
          memory_.push_back(init);
          globals_.emplace_back(o(1), o(2));
          type_of_[o(1)] = o(0);
        }
        break;
      case Op::OpFunction:
        current = &functions_[o(1)];
        break;
      case Op::OpFunctionParameter: current->params.push_back(o(1)); type_of_[o(1)] = o(0); break;
      case Op::OpLabel:
        if (current->labels.empty()) current->begin = index;
        current->labels[o(0)] = index;
        break;
      case Op::OpFunctionEnd: current = nullptr; break;
      default: break;
    }
  }
  return functions_.count(entry_) != 0;
}

std::uint32_t Interpreter::size_of(std::uint32_t type) const {
  const TypeInfo& t = types_.at(type);
  switch (t.op) {
    case Op::OpTypeVector:
    case Op::OpTypeMatrix:
    case Op::OpTypeArray: return t.count * size_of(t.element);
    case Op::OpTypeStruct: {
      std::uint32_t n = 0;
      for (std::uint32_t m : t.members) n += size_of(m);
      return n;
    }
    case Op::OpTypePointer: return 2;
    default: return 1;
  }
}

Words Interpreter::get(Frame& f, std::uint32_t id) const {
  if (auto it = f.values.find(id); it != f.values.end()) return it->second;
  if (auto it = constants_.find(id); it != constants_.end()) return it->second;
  if (auto it = global_pointers_.find(id); it != global_pointers_.end()) return it->second;
  throw std::runtime_error("use of an undefined id %" + std::to_string(id));
}

std::int32_t s32(std::uint32_t v) { return static_cast<std::int32_t>(v); }
float f32(std::uint32_t v) { return std::bit_cast<float>(v); }
std::uint32_t bits(float v) { return std::bit_cast<std::uint32_t>(v); }
std::uint32_t bits(std::int32_t v) { return static_cast<std::uint32_t>(v); }

// One component-wise operation on words.
std::uint32_t binary(Op op, std::uint32_t a, std::uint32_t b, bool& known) {
  known = true;
  switch (op) {
    case Op::OpIAdd: return a + b;
    case Op::OpISub: return a - b;
    case Op::OpIMul: return a * b;
    case Op::OpSDiv: return b == 0 || (s32(a) == INT32_MIN && s32(b) == -1) ? 0 : bits(s32(a) / s32(b));
    case Op::OpUDiv: return b == 0 ? 0 : a / b;
    case Op::OpSMod: {
      if (b == 0 || (s32(a) == INT32_MIN && s32(b) == -1)) return 0;
      const std::int32_t r = s32(a) % s32(b);
      return bits(r != 0 && ((r < 0) != (s32(b) < 0)) ? r + s32(b) : r);
    }
    case Op::OpUMod: return b == 0 ? 0 : a % b;
    case Op::OpBitwiseAnd: return a & b;
    case Op::OpBitwiseOr: return a | b;
    case Op::OpBitwiseXor: return a ^ b;
    case Op::OpShiftLeftLogical: return b >= 32 ? 0 : a << b;
    case Op::OpShiftRightLogical: return b >= 32 ? 0 : a >> b;
    case Op::OpShiftRightArithmetic: return b >= 32 ? 0 : bits(s32(a) >> b);
    case Op::OpIEqual: case Op::OpLogicalEqual: return a == b;
    case Op::OpINotEqual: case Op::OpLogicalNotEqual: return a != b;
    case Op::OpSLessThan: return s32(a) < s32(b);
    case Op::OpSGreaterThan: return s32(a) > s32(b);
    case Op::OpSLessThanEqual: return s32(a) <= s32(b);
    case Op::OpSGreaterThanEqual: return s32(a) >= s32(b);
    case Op::OpULessThan: return a < b;
    case Op::OpUGreaterThan: return a > b;
    case Op::OpULessThanEqual: return a <= b;
    case Op::OpUGreaterThanEqual: return a >= b;
    case Op::OpLogicalAnd: return a && b;
    case Op::OpLogicalOr: return a || b;
    case Op::OpFAdd: return bits(f32(a) + f32(b));
    case Op::OpFSub: return bits(f32(a) - f32(b));
    case Op::OpFMul: case Op::OpVectorTimesScalar: return bits(f32(a) * f32(b));
    case Op::OpFDiv: return bits(f32(a) / f32(b));
    case Op::OpFMod: return bits(f32(a) - f32(b) * std::floor(f32(a) / f32(b)));
    case Op::OpFOrdEqual: return f32(a) == f32(b);
    case Op::OpFUnordNotEqual: return !(f32(a) == f32(b));
    case Op::OpFOrdLessThan: return f32(a) < f32(b);
    case Op::OpFOrdGreaterThan: return f32(a) > f32(b);
    case Op::OpFOrdLessThanEqual: return f32(a) <= f32(b);
    case Op::OpFOrdGreaterThanEqual: return f32(a) >= f32(b);
    default: known = false; return 0;
  }
}

bool Interpreter::step(std::vector<Frame>& stack, SpirvRun& out) {
  Frame& f = stack.back();
  const Inst& inst = insts_[f.pc];
  auto o = [&](std::size_t k) { return operand(inst, k); };
  auto set = [&](Words v) {
    f.values[o(1)] = std::move(v);
    type_of_[o(1)] = o(0);
  };
  auto jump = [&](std::uint32_t label) {
    f.previous = f.block;
    f.block = label;
    f.pc = f.function->labels.at(label);
  };
  ++f.pc;
  bool known = false;
  switch (inst.op) {
    case Op::OpLabel: {
      f.block = o(0);
      // All phis of the block read the predecessor's values together.
      std::vector<std::pair<std::uint32_t, Words>> phis;
      while (insts_[f.pc].op == Op::OpPhi) {
        const Inst& phi = insts_[f.pc++];
        bool found = false;
        for (std::uint32_t k = 2; k + 1 < phi.count; k += 2) {
          if (operand(phi, k + 1) != f.previous) continue;
          phis.emplace_back(operand(phi, 1), get(f, operand(phi, k)));
          type_of_[operand(phi, 1)] = operand(phi, 0);
          found = true;
        }
        if (!found) return fail(out, "phi without an entry for the predecessor");
      }
      for (auto& [id, v] : phis) f.values[id] = std::move(v);
      return true;
    }
    case Op::OpSelectionMerge: case Op::OpLoopMerge: case Op::OpNop: return true;
    case Op::OpBranch: jump(o(0)); return true;
    case Op::OpBranchConditional: jump(get(f, o(0))[0] ? o(1) : o(2)); return true;
    case Op::OpSwitch: {
      const std::uint32_t selector = get(f, o(0))[0];
      std::uint32_t target = o(1);
      for (std::uint32_t k = 2; k + 1 < inst.count; k += 2)
        if (o(k) == selector) target = o(k + 1);
      jump(target);
      return true;
    }
    case Op::OpKill: case Op::OpTerminateInvocation: out.killed = true; stack.clear(); return true;
    case Op::OpUnreachable: return fail(out, "reached OpUnreachable");
    case Op::OpReturn: case Op::OpReturnValue: {
      Words v = inst.op == Op::OpReturnValue ? get(f, o(0)) : Words{};
      const std::uint32_t result = f.result;
      stack.pop_back();
      if (!stack.empty()) stack.back().values[result] = std::move(v);
      return true;
    }
    case Op::OpFunctionCall: {
      const Function& callee = functions_.at(o(2));
      Frame next{&callee, callee.begin, 0, 0, o(1), {}};
      for (std::size_t k = 0; k < callee.params.size(); ++k) next.values[callee.params[k]] = get(f, o(3 + k));
      type_of_[o(1)] = o(0);
      stack.push_back(std::move(next));
      return true;
    }
    case Op::OpVariable: {
      const std::uint32_t pointee = types_.at(o(0)).element;
      Words init = inst.count > 3 ? get(f, o(3)) : Words(size_of(pointee), 0);
      f.values[o(1)] = {static_cast<std::uint32_t>(memory_.size()), 0};
      type_of_[o(1)] = o(0);
      memory_.push_back(std::move(init));
      return true;
    }
    case Op::OpLoad: {
      const Words p = get(f, o(2));
      const Words& slot = memory_.at(p[0]);
      set(Words(slot.begin() + p[1], slot.begin() + p[1] + size_of(o(0))));
      return true;
    }
    case Op::OpStore: {
      const Words p = get(f, o(0)), v = get(f, o(1));
      std::copy(v.begin(), v.end(), memory_.at(p[0]).begin() + p[1]);
      return true;
    }
    case Op::OpAccessChain: {
      Words p = get(f, o(2));
      std::uint32_t type = types_.at(type_of_.at(o(2))).element;
      for (std::uint32_t k = 3; k < inst.count; ++k) {
        const std::uint32_t index = get(f, o(k))[0];
        const TypeInfo& t = types_.at(type);
        if (t.op == Op::OpTypeStruct) {
          for (std::uint32_t m = 0; m < index; ++m) p[1] += size_of(t.members[m]);
          type = t.members[index];
        } else {
          p[1] += index * size_of(t.element);
          type = t.element;
        }
      }
      set(p);
      return true;
    }
    case Op::OpCompositeConstruct: {
      Words v;
      for (std::uint32_t k = 2; k < inst.count; ++k) {
        const Words part = get(f, o(k));
        v.insert(v.end(), part.begin(), part.end());
      }
      set(v);
      return true;
    }
    case Op::OpCompositeExtract:
    case Op::OpCompositeInsert: {
      // Insert: result type, id, object, composite, indices.
      const bool insert = inst.op == Op::OpCompositeInsert;
      const std::uint32_t whole = insert ? o(3) : o(2);
      const Words v = get(f, whole);
      std::uint32_t type = type_of_.at(whole), offset = 0;
      for (std::uint32_t k = insert ? 4 : 3; k < inst.count; ++k) {
        const TypeInfo& t = types_.at(type);
        if (t.op == Op::OpTypeStruct) {
          for (std::uint32_t m = 0; m < o(k); ++m) offset += size_of(t.members[m]);
          type = t.members[o(k)];
        } else {
          offset += o(k) * size_of(t.element);
          type = t.element;
        }
      }
      if (insert) {
        Words inserted = v;
        const Words part = get(f, o(2));
        std::copy(part.begin(), part.end(), inserted.begin() + offset);
        set(inserted);
        return true;
      }
      set(Words(v.begin() + offset, v.begin() + offset + size_of(o(0))));
      return true;
    }
    case Op::OpDot: {
      // Components multiplied and summed left to right (a float dot product).
      const Words a = get(f, o(2)), b = get(f, o(3));
      float sum = 0.0f;
      for (std::size_t k = 0; k < a.size(); ++k) sum = k == 0 ? f32(a[k]) * f32(b[k]) : sum + f32(a[k]) * f32(b[k]);
      set({bits(sum)});
      return true;
    }
    case Op::OpVectorShuffle: {
      Words both = get(f, o(2));
      const Words b = get(f, o(3));
      both.insert(both.end(), b.begin(), b.end());
      Words v;
      for (std::uint32_t k = 4; k < inst.count; ++k) v.push_back(both.at(o(k)));
      set(v);
      return true;
    }
    case Op::OpCopyObject: set(get(f, o(2))); return true;
    case Op::OpSelect: {
      const Words c = get(f, o(2)), a = get(f, o(3)), b = get(f, o(4));
      Words v(a.size());
      for (std::size_t k = 0; k < v.size(); ++k) v[k] = (c.size() == 1 ? c[0] : c[k]) ? a[k] : b[k];
      set(v);
      return true;
    }
    case Op::OpSNegate: case Op::OpFNegate: case Op::OpNot: case Op::OpLogicalNot:
    case Op::OpConvertSToF: case Op::OpConvertFToS: case Op::OpBitcast: {
      Words v = get(f, o(2));
      for (std::uint32_t& c : v) {
        switch (inst.op) {
          case Op::OpSNegate: c = 0u - c; break;
          case Op::OpFNegate: c = bits(-f32(c)); break;
          case Op::OpNot: c = ~c; break;
          case Op::OpLogicalNot: c = !c; break;
          case Op::OpConvertSToF: c = bits(static_cast<float>(s32(c))); break;
          case Op::OpConvertFToS: c = bits(static_cast<std::int32_t>(f32(c))); break;
          default: break;
        }
      }
      set(v);
      return true;
    }
    case Op::OpAll: case Op::OpAny: {
      const Words v = get(f, o(2));
      bool r = inst.op == Op::OpAll;
      for (std::uint32_t c : v) r = inst.op == Op::OpAll ? (r && c) : (r || c);
      set({r});
      return true;
    }
    default: break;
  }
  if (inst.count >= 4) {
    const Words a = get(f, o(2)), b = get(f, o(3));
    Words v(a.size());
    for (std::size_t k = 0; k < v.size(); ++k) v[k] = binary(inst.op, a[k], b.size() == 1 ? b[0] : b[k], known);
    if (known) {
      set(v);
      return true;
    }
  }
  return fail(out, "unsupported instruction, opcode " + std::to_string(static_cast<std::uint32_t>(inst.op)));
}

SpirvRun Interpreter::run(const std::map<std::string, Words>& inputs, std::uint64_t max_steps) {
  SpirvRun out;
  try {
    if (!parse()) {
      out.error = "cannot parse the module";
      return out;
    }
    for (const auto& [id, storage] : globals_) {
      auto name = names_.find(id);
      if (storage != static_cast<std::uint32_t>(spv::StorageClass::Input) || name == names_.end()) continue;
      if (auto in = inputs.find(name->second); in != inputs.end()) memory_[global_pointers_[id][0]] = in->second;
    }
    const Function& main = functions_.at(entry_);
    std::vector<Frame> stack;
    stack.push_back(Frame{&main, main.begin, 0, 0, 0, {}});
    while (!stack.empty()) {
      if (++out.steps > max_steps) {
        out.error = "step limit";
        return out;
      }
      if (!step(stack, out)) return out;
    }
    for (const auto& [id, storage] : globals_) {
      auto name = names_.find(id);
      if (storage == static_cast<std::uint32_t>(spv::StorageClass::Output) && name != names_.end())
        out.outputs[name->second] = memory_[global_pointers_[id][0]];
    }
    out.ok = true;
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace

SpirvRun run_spirv(std::span<const std::uint32_t> module, const std::map<std::string, Words>& inputs,
                   std::uint64_t max_steps) {
  return Interpreter(module).run(inputs, max_steps);
}

}  // namespace sluice::testing
