// The fleshed compute shader as SPIR-V 1.0 assembly text (SPIRV-Tools'
// syntax, named ids), one instrumented block per CFG block in layout order.
//
// Buffers (set 0): binding 0 the directions, binding 1 the output, both
// `BufferBlock` structs of one fixed-size uint array. Per invocation i the
// directions are words [i·D, i·D + D) and the output words [i·S, i·S + S)
// with S = C + 1 (twice that in data mode: block numbers, then values).
//
// In a block that can run:
//   direction (conditional or switch blocks):
//     in = di < D; d = in ? dir[base_d + di] : EXITWARD; di += 1
//   data mode: acc = acc OP constant (+ d · 0x9e3779b1 after a direction)
//   record: out[base_o + min(oi, C)] = block number (and acc); oi += 1
// di, oi (and acc) live in Function variables, or in OpPhi nodes in the phi
// modes (one entry per predecessor; 0 from predecessors that cannot run).
// Blocks that cannot run keep only their merge instruction and terminator
// (constant conditions), as the skeleton had them.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include <fmt/format.h>

#include "flesh/bundle.h"
#include "flesh/flesh.h"

namespace sluice::flesh {
namespace {

using ConstantNames = std::map<std::uint32_t, std::string>;

// Everything before the first function: capabilities, the entry point
// (`main`; with `bundle` it also reads its workgroup id), the buffer types
// sized `dir_words` and `out_words`, and `constants` (which must already
// hold every constant the functions use).
std::string declarations(ConstantNames& constants, bool threads, bool bundle, std::uint32_t local_size,
                         std::uint32_t dir_words, std::uint32_t out_words) {
  auto constant = [&](std::uint32_t v) { return constants.try_emplace(v, fmt::format("%u{}", v)).first->second; };
  constant(dir_words);
  constant(out_words);
  std::string s;
  s += "               OpCapability Shader\n";
  s += "               OpMemoryModel Logical GLSL450\n";
  s += fmt::format("               OpEntryPoint GLCompute %main \"main\"{}{}\n", threads ? " %gid" : "",
                   bundle ? " %wid" : "");
  s += fmt::format("               OpExecutionMode %main LocalSize {} 1 1\n", local_size);
  s += "               OpName %main \"main\"\n";
  s += "               OpName %Directions \"Directions\"\n";
  s += "               OpName %Output \"Output\"\n";
  s += "               OpName %dir \"directions\"\n";
  s += "               OpName %out \"path\"\n";
  if (threads) s += "               OpDecorate %gid BuiltIn GlobalInvocationId\n";
  if (bundle) s += "               OpDecorate %wid BuiltIn WorkgroupId\n";
  s += "               OpDecorate %dir_array ArrayStride 4\n";
  s += "               OpDecorate %out_array ArrayStride 4\n";
  s += "               OpMemberDecorate %Directions 0 Offset 0\n";
  s += "               OpMemberDecorate %Output 0 Offset 0\n";
  s += "               OpDecorate %Directions BufferBlock\n";
  s += "               OpDecorate %Output BufferBlock\n";
  s += "               OpDecorate %dir DescriptorSet 0\n";
  s += "               OpDecorate %dir Binding 0\n";
  s += "               OpDecorate %out DescriptorSet 0\n";
  s += "               OpDecorate %out Binding 1\n";
  s += "       %void = OpTypeVoid\n";
  s += "     %fnvoid = OpTypeFunction %void\n";
  s += "       %bool = OpTypeBool\n";
  s += "       %uint = OpTypeInt 32 0\n";
  for (const auto& [value, name] : constants) s += fmt::format("{:>11} = OpConstant %uint {}\n", name, value);
  s += "      %false = OpConstantFalse %bool\n";
  if (threads || bundle) {
    s += "     %v3uint = OpTypeVector %uint 3\n";
    s += "  %ptr_in_v3 = OpTypePointer Input %v3uint\n";
  }
  if (threads) s += "        %gid = OpVariable %ptr_in_v3 Input\n";
  if (bundle) s += "        %wid = OpVariable %ptr_in_v3 Input\n";
  s += fmt::format("  %dir_array = OpTypeArray %uint {}\n", constant(dir_words));
  s += fmt::format("  %out_array = OpTypeArray %uint {}\n", constant(out_words));
  s += " %Directions = OpTypeStruct %dir_array\n";
  s += "     %Output = OpTypeStruct %out_array\n";
  s += "%ptr_Directions = OpTypePointer Uniform %Directions\n";
  s += " %ptr_Output = OpTypePointer Uniform %Output\n";
  s += "   %ptr_uint = OpTypePointer Uniform %uint\n";
  s += "    %ptr_var = OpTypePointer Function %uint\n";
  s += "        %dir = OpVariable %ptr_Directions Uniform\n";
  s += "        %out = OpVariable %ptr_Output Uniform\n";
  return s;
}

class Emitter {
 public:
  // `slot`: where the test's words start in the directions and output
  // buffers (non-zero in a bundle).
  Emitter(const Test& t, const Mutation& m, BundleSlot slot = {})
      : t_(t), mutation_(m), slot_(slot), reachable_(reachable_blocks(t.cfg)), distance_(exit_distances(t.cfg)) {}

  std::string run() {
    const bool threads = uses_threads(t_.mode);
    const std::uint32_t dir_words = std::max<std::uint32_t>(1, t_.invocations * t_.directions_per_invocation);
    const std::uint32_t out_words = t_.invocations * t_.slots();
    for (std::uint32_t v : {0u, 1u, t_.directions_per_invocation, t_.capacity, t_.capacity + 1, t_.slots(), dir_words,
                            out_words, 0x9e3779b1u, 0x811c9dc5u})
      constant(v);
    for (BlockIndex b = 0; b < t_.cfg.size(); ++b) {
      constant(b + 1);
      const Block& k = t_.cfg.blocks[b];
      if (k.terminator == Terminator::Conditional || k.terminator == Terminator::Switch)
        constant(exitward_direction(k, distance_));
      if (t_.mode == Mode::Data) constant(t_.block_ops[b] == 2 ? (t_.block_constants[b] | 1u) : t_.block_constants[b]);
    }
    std::string body = blocks();
    std::string s;
    s += fmt::format("; SPIR-V\n; Version: 1.0\n; Generator: sluice flesh, seed {:#x}, mode {}, {} blocks\n", t_.seed,
                     to_string(t_.mode), t_.cfg.size());
    s += declarations(constants_, threads, false, t_.local_size, dir_words, out_words);
    s += "       %main = OpFunction %void None %fnvoid\n";
    s += body;
    s += "               OpFunctionEnd\n";
    return s;
  }

  // The id of a uint constant (created on first use; the constants are
  // declared before the function, so every use comes first).
  std::string constant(std::uint32_t v) {
    auto [it, fresh] = constants_.try_emplace(v, fmt::format("%u{}", v));
    (void)fresh;
    return it->second;
  }

  // The instrumented function's blocks (without OpFunction), each
  // constant it uses added to constants().
  std::string function() {
    for (std::uint32_t v : {0u, 1u, t_.directions_per_invocation, t_.capacity, t_.capacity + 1, t_.slots(),
                            0x9e3779b1u, 0x811c9dc5u})
      constant(v);
    return blocks();
  }
  const ConstantNames& constants() const { return constants_; }

 private:
  void op(std::string& s, const std::string& result, const std::string& text) {
    s += fmt::format("{:>11} = {}\n", result, text);
  }
  void op(std::string& s, const std::string& text) { s += fmt::format("               {}\n", text); }

  static std::string label(BlockIndex b) { return fmt::format("%b{}", b + 1); }

  std::string blocks() {
    const Cfg& cfg = t_.cfg;
    const bool phi = uses_phi(t_.mode), data = t_.mode == Mode::Data, threads = uses_threads(t_.mode);
    // Predecessors over branch edges, each once, in layout order.
    std::vector<std::vector<BlockIndex>> preds(cfg.size());
    for (BlockIndex b : cfg.layout) {
      std::set<BlockIndex> seen;
      for (BlockIndex target : cfg.blocks[b].targets)
        if (seen.insert(target).second) preds[target].push_back(b);
    }
    // The value names each runnable block ends with (phi modes).
    // Named ahead, since a loop header's phi names its back-edge block's
    // values before that block is emitted.
    std::vector<std::string> di_end(cfg.size()), oi_end(cfg.size());
    for (BlockIndex b = 0; b < cfg.size(); ++b) {
      const Terminator term = cfg.blocks[b].terminator;
      const std::string n = std::to_string(b + 1);
      const bool branches = term == Terminator::Conditional || term == Terminator::Switch;
      di_end[b] = branches ? "%dinext_" + n : b == 0 ? constant(0) : "%di_" + n;
      oi_end[b] = "%oinext_" + n;
    }
    std::string s;
    std::string dbase = constant(slot_.dir_offset), obase = constant(slot_.out_offset);
    for (BlockIndex b : cfg.layout) {
      const Block& k = cfg.blocks[b];
      const std::string n = std::to_string(b + 1);
      op(s, label(b), "OpLabel");
      const bool runs = reachable_[b];
      if (runs) {
        std::string di, oi;
        if (b == 0) {
          if (!phi) {
            op(s, "%di_var", "OpVariable %ptr_var Function");
            op(s, "%oi_var", "OpVariable %ptr_var Function");
            if (data) op(s, "%acc_var", "OpVariable %ptr_var Function");
            op(s, "OpStore %di_var " + constant(0));
            op(s, "OpStore %oi_var " + constant(0));
            if (data) op(s, "OpStore %acc_var " + constant(0x811c9dc5u));
          }
          if (threads) {
            op(s, "%gid_v", "OpLoad %v3uint %gid");
            op(s, "%inv", "OpCompositeExtract %uint %gid_v 0");
            op(s, "%dbase", fmt::format("OpIMul %uint %inv {}", constant(t_.directions_per_invocation)));
            op(s, "%obase", fmt::format("OpIMul %uint %inv {}", constant(t_.slots())));
            dbase = "%dbase";
            obase = "%obase";
            if (slot_.dir_offset || slot_.out_offset) {
              op(s, "%dbase_at", fmt::format("OpIAdd %uint %dbase {}", constant(slot_.dir_offset)));
              op(s, "%obase_at", fmt::format("OpIAdd %uint %obase {}", constant(slot_.out_offset)));
              dbase = "%dbase_at";
              obase = "%obase_at";
            }
          }
          di = oi = constant(0);
        } else if (phi) {
          std::string di_phi = "OpPhi %uint", oi_phi = "OpPhi %uint";
          for (BlockIndex p : preds[b]) {
            const bool live = reachable_[p];
            di_phi += fmt::format(" {} {}", live ? di_end[p] : constant(0), label(p));
            oi_phi += fmt::format(" {} {}", live ? oi_end[p] : constant(0), label(p));
          }
          di = "%di_" + n;
          oi = "%oi_" + n;
          op(s, di, di_phi);
          op(s, oi, oi_phi);
        }
        if (!phi) {
          di = "%di_" + n;
          oi = "%oi_" + n;
          if (k.terminator == Terminator::Conditional || k.terminator == Terminator::Switch)
            op(s, di, "OpLoad %uint %di_var");
          op(s, oi, "OpLoad %uint %oi_var");
        }
        std::string direction;
        const bool branches = k.terminator == Terminator::Conditional || k.terminator == Terminator::Switch;
        std::string di_next = di;
        if (branches) {
          op(s, "%din_" + n, fmt::format("OpULessThan %bool {} {}", di, constant(t_.directions_per_invocation)));
          op(s, "%dcl_" + n, fmt::format("OpSelect %uint %din_{} {} {}", n, di, constant(0)));
          op(s, "%dix_" + n, fmt::format("OpIAdd %uint {} %dcl_{}", dbase, n));
          op(s, "%dp_" + n, fmt::format("OpAccessChain %ptr_uint %dir {} %dix_{}", constant(0), n));
          op(s, "%dl_" + n, fmt::format("OpLoad %uint %dp_{}", n));
          direction = "%d_" + n;
          op(s, direction, fmt::format("OpSelect %uint %din_{} %dl_{} {}", n, n,
                                       constant(exitward_direction(k, distance_))));
          di_next = "%dinext_" + n;
          op(s, di_next, fmt::format("OpIAdd %uint {} {}", di, constant(1)));
          if (!phi) op(s, fmt::format("OpStore %di_var {}", di_next));
        }
        std::string acc;
        if (data) {
          op(s, "%acc_" + n, "OpLoad %uint %acc_var");
          static const char* const kOps[] = {"OpIAdd", "OpBitwiseXor", "OpIMul"};
          const std::uint32_t c = t_.block_ops[b] == 2 ? (t_.block_constants[b] | 1u) : t_.block_constants[b];
          acc = "%acc1_" + n;
          op(s, acc, fmt::format("{} %uint %acc_{} {}", kOps[t_.block_ops[b]], n, constant(c)));
          if (branches) {
            op(s, "%accd_" + n, fmt::format("OpIMul %uint {} {}", direction, constant(0x9e3779b1u)));
            op(s, "%acc2_" + n, fmt::format("OpIAdd %uint {} %accd_{}", acc, n));
            acc = "%acc2_" + n;
          }
          op(s, fmt::format("OpStore %acc_var {}", acc));
        }
        op(s, "%oin_" + n, fmt::format("OpULessThan %bool {} {}", oi, constant(t_.capacity)));
        op(s, "%ocl_" + n, fmt::format("OpSelect %uint %oin_{} {} {}", n, oi, constant(t_.capacity)));
        op(s, "%oix_" + n, fmt::format("OpIAdd %uint {} %ocl_{}", obase, n));
        op(s, "%op_" + n, fmt::format("OpAccessChain %ptr_uint %out {} %oix_{}", constant(0), n));
        if (!(mutation_.kind == Mutation::Kind::DropStore && mutation_.block == b))
          op(s, fmt::format("OpStore %op_{} {}", n, constant(b + 1)));
        if (data) {
          op(s, "%aix_" + n, fmt::format("OpIAdd %uint %oix_{} {}", n, constant(t_.capacity + 1)));
          op(s, "%ap_" + n, fmt::format("OpAccessChain %ptr_uint %out {} %aix_{}", constant(0), n));
          op(s, fmt::format("OpStore %ap_{} {}", n, acc));
        }
        const std::string oi_next = "%oinext_" + n;
        op(s, oi_next, fmt::format("OpIAdd %uint {} {}", oi, constant(1)));
        if (!phi) op(s, fmt::format("OpStore %oi_var {}", oi_next));
        terminator(s, b, branches ? direction : "");
      } else {
        terminator(s, b, "");
      }
    }
    return s;
  }

  // The merge instruction and the terminator; `direction` is the selector
  // (empty in blocks that cannot run: constant conditions).
  void terminator(std::string& s, BlockIndex b, const std::string& direction) {
    const Block& k = t_.cfg.blocks[b];
    const std::string n = std::to_string(b + 1);
    std::string cond = "%false";  // computed before the merge instruction, which must be second to last
    if (k.terminator == Terminator::Conditional && !direction.empty()) {
      cond = "%c_" + n;
      op(s, cond, fmt::format("OpIEqual %bool {} {}", direction, constant(1)));
    }
    if (k.merge_kind == MergeKind::Selection) op(s, fmt::format("OpSelectionMerge {} None", label(k.merge)));
    if (k.merge_kind == MergeKind::Loop)
      op(s, fmt::format("OpLoopMerge {} {} None", label(k.merge), label(k.continue_target)));
    switch (k.terminator) {
      case Terminator::Branch: op(s, "OpBranch " + label(k.targets[0])); break;
      case Terminator::Conditional: {
        const bool swap = mutation_.kind == Mutation::Kind::SwapTargets && mutation_.block == b;
        op(s, fmt::format("OpBranchConditional {} {} {}", cond, label(k.targets[swap ? 1 : 0]),
                          label(k.targets[swap ? 0 : 1])));
        break;
      }
      case Terminator::Switch: {
        std::string text = fmt::format("OpSwitch {} {}", direction.empty() ? constant(0) : direction, label(k.targets[0]));
        for (std::size_t i = 0; i < k.case_literals.size(); ++i)
          text += fmt::format(" {} {}", k.case_literals[i], label(k.targets[i + 1]));
        op(s, text);
        break;
      }
      case Terminator::Return: op(s, "OpReturn"); break;
      case Terminator::Unreachable: op(s, "OpUnreachable"); break;
    }
  }

  const Test& t_;
  Mutation mutation_;
  BundleSlot slot_;
  std::vector<bool> reachable_;
  std::vector<std::uint32_t> distance_;
  ConstantNames constants_;
};

}  // namespace

std::string emit_assembly(const Test& test, const Mutation& mutation) { return Emitter(test, mutation).run(); }

namespace {

// `body` with every id but the module-level ones (types, buffers, built-ins,
// constants %uN) prefixed with `prefix`, so that bundled functions do not
// collide.
std::string prefix_local_ids(const std::string& body, const std::string& prefix) {
  static const std::set<std::string> kGlobal = {"void", "fnvoid", "bool", "uint", "false", "v3uint", "ptr_in_v3",
                                                "gid", "ptr_uint", "ptr_var", "dir", "out"};
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::string s;
  s.reserve(body.size() + body.size() / 4);
  for (std::size_t i = 0; i < body.size();) {
    s += body[i];
    if (body[i++] != '%') continue;
    std::size_t end = i;
    while (end < body.size() && ident(body[end])) ++end;
    const std::string name = body.substr(i, end - i);
    const bool constant = name.size() > 1 && name[0] == 'u' &&
                          std::all_of(name.begin() + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!constant && !kGlobal.count(name)) s += prefix;
    s += name;
    i = end;
  }
  return s;
}

}  // namespace

std::string emit_bundle_assembly(std::span<const Test* const> tests, std::span<const BundleSlot> slots,
                                 std::uint32_t dir_words, std::uint32_t out_words) {
  ConstantNames constants;
  std::string functions;
  for (std::size_t k = 0; k < tests.size(); ++k) {
    Emitter e(*tests[k], {}, slots[k]);
    const std::string body = e.function();
    constants.insert(e.constants().begin(), e.constants().end());
    functions += fmt::format("%t{}_f = OpFunction %void None %fnvoid\n", k);
    functions += prefix_local_ids(body, fmt::format("t{}_", k));
    functions += "OpFunctionEnd\n";
  }
  const Test& first = *tests.front();
  std::string s = fmt::format("; SPIR-V\n; Version: 1.0\n; Generator: sluice flesh, a bundle of {} tests, mode {}\n",
                              tests.size(), to_string(first.mode));
  s += declarations(constants, uses_threads(first.mode), true, first.local_size, dir_words, out_words);
  s += functions;
  s += "       %main = OpFunction %void None %fnvoid\n";
  s += "      %entry = OpLabel\n";
  s += "      %wid_v = OpLoad %v3uint %wid\n";
  s += "       %test = OpCompositeExtract %uint %wid_v 1\n";
  s += "               OpSelectionMerge %done None\n";
  std::string cases = "               OpSwitch %test %done";
  for (std::size_t k = 0; k < tests.size(); ++k) cases += fmt::format(" {} %call{}", k, k);
  s += cases + "\n";
  for (std::size_t k = 0; k < tests.size(); ++k)
    s += fmt::format("%call{} = OpLabel\n%r{} = OpFunctionCall %void %t{}_f\nOpBranch %done\n", k, k, k);
  s += "       %done = OpLabel\n";
  s += "               OpReturn\n";
  s += "               OpFunctionEnd\n";
  return s;
}

}  // namespace sluice::flesh
