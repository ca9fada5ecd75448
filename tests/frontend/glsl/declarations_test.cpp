// Declarations: interface variables with their storage classes and
// decorations, blocks and layouts, push constants, samplers and images,
// shared variables, specialization constants, built-ins, globals with
// initializers, locals and precision.
#include "glsl_test_util.h"

using namespace sluice;
using namespace sluice::ir;

using testing::pointee_type;
using testing::variable_named;

namespace {

StorageClass storage_of(const Module& m, const Variable& v) { return m.type(v.type).storage; }

}  // namespace

TEST_CASE("inputs and outputs keep locations and interpolation, built-ins become built-in variables") {
  const Module m = testing::compile_valid(R"(#version 450
layout(location = 2) in vec4 pos;
layout(location = 3) flat out int id;
layout(location = 4) noperspective centroid out vec2 uv;
layout(location = 1) out vec4 varying_out;
void main() {
  gl_Position = pos;
  gl_PointSize = 2.0;
  id = gl_VertexIndex;
  uv = pos.xy;
  varying_out = vec4(float(gl_InstanceIndex));
}
)",
                                          "io.vert");
  const Variable* pos = variable_named(m, "pos");
  REQUIRE(pos);
  CHECK(storage_of(m, *pos) == StorageClass::Input);
  CHECK(pos->name.source == NameSource::Interface);
  CHECK(pos->decorations.location == 2u);
  const Variable* id = variable_named(m, "id");
  REQUIRE(id);
  CHECK(id->decorations.interpolation == Interpolation::Flat);
  const Variable* uv = variable_named(m, "uv");
  REQUIRE(uv);
  CHECK(uv->decorations.interpolation == Interpolation::NoPerspective);
  CHECK(uv->decorations.centroid);
  const Variable* out = variable_named(m, "varying_out");
  REQUIRE(out);
  CHECK(storage_of(m, *out) == StorageClass::Output);
  CHECK(out->decorations.location == 1u);
  // gl_PerVertex members are separate built-in outputs.
  const Variable* position = variable_named(m, "gl_Position");
  REQUIRE(position);
  CHECK(position->decorations.built_in == "Position");
  CHECK(storage_of(m, *position) == StorageClass::Output);
  const Variable* size = variable_named(m, "gl_PointSize");
  REQUIRE(size);
  CHECK(size->decorations.built_in == "PointSize");
  const Variable* index = variable_named(m, "gl_VertexIndex");
  REQUIRE(index);
  CHECK(index->decorations.built_in == "VertexIndex");
  CHECK(storage_of(m, *index) == StorageClass::Input);
  CHECK(variable_named(m, "gl_InstanceIndex")->decorations.built_in == "InstanceIndex");
}

TEST_CASE("fragment built-ins, and gl_FragColor as output 0") {
  const Module m = testing::compile_valid(R"(#version 140
void main() {
  gl_FragColor = gl_FragCoord * (gl_FrontFacing ? 1.0 : 0.5);
  gl_FragDepth = 0.5;
}
)");
  CHECK(variable_named(m, "gl_FragCoord")->decorations.built_in == "FragCoord");
  CHECK(variable_named(m, "gl_FrontFacing")->decorations.built_in == "FrontFacing");
  CHECK(variable_named(m, "gl_FragDepth")->decorations.built_in == "FragDepth");
  CHECK(m.shader().depth_replacing);
  const Variable* color = variable_named(m, "gl_FragColor");
  REQUIRE(color);
  CHECK(color->decorations.built_in.empty());
  CHECK(color->decorations.location == 0u);
}

TEST_CASE("uniform and buffer blocks, push constants, samplers, images and shared variables") {
  const Module m = testing::compile_valid(R"(#version 450
layout(local_size_x = 8, local_size_y = 2) in;
struct Light { vec3 dir; float power; };
layout(set = 1, binding = 2, std140) uniform Params { mat4 transform; Light lights[2]; } params;
layout(set = 0, binding = 3, std430) buffer Data { uint count; vec4 items[]; } data;
layout(push_constant) uniform Push { float scale; } push;
layout(set = 0, binding = 4) uniform sampler2D tex;
layout(set = 0, binding = 5, rgba8) uniform writeonly image2D img;
shared float scratch[8];
void main() {
  uint i = gl_LocalInvocationIndex;
  scratch[i] = params.lights[1].power * push.scale;
  barrier();
  data.items[i] = params.transform * vec4(scratch[(i + 1u) % 8u]) + textureLod(tex, vec2(0.5), 0.0);
  atomicAdd(data.count, 1u);
  imageStore(img, ivec2(gl_GlobalInvocationID.xy), vec4(float(data.items.length())));
}
)",
                                          "resources.comp");
  CHECK(m.shader().local_size == std::array<std::uint32_t, 3>{8, 2, 1});
  const Variable* params = variable_named(m, "params");
  REQUIRE(params);
  CHECK(storage_of(m, *params) == StorageClass::Uniform);
  CHECK(params->decorations.set == 1u);
  CHECK(params->decorations.binding == 2u);
  const Type& pt = pointee_type(m, *params);
  CHECK(pt.is_block);
  CHECK(pt.layout == BlockLayout::Std140);
  CHECK(pt.name == "Params");
  const Variable* data = variable_named(m, "data");
  REQUIRE(data);
  CHECK(storage_of(m, *data) == StorageClass::StorageBuffer);
  const Type& dt = pointee_type(m, *data);
  CHECK(dt.layout == BlockLayout::Std430);
  CHECK(m.type(dt.members.back().type).kind == TypeKind::UnsizedArray);
  const Variable* push = variable_named(m, "push");
  REQUIRE(push);
  CHECK(storage_of(m, *push) == StorageClass::PushConstant);
  const Variable* tex = variable_named(m, "tex");
  REQUIRE(tex);
  CHECK(storage_of(m, *tex) == StorageClass::UniformConstant);
  CHECK(pointee_type(m, *tex).kind == TypeKind::SampledImage);
  const Variable* img = variable_named(m, "img");
  REQUIRE(img);
  CHECK(pointee_type(m, *img).image.storage);
  CHECK(pointee_type(m, *img).image.format == "rgba8");
  CHECK(img->decorations.writeonly);
  const Variable* scratch = variable_named(m, "scratch");
  REQUIRE(scratch);
  CHECK(storage_of(m, *scratch) == StorageClass::Workgroup);
  CHECK(variable_named(m, "gl_GlobalInvocationID")->decorations.built_in == "GlobalInvocationId");
  CHECK(testing::count(m, Opcode::ControlBarrier) == 1);
  CHECK(testing::count(m, Opcode::AtomicAdd) == 1);
  CHECK(testing::count(m, Opcode::ImageStore) == 1);
  CHECK(testing::count(m, Opcode::ArrayLength) == 1);
}

TEST_CASE("specialization constants are constants with their ids") {
  const Module m = testing::compile_valid(R"(#version 450
layout(constant_id = 7) const float k = 2.5;
layout(constant_id = 8) const bool flag = true;
layout(location = 0) out vec4 c;
void main() { c = flag ? vec4(k) : vec4(0.0); }
)");
  std::size_t spec = 0;
  for (std::uint32_t i = 0; i < m.constant_count(); ++i) {
    const Constant& c = m.constant(ConstantId(i));
    if (!c.spec_id) continue;
    ++spec;
    if (*c.spec_id == 7) CHECK(c.as_float() == 2.5f);
    if (*c.spec_id == 8) CHECK(c.as_bool());
  }
  CHECK(spec == 2);
}

TEST_CASE("globals with constant initializers keep them, others are set at the start of main") {
  const Module m = testing::compile_valid(R"(#version 450
layout(location = 0) in float a;
layout(location = 0) out vec4 c;
float g = 3.0;
float h = a * 2.0;
void main() { c = vec4(g, h, 0.0, 1.0); }
)");
  const Variable* g = variable_named(m, "g");
  REQUIRE(g);
  CHECK(storage_of(m, *g) == StorageClass::Private);
  REQUIRE(g->initializer.valid());
  CHECK(m.constant(g->initializer).as_float() == 3.0f);
  const Variable* h = variable_named(m, "h");
  REQUIRE(h);
  CHECK_FALSE(h->initializer.valid());
  // h's store is the first in main's entry block.
  const Function& main = m.function(m.entry_point());
  const auto stores = testing::find_all(main, Opcode::Store);
  REQUIRE_FALSE(stores.empty());
  CHECK(stores[0].instruction->operands[0] == Operand(VariableId(static_cast<std::uint32_t>(h - &m.variable(VariableId(0))))));
}

TEST_CASE("precision qualifiers are recorded on variables and results, as in the ANGLE IR") {
  const Module m = testing::compile_valid(R"(#version 310 es
precision mediump float;
layout(location = 0) in highp vec2 uv;
layout(location = 0) out lowp vec4 c;
void main() { float x = uv.x * 2.0; c = vec4(x); }
)");
  CHECK(variable_named(m, "uv")->precision == Precision::High);
  CHECK(variable_named(m, "c")->precision == Precision::Low);
  CHECK(variable_named(m, "x")->precision == Precision::Medium);
  const Function& main = m.function(m.entry_point());
  const auto muls = testing::find_all(main, Opcode::Mul);
  REQUIRE(muls.size() == 1);
  CHECK(m.reg(muls[0].instruction->result).precision == Precision::High);
}

TEST_CASE("struct and block members keep their precision: desktop built-ins theirs as declared") {
  const Module es = testing::compile_valid(R"(#version 310 es
precision highp float;
struct Light { mediump vec3 tint; bool on; };
layout(std140, binding = 0) uniform Params { lowp int steps; float gain; Light light; };
layout(location = 0) out vec4 c;
void main() { c = vec4(light.tint * gain, float(steps)); }
)");
  int structs = 0;
  for (std::uint32_t i = 0; i < es.type_count(); ++i) {
    const Type& t = es.type(TypeId(i));
    structs += t.name == "Light" || t.name == "Params";
    if (t.name == "Light") {
      CHECK(t.members[0].precision == Precision::Medium);
      CHECK(t.members[1].precision == Precision::None);  // a bool
    } else if (t.name == "Params") {
      CHECK(t.members[0].precision == Precision::Low);
      CHECK(t.members[1].precision == Precision::High);  // the default
      CHECK(t.members[2].precision == Precision::None);  // a struct
    }
  }
  CHECK(structs == 2);
  auto precision_of = [](const Module& m, std::string_view name) {
    const Variable* v = variable_named(m, name);
    INFO(name);
    REQUIRE(v);
    return v->precision;
  };
  // glslang gives gl_Position's node the highp of what is stored to it; the
  // built-in is declared without precision. gl_FragColor becomes a user
  // output, highp as any under Vulkan.
  const Module vert = testing::compile_valid(R"(#version 140
in vec4 color;
void main() { gl_Position = color; }
)",
                                             "builtin.vert");
  CHECK(precision_of(vert, "color") == Precision::High);
  CHECK(precision_of(vert, "gl_Position") == Precision::None);
  const Module frag = testing::compile_valid(R"(#version 140
precision mediump float;
in vec4 color;
void main() { gl_FragColor = vec4(1.0); }
)",
                                             "builtin.frag");
  CHECK(precision_of(frag, "gl_FragColor") == Precision::High);
  // A lowp/mediump glslang gave the node is kept: glslang decorates by it.
  const Module relaxed = testing::compile_valid(R"(#version 140
precision mediump float;
in vec4 color;
void main() { gl_FragColor = color * 2.0; }
)",
                                                "relaxed.frag");
  CHECK(precision_of(relaxed, "gl_FragColor") == Precision::Medium);
}

TEST_CASE("locals are declared in the entry block, a loop's local is stored on every iteration") {
  const Module m = testing::compile_valid(R"(#version 450
layout(location = 0) flat in int n;
layout(location = 0) out vec4 c;
void main() {
  for (int i = 0; i < n; ++i) { float t = 1.0; t += float(i); c.x += t; }
}
)");
  const Function& main = m.function(m.entry_point());
  std::size_t declared_elsewhere = 0;
  visit(main, [&](const BlockVisit& v, const Block& b) {
    if (v.kind != BlockKind::FunctionEntry) declared_elsewhere += b.declarations.size();
    return VisitAction::VisitSubBlocks;
  });
  CHECK(declared_elsewhere == 0);
  CHECK(main.block(main.entry).declarations.size() == 2);
  const Variable* t = variable_named(m, "t");
  REQUIRE(t);
  CHECK_FALSE(t->initializer.valid());  // its `= 1.0` runs in the loop body
  bool stored_in_body = false;
  for (const auto& s : testing::find_all(main, Opcode::Store))
    stored_in_body |= s.kind == BlockKind::LoopBody && s.instruction->operands[1] == Operand(predefined::kFloatOne);
  CHECK(stored_in_body);
}

TEST_CASE("OpenGL client: uniforms outside blocks are accepted") {
  glsl_in::Options gl = testing::automap();
  gl.vulkan = false;
  const std::string source = "#version 450\nuniform float scale;\nlayout(location = 0) out vec4 c;\n"
                             "void main() { c = vec4(scale); }\n";
  CHECK_FALSE(glsl_in::compile(source, "gl.frag", testing::automap()).module.has_value());
  const Module m = testing::compile_valid(source, "gl.frag", gl);
  const Variable* scale = variable_named(m, "scale");
  REQUIRE(scale);
  CHECK(storage_of(m, *scale) == StorageClass::UniformConstant);
}

TEST_CASE("explicit locations on block members fold into the block's location when they follow in order") {
  const Module m = testing::compile_valid(R"(#version 450
layout(location = 0) in vec4 p;
out Block { layout(location = 3) vec4 a; layout(location = 4) mat2 b; layout(location = 6) float c; } blk;
void main() { blk.a = p; blk.b = mat2(p); blk.c = p.x; gl_Position = p; }
)",
                                          "blocks.vert");
  const Variable* blk = variable_named(m, "blk");
  REQUIRE(blk);
  CHECK(blk->decorations.location == 3u);  // a at 3, b at 4 and 5, c at 6
  // Out of order, the members keep their own locations and the block none
  // (the form Vulkan requires: VUID-StandaloneSpirv-Location-04918/04919).
  const Module gap = testing::compile_valid(R"(#version 450
layout(location = 0) in vec4 p;
out Block { layout(location = 3) vec4 a; layout(location = 9) float c; } blk;
void main() { blk.a = p; blk.c = p.x; gl_Position = p; }
)",
                                            "blocks.vert");
  const Variable* gapped = variable_named(gap, "blk");
  REQUIRE(gapped);
  CHECK_FALSE(gapped->decorations.location.has_value());
}

TEST_CASE("an input block whose members differ in interpolation becomes one variable per member") {
  const Module m = testing::compile_valid(R"(#version 450
layout(location = 0) out vec4 color;
layout(location = 2) in Vertex { vec4 tint; vec2 uv; flat int id; } v;
layout(location = 5) in Same { flat int a; flat ivec2 b; } same;
void main() { color = v.tint * v.uv.x + vec4(float(v.id + same.a + same.b.y)); }
)");
  const Variable* tint = variable_named(m, "v_tint");
  const Variable* uv = variable_named(m, "v_uv");
  const Variable* id = variable_named(m, "v_id");
  REQUIRE(tint);
  REQUIRE(uv);
  REQUIRE(id);
  CHECK(tint->decorations.location == 2u);
  CHECK(uv->decorations.location == 3u);
  CHECK(id->decorations.location == 4u);
  CHECK(tint->decorations.interpolation == Interpolation::Smooth);
  CHECK(uv->decorations.interpolation == Interpolation::Smooth);
  CHECK(id->decorations.interpolation == Interpolation::Flat);
  CHECK(variable_named(m, "v") == nullptr);
  // Nor is the split block's struct type made: nothing would use it.
  for (std::uint32_t i = 0; i < m.type_count(); ++i) CHECK(m.type(TypeId(i)).name != "Vertex");
  // Members that agree keep their block, with their interpolation.
  const Variable* s = variable_named(m, "same");
  REQUIRE(s);
  CHECK(pointee_type(m, *s).is_block);
  CHECK(s->decorations.interpolation == Interpolation::Flat);
}

TEST_CASE("a const local with a run-time initializer is its value: in a switch case, a variable") {
  const Module m = testing::compile_valid(R"(#version 450
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 color;
void main() {
  const vec4 twice = v * 2.0;
  color = twice + twice.x;
}
)");
  CHECK(variable_named(m, "twice") == nullptr);
  CHECK(testing::count(m, Opcode::Store) == 1);  // color only
  CHECK(testing::count(m, Opcode::VectorTimesScalar) == 1);
  // Later cases see a case's declarations: a value defined in one would not
  // dominate them.
  const Module s = testing::compile_valid(R"(#version 450
layout(location = 0) flat in int n;
layout(location = 0) out vec4 color;
void main() {
  switch (n) {
    case 0:
      const int k = n * 3;
      color = vec4(k);
      break;
    default:
      if (n > 4) { const int j = n + 1; color = vec4(j); }
  }
}
)");
  CHECK(variable_named(s, "k") != nullptr);
  CHECK(variable_named(s, "j") == nullptr);  // inside an if: seen there only
  // An array indexed at run time is read through memory; a local declared
  // mediump keeps its own precision apart from a highp initializer's.
  const Module a = testing::compile_valid(R"(#version 450
layout(location = 0) in vec4 v;
layout(location = 1) flat in int n;
layout(location = 0) out vec4 color;
void main() {
  const float w[3] = float[3](v.x, v.y, v.z);
  const mediump float half_x = v.x * 0.5;
  const highp float same = v.y * 0.5;
  color = vec4(w[n] + half_x + same);
}
)");
  CHECK(variable_named(a, "w") != nullptr);
  CHECK(variable_named(a, "half_x") != nullptr);
  CHECK(variable_named(a, "same") == nullptr);
}
