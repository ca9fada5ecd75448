// RelaxedPrecision as glslang decorates it. Each shader is compiled twice in
// process: by glslang (GlslangToSpv, as glslangValidator -V) and by Sluice's
// GLSL front end and SPIR-V output. The two modules are compared on
//   - variables, parameters and functions: for every (kind, name) both
//     modules have, whether it is decorated (glslang's own temporaries,
//     `param` and the like, have no Sluice counterpart and are skipped);
//   - struct and block members: for every (struct, member) name both
//     modules have, whether its copies (one per layout) are decorated
//     (OpMemberDecorate), all, some or none of them;
//   - computations: per opcode, how many results are decorated. Opcodes that
//     only move values (loads, constructs, shuffles, extracts, phis) are left
//     out: the two compilers split the same expression into them differently
//     (glslang smears scalars with OpCompositeConstruct, Sluice loads whole
//     vectors for swizzles); what the driver computes at fp16 is the rest.
// spirv-val must find nothing wrong with the decorations. (Those comparisons
// need the GLSL front end; a module built by hand checks the SPIR-V
// output's rules alone.)
#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "corpus.h"
#include "golden_file.h"
#include "output/spirv/spirv_output.h"
#include "spirv_test_util.h"
#include "exec/glsl_compiler/glsl_compile.h"
#include "frontend/glsl/glsl_frontend.h"

using namespace sluice;
namespace fs = std::filesystem;

namespace {

// What a module decorates RelaxedPrecision.
struct Relaxed {
  // (kind, name) -> [decorated, total] for OpVariable, OpFunctionParameter, OpFunction.
  std::map<std::pair<spv::Op, std::string>, std::pair<int, int>> named;
  std::map<spv::Op, int> computations;  // decorated results per opcode
  int total = 0;                        // every RelaxedPrecision decoration
  // (struct name, member name) -> [decorated, total] over the struct's copies.
  std::map<std::pair<std::string, std::string>, std::pair<int, int>> members;
  int member_total = 0;  // every OpMemberDecorate ... RelaxedPrecision
};

// "none", "all" or "some" of a [decorated, total] count.
std::string share(std::pair<int, int> c) { return c.first == 0 ? "none" : c.first == c.second ? "all" : "some"; }

bool moves_values(spv::Op op) {
  switch (op) {
    case spv::Op::OpLoad:
    case spv::Op::OpAccessChain:
    case spv::Op::OpCompositeConstruct:
    case spv::Op::OpCompositeExtract:
    case spv::Op::OpCompositeInsert:
    case spv::Op::OpVectorShuffle:
    case spv::Op::OpCopyObject:
    case spv::Op::OpPhi:
    case spv::Op::OpSampledImage:
    case spv::Op::OpImage:
    case spv::Op::OpConstant:
    case spv::Op::OpConstantComposite:
    case spv::Op::OpUndef: return true;
    default: return false;
  }
}

std::string string_at(const std::vector<std::uint32_t>& words, std::size_t at) {
  std::string s;
  for (; at < words.size(); ++at)
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((words[at] >> (8 * b)) & 0xff);
      if (c == 0) return s;
      s += c;
    }
  return s;
}

Relaxed relaxed_of(const std::vector<std::uint32_t>& words) {
  std::map<std::uint32_t, spv::Op> defined_by;
  std::map<std::uint32_t, std::string> names;
  std::set<std::uint32_t> decorated;
  std::map<std::uint32_t, std::vector<std::string>> member_names;  // struct id -> names by index
  std::set<std::pair<std::uint32_t, std::uint32_t>> decorated_members;
  std::map<std::uint32_t, std::size_t> struct_sizes;
  for (std::size_t at = 5; at < words.size();) {
    const std::uint32_t count = words[at] >> 16;
    const auto op = static_cast<spv::Op>(words[at] & 0xffff);
    if (count == 0) break;
    bool has_result = false, has_type = false;
    spv::HasResultAndType(op, &has_result, &has_type);
    if (has_result) defined_by[words[at + (has_type ? 2 : 1)]] = op;
    if (op == spv::Op::OpName) names[words[at + 1]] = string_at(words, at + 2);
    if (op == spv::Op::OpDecorate && words[at + 2] == static_cast<std::uint32_t>(spv::Decoration::RelaxedPrecision))
      decorated.insert(words[at + 1]);
    if (op == spv::Op::OpMemberDecorate &&
        words[at + 3] == static_cast<std::uint32_t>(spv::Decoration::RelaxedPrecision))
      decorated_members.insert({words[at + 1], words[at + 2]});
    if (op == spv::Op::OpMemberName) {
      auto& list = member_names[words[at + 1]];
      list.resize(std::max<std::size_t>(list.size(), words[at + 2] + 1));
      list[words[at + 2]] = string_at(words, at + 3);
    }
    if (op == spv::Op::OpTypeStruct) struct_sizes[words[at + 1]] = count - 2;
    at += count;
  }
  Relaxed r;
  r.total = static_cast<int>(decorated.size());
  r.member_total = static_cast<int>(decorated_members.size());
  for (const auto& [id, size] : struct_sizes) {
    const std::string struct_name = names.count(id) ? names[id] : std::string("?");
    const std::vector<std::string>& mnames = member_names[id];
    for (std::uint32_t k = 0; k < size; ++k) {
      auto& [d, t] = r.members[{struct_name, k < mnames.size() ? mnames[k] : std::to_string(k)}];
      d += decorated_members.count({id, k}) > 0;
      ++t;
    }
  }
  for (const auto& [id, op] : defined_by) {
    const bool relaxed = decorated.count(id) > 0;
    if (op == spv::Op::OpVariable || op == spv::Op::OpFunctionParameter || op == spv::Op::OpFunction) {
      auto& [d, t] = r.named[{op, names.count(id) ? names[id] : std::string("?")}];
      d += relaxed;
      ++t;
    } else if (relaxed && !moves_values(op)) {
      ++r.computations[op];
    }
  }
  return r;
}

std::string op_name(spv::Op op) { return "opcode " + std::to_string(static_cast<int>(op)); }

}  // namespace

TEST_CASE("RelaxedPrecision: from the IR's precisions, on values the instructions make") {
  using namespace sluice::ir;
  using namespace sluice::ir::predefined;
  using testing::ok;
  Module m(ShaderStage::Fragment);
  Builder b(m);
  Decorations at0;
  at0.location = 0;
  const VariableId color = b.add_global({"color", NameSource::Interface}, kVec4, StorageClass::Input, Precision::Medium, at0);
  const VariableId count = b.add_global({"count", NameSource::Internal}, kInt, StorageClass::Private, Precision::Low);
  const VariableId result = b.add_global({"result", NameSource::Interface}, kVec4, StorageClass::Output, Precision::High, at0);
  const FunctionId halve = b.begin_function({"halve", NameSource::Internal}, kFloat, Precision::Medium);
  const VariableId x = b.add_parameter(halve, {"x", NameSource::Internal}, kFloat, ParamDirection::In, Precision::Medium);
  ok(b.terminate(Opcode::Return, ok(b.emit(Opcode::Mul, {ok(b.load(x)), m.float_constant(0.5f)}))));
  b.begin_function({"main", NameSource::Internal}, kVoid);
  const VariableId kept = b.declare_local({"kept", NameSource::Internal}, kFloat, Precision::Medium);
  const RegisterId c = ok(b.load(color));                                                  // mediump, derived
  const RegisterId scaled = ok(b.emit(Opcode::VectorTimesScalar, {c, m.float_constant(2.0f)}));  // mediump
  const RegisterId wide = ok(b.emit(Opcode::Add, {scaled, scaled}, Precision::High));        // highp: not decorated
  const RegisterId component = ok(b.emit(Opcode::AccessVectorComponent, {color, Operand::literal(0)}));  // a pointer
  const RegisterId first = ok(b.load(component));
  const RegisterId less = ok(b.emit(Opcode::LessThan, {first, m.float_constant(1.0f)}));     // bool: never
  const RegisterId n = ok(b.emit(Opcode::Add, {ok(b.load(count)), kIntOne}));               // lowp int
  const RegisterId half = ok(b.emit(Opcode::Call, {halve, first}));                         // the function's mediump
  ok(b.store(kept, half));
  const IfBlocks pick = ok(b.branch_if(less, true, kFloat, Precision::Medium));
  b.set_block(pick.true_block);
  ok(b.terminate(Opcode::Merge, ok(b.load(kept))));
  b.set_block(pick.false_block);
  ok(b.terminate(Opcode::Merge, ok(b.construct(Opcode::ConstructScalarFromScalar, kFloat, {n}))));
  b.set_block(pick.merge);
  const RegisterId chosen = b.merge_input(pick.merge);
  ok(b.store(result, ok(b.emit(Opcode::Add, {wide, ok(b.construct(Opcode::ConstructVectorFromScalar, kVec4, {chosen}))}))));
  ok(b.terminate(Opcode::Return));

  for (bool promote : {false, true}) {
    spirv::Options options;
    options.promote_to_ssa = promote;
    const testing::Emitted e = testing::emit_checked(m, options);
    const Relaxed r = relaxed_of(e.words);
    INFO(e.text);
    CHECK(r.named.at({spv::Op::OpVariable, "color"}).first == 1);
    CHECK(r.named.at({spv::Op::OpVariable, "count"}).first == 1);
    CHECK(r.named.at({spv::Op::OpVariable, "result"}).first == 0);
    CHECK(r.named.at({spv::Op::OpFunction, "halve"}).first == 1);
    CHECK(r.named.at({spv::Op::OpFunction, "main"}).first == 0);
    CHECK(r.named.at({spv::Op::OpFunctionParameter, "x"}).first == 1);
    if (!promote) CHECK(r.named.at({spv::Op::OpVariable, "kept"}).first == 1);
    CHECK(r.computations.at(spv::Op::OpVectorTimesScalar) == 1);
    CHECK(r.computations.at(spv::Op::OpFMul) == 1);         // in halve
    CHECK(r.computations.at(spv::Op::OpIAdd) == 1);         // lowp int
    CHECK(r.computations.at(spv::Op::OpConvertSToF) == 1);  // the mediump float(n)
    CHECK(r.computations.at(spv::Op::OpFunctionCall) == 1);
    CHECK(r.computations.count(spv::Op::OpFAdd) == 0);      // highp
    CHECK(r.computations.count(spv::Op::OpFOrdLessThan) == 0);
    CHECK(testing::count_of(e.text, "OpAccessChain") == 1);
    // The merge input's OpPhi, and with promotion nothing else is one.
    CHECK(testing::count_of(e.text, "OpPhi") == 1);
    CHECK(r.total == static_cast<int>(testing::count_of(e.text, "RelaxedPrecision")));
  }
}

TEST_CASE("RelaxedPrecision: lowp and mediump members of numbers, never bools or structs") {
  using namespace sluice::ir;
  using namespace sluice::ir::predefined;
  using testing::ok;
  Module m(ShaderStage::Fragment);
  auto member = [](const char* name, TypeId t, Precision p) {
    return StructMember{name, t, {}, MatrixLayout::Default, {}, {}, {}, p};
  };
  const TypeId inner = m.intern(Type::make_struct("Inner", {member("x", kFloat, Precision::Medium)}));
  const TypeId params = m.intern(Type::make_struct(
      "Params",
      {member("scale", kFloat, Precision::Medium), member("on", kBool, Precision::Medium),
       member("bias", kVec2, Precision::Low), member("count", kInt, Precision::High),
       member("inner", inner, Precision::Medium)},
      true, BlockLayout::Std140));
  Builder b(m);
  Decorations at0;
  at0.location = 0;
  at0.binding = 0;
  const VariableId block = b.add_global({"params", NameSource::Interface}, params, StorageClass::Uniform, Precision::None);
  at0.binding.reset();
  const VariableId out = b.add_global({"result", NameSource::Interface}, kFloat, StorageClass::Output, Precision::High, at0);
  b.begin_function({"main", NameSource::Internal}, kVoid);
  const RegisterId field = ok(b.emit(Opcode::AccessStructField, {block, Operand::literal(4)}));
  const RegisterId x = ok(b.emit(Opcode::AccessStructField, {field, Operand::literal(0)}));
  ok(b.store(out, ok(b.load(x))));
  ok(b.terminate(Opcode::Return));

  const testing::Emitted e = testing::emit_checked(m, {});
  INFO(e.text);
  const Relaxed r = relaxed_of(e.words);
  CHECK(share(r.members.at({"Params", "scale"})) == "all");
  CHECK(share(r.members.at({"Params", "bias"})) == "all");
  CHECK(share(r.members.at({"Params", "on"})) == "none");     // a bool
  CHECK(share(r.members.at({"Params", "count"})) == "none");  // highp
  CHECK(share(r.members.at({"Params", "inner"})) == "none");  // a struct
  CHECK(share(r.members.at({"Inner", "x"})) == "all");
  int member_lines = 0;
  for (const std::string& line : testing::lines_with(e.text, "RelaxedPrecision"))
    member_lines += line.find("OpMemberDecorate") != std::string::npos;
  CHECK(member_lines == 3);
}

namespace {

struct Compiled {
  std::vector<std::uint32_t> glslang, sluice_words;
};

// Both compilations; false (with the reason) when either is refused.
bool compile_both(const std::string& source, ir::ShaderStage stage, bool automap, bool promote, Compiled& out,
                  std::string& why) {
  exec::GlslCompileOptions g;
  g.auto_map_locations = g.auto_map_bindings = automap;
  const auto exec_stage = stage == ir::ShaderStage::Vertex    ? exec::ShaderStage::Vertex
                          : stage == ir::ShaderStage::Compute ? exec::ShaderStage::Compute
                                                              : exec::ShaderStage::Fragment;
  auto reference = exec::compile_glsl(source, exec_stage, g);
  if (!reference) {
    why = reference.error();
    return false;
  }
  glsl_in::Options o;
  o.stage = stage;
  o.auto_map_locations = o.auto_map_bindings = automap;
  glsl_in::Result r = glsl_in::compile(source, "shader", o);
  if (!r.module) {
    why = "front end refused it";
    return false;
  }
  spirv::Options so;
  so.promote_to_ssa = promote;
  auto words = spirv::emit(*r.module, so);
  if (!words) {
    why = words.error();
    return false;
  }
  // The decorations must not make the module invalid. (Whether every corpus
  // shader's module is valid is the corpus runs' concern: a few are not, for
  // reasons that have nothing to do with precision, as docs/testing.md says.)
  for (const std::string& p : spirv::validate(*words, so.target)) {
    INFO(p);
    CHECK(p.find("RelaxedPrecision") == std::string::npos);
  }
  out = {std::move(*reference), std::move(*words)};
  return true;
}

// Checks Sluice's decorations against glslang's; with promotion, variables
// (which become SSA values) are not compared.
void check_same(const Compiled& c, bool compare_variables) {
  const Relaxed want = relaxed_of(c.glslang), got = relaxed_of(c.sluice_words);
  if (compare_variables) {
    for (const auto& [key, counts] : want.named) {
      auto it = got.named.find(key);
      if (it == got.named.end() || it->second.second != counts.second) continue;  // no single counterpart
      INFO(op_name(key.first) << " '" << key.second << "'");
      CHECK(it->second.first == counts.first);
    }
  }
  for (const auto& [key, counts] : want.members) {
    auto it = got.members.find(key);
    if (it == got.members.end()) continue;  // a struct only one compiler makes (gl_PerVertex)
    INFO("member '" << key.second << "' of '" << key.first << "'");
    CHECK(share(it->second) == share(counts));
  }
  std::set<spv::Op> ops;
  for (const auto& [op, n] : want.computations) ops.insert(op);
  for (const auto& [op, n] : got.computations) ops.insert(op);
  for (spv::Op op : ops) {
    INFO("decorated " << op_name(op) << " results");
    const auto w = want.computations.find(op), g = got.computations.find(op);
    CHECK((g == got.computations.end() ? 0 : g->second) == (w == want.computations.end() ? 0 : w->second));
  }
}

std::vector<std::string> corpus_shaders_with_precision() {
  std::vector<std::string> out;
  for (const char* dir : {"glsl", "glsl/automap"}) {
    const fs::path root = testing::corpus_dir(dir);
    for (const auto& e : fs::directory_iterator(root)) {
      const std::string p = e.path().string();
      if (!e.is_regular_file() || !glsl_in::stage_from_path(p)) continue;
      const std::string text = testing::read_file(p);
      if (text.find("mediump") != std::string::npos || text.find("lowp") != std::string::npos) out.push_back(p);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("RelaxedPrecision: the corpus shaders with lowp/mediump decorate as glslang's SPIR-V") {
  const auto shaders = corpus_shaders_with_precision();
  int compared = 0, decorated = 0, members_decorated = 0, members_decorated_by_glslang = 0;
  for (const std::string& path : shaders) {
    const bool automap = path.find("/automap/") != std::string::npos;
    for (bool promote : {false, true}) {
      INFO(path << (promote ? " (variables promoted to SSA)" : " (variables kept in memory)"));
      Compiled c;
      std::string why;
      if (!compile_both(testing::read_file(path), *glsl_in::stage_from_path(path), automap, promote, c, why)) {
        UNSCOPED_INFO("skipped: " << why);
        continue;
      }
      check_same(c, !promote);
      if (!promote) {
        ++compared;
        decorated += relaxed_of(c.sluice_words).total > 0;
        members_decorated += relaxed_of(c.sluice_words).member_total > 0;
        members_decorated_by_glslang += relaxed_of(c.glslang).member_total > 0;
      }
    }
  }
  WARN(compared << " corpus shaders compared, " << decorated << " with RelaxedPrecision, " << members_decorated
                << " of them on struct or block members (glslang: " << members_decorated_by_glslang << ")");
  CHECK(compared >= 15);
  CHECK(decorated >= 12);
  CHECK(members_decorated == members_decorated_by_glslang);
}

TEST_CASE("RelaxedPrecision: integers, functions, parameters and textures: never bools") {
  const std::string es = R"(#version 310 es
precision mediump float;
precision mediump int;
layout(location = 0) in vec4 color;
layout(location = 1) flat in int count;
layout(location = 0) out vec4 result;
layout(binding = 0) uniform sampler2D lowTexture;
layout(binding = 1) uniform highp sampler2D highTexture;
highp float twice(highp float x) { return x * 2.0; }
float scaled(float x, out float y) { y = x + 1.0; return x * 3.0; }
void main() {
  float a = color.x * 2.0;
  highp float b = a + 1.0;
  int i = count + 2;
  uint u = uint(i) * 3u;
  bool less = a < b;
  float y;
  vec4 t = texture(lowTexture, color.xy) + texture(highTexture, color.zw);
  result = vec4(a, b, float(i), less ? 1.0 : 0.0) + twice(b) + scaled(a, y) + t + vec4(y) + vec4(float(u));
})";
  Compiled c;
  std::string why;
  INFO(why);
  REQUIRE(compile_both(es, ir::ShaderStage::Fragment, false, false, c, why));
  check_same(c, true);
  const Relaxed got = relaxed_of(c.sluice_words);
  CHECK(got.computations.count(spv::Op::OpIAdd) == 1);  // mediump int
  CHECK(got.computations.count(spv::Op::OpIMul) == 1);  // mediump uint
  CHECK(got.computations.count(spv::Op::OpFOrdLessThan) == 0);  // bool
  CHECK(got.computations.count(spv::Op::OpImageSampleImplicitLod) == 1);  // the mediump sampler's only
  CHECK(got.named.at({spv::Op::OpFunction, "scaled"}).first == 1);
  CHECK(got.named.at({spv::Op::OpFunction, "twice"}).first == 0);
  CHECK(got.named.at({spv::Op::OpVariable, "a"}).first == 1);
  CHECK(got.named.at({spv::Op::OpVariable, "b"}).first == 0);
  CHECK(got.named.at({spv::Op::OpVariable, "less"}).first == 0);
}

TEST_CASE("RelaxedPrecision: lowp and mediump block and struct members get OpMemberDecorate as glslang's") {
  const std::string es = R"(#version 310 es
precision highp float;
precision highp int;
struct Light { mediump vec3 color; float range; bool on; };
layout(std140, binding = 0) uniform Params {
  mediump float scale;
  highp vec4 offset;
  lowp int steps;
  bool enabled;
  Light light;
  mediump mat2 turn;
};
layout(std430, binding = 1) buffer Results { mediump float values[]; };
layout(location = 0) out vec4 result;
void main() {
  Light local = light;
  local.range += 1.0;
  float s = enabled && local.on ? scale : 1.0;
  result = offset * s + vec4(local.color * local.range, float(steps)) + vec4(turn[0], values[0], 0.0);
  values[1] = s;
})";
  for (bool promote : {false, true}) {
    Compiled c;
    std::string why;
    INFO(why);
    REQUIRE(compile_both(es, ir::ShaderStage::Fragment, false, promote, c, why));
    check_same(c, !promote);
    const Relaxed got = relaxed_of(c.sluice_words), want = relaxed_of(c.glslang);
    using Key = std::pair<std::string, std::string>;
    for (const Key& relaxed : {Key{"Params", "scale"}, Key{"Params", "steps"}, Key{"Params", "turn"},
                               Key{"Light", "color"}, Key{"Results", "values"}}) {
      INFO("member '" << relaxed.second << "' of '" << relaxed.first << "'");
      CHECK(share(got.members.at(relaxed)) == "all");
      CHECK(share(want.members.at(relaxed)) == "all");
    }
    for (const Key& plain : {Key{"Params", "offset"}, Key{"Params", "enabled"}, Key{"Params", "light"},
                             Key{"Light", "range"}, Key{"Light", "on"}}) {
      INFO("member '" << plain.second << "' of '" << plain.first << "'");
      CHECK(share(got.members.at(plain)) == "none");
      CHECK(share(want.members.at(plain)) == "none");
    }
  }
}

TEST_CASE("RelaxedPrecision: desktop GLSL only where a precision qualifier is in effect") {
  const std::string plain = R"(#version 450
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 result;
void main() { result = color * 2.0 + vec4(1.0); })";
  const std::string qualified = R"(#version 450
precision mediump float;
layout(location = 0) in vec4 color;
layout(location = 0) out highp vec4 result;
void main() { result = color * 2.0 + vec4(1.0); })";
  for (const std::string* source : {&plain, &qualified}) {
    Compiled c;
    std::string why;
    INFO(*source << "\n" << why);
    REQUIRE(compile_both(*source, ir::ShaderStage::Fragment, false, true, c, why));
    check_same(c, false);
    CHECK((relaxed_of(c.sluice_words).total > 0) == (source == &qualified));
    CHECK((relaxed_of(c.sluice_words).total > 0) == (relaxed_of(c.glslang).total > 0));
  }
}
