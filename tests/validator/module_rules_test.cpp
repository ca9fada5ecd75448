// Module-level rules: the type, constant, register and variable tables,
// globals, function signatures, the entry point and the call graph. Every
// test builds a valid module, checks it validates, then breaks one rule.
#include <fmt/format.h>

#include "validator/validator_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using sluice::testing::must;
using sluice::testing::require_only_problem;
using sluice::testing::require_valid;
using sluice::testing::ShaderFixture;

namespace {

// A valid shader whose main returns at once.
struct EmptyShader : ShaderFixture {
  EmptyShader() {
    end(Opcode::Return);
    require_valid(m);
  }
};

std::string t(TypeId id) { return fmt::format("t{}", id.index()); }

StructMember member(std::string name, TypeId type) {
  StructMember m;
  m.name = std::move(name);
  m.type = type;
  return m;
}

}  // namespace

TEST_CASE("types: parts are earlier types", "[validator][module]") {
  EmptyShader s;
  const TypeId bad = s.m.intern(Type::make_array(TypeId(999), 2));
  require_only_problem(s.m, t(bad) + ": refers to t999, which is not an earlier type");
}

TEST_CASE("types: vectors hold 2 to 4 scalars", "[validator][module]") {
  EmptyShader s;
  SECTION("size") {
    const TypeId bad = s.m.intern(Type::make_vector(kFloat, 5));
    require_only_problem(s.m, t(bad) + ": vector of 5 components; vectors have 2 to 4");
  }
  SECTION("component") {
    const TypeId bad = s.m.intern(Type::make_vector(kVec2, 2));
    require_only_problem(s.m, t(bad) + ": vector of t5; vector components must be scalars");
  }
}

TEST_CASE("types: matrices have 2 to 4 float vector columns", "[validator][module]") {
  EmptyShader s;
  SECTION("column type") {
    const TypeId bad = s.m.intern(Type::make_matrix(kIVec2, 2));
    require_only_problem(s.m, t(bad) + ": matrix column t8 is not a float vector");
  }
  SECTION("column count") {
    const TypeId bad = s.m.intern(Type::make_matrix(kVec3, 1));
    require_only_problem(s.m, t(bad) + ": matrix of 1 columns; matrices have 2 to 4");
  }
}

TEST_CASE("types: arrays hold at least one storable element", "[validator][module]") {
  EmptyShader s;
  SECTION("empty") {
    const TypeId bad = s.m.intern(Type::make_array(kFloat, 0));
    require_only_problem(s.m, t(bad) + ": array of 0 elements");
  }
  SECTION("void") {
    const TypeId bad = s.m.intern(Type::make_array(kVoid, 3));
    require_only_problem(s.m, t(bad) + ": array element t0 is void");
  }
}

TEST_CASE("types: an unsized array is only the last member of a block", "[validator][module]") {
  EmptyShader s;
  const TypeId unsized = s.m.intern(Type::make_unsized_array(kFloat));
  const TypeId block = s.m.intern(Type::make_struct("Data", {member("count", kInt), member("values", unsized)}, true));
  require_valid(s.m);
  SECTION("not last") {
    const TypeId bad = s.m.intern(Type::make_struct("Bad", {member("values", unsized), member("count", kInt)}, true));
    require_only_problem(s.m, t(bad) + ": member 'values' is an unsized array but not the last member of a block");
  }
  SECTION("not in a block") {
    const TypeId bad = s.m.intern(Type::make_struct("Plain", {member("count", kInt), member("values", unsized)}));
    require_only_problem(s.m, t(bad) + ": member 'values' is an unsized array but not the last member of a block");
  }
  SECTION("as an array element") {
    const TypeId bad = s.m.intern(Type::make_array(unsized, 2));
    require_only_problem(s.m,
                         t(bad) + ": array of an unsized array; an unsized array is only the last member of a block");
  }
  (void)block;
}

TEST_CASE("types: pointers point to values", "[validator][module]") {
  EmptyShader s;
  const TypeId bad = s.m.intern(Type::make_pointer(kVoid, StorageClass::Function));
  require_only_problem(s.m, t(bad) + ": pointer to void");
}

TEST_CASE("types: sampled images wrap sampled image types", "[validator][module]") {
  EmptyShader s;
  ImageDescriptor storage_image;
  storage_image.storage = true;
  const TypeId image = s.m.intern(Type::make_image(storage_image));
  const TypeId bad = s.m.intern(Type::make_sampled_image(image));
  require_only_problem(s.m, t(bad) + ": sampled image of " + t(image) + ", which is not a sampled image type");
}

TEST_CASE("types: nesting is bounded", "[validator][module]") {
  EmptyShader s;
  std::vector<TypeId> chain;
  TypeId element = kFloat;
  for (int depth = 1; depth <= 70; ++depth) {
    element = s.m.intern(Type::make_array(element, 2));
    chain.push_back(element);
  }
  // chain[k] nests k + 1 arrays; the first past the limit of 64 is reported,
  // the ones built on it are unusable without further messages.
  require_only_problem(s.m, t(chain[64]) + ": nests types more than 64 deep");
}

TEST_CASE("constants: components match the constant's type", "[validator][module]") {
  EmptyShader s;
  SECTION("count") {
    const ConstantId parts[] = {kFloatOne};
    const ConstantId bad = s.m.composite_constant(kVec2, parts);
    require_only_problem(s.m, fmt::format("c{}: vec2 constant has 1 components, expected 2", bad.index()));
  }
  SECTION("type") {
    const ConstantId parts[] = {kFloatOne, kIntOne};
    const ConstantId bad = s.m.composite_constant(kVec2, parts);
    require_only_problem(s.m, fmt::format("c{}: component 1 has type int, expected float", bad.index()));
  }
  SECTION("earlier constants only") {
    const ConstantId parts[] = {kFloatOne, ConstantId(500)};
    const ConstantId bad = s.m.composite_constant(kVec2, parts);
    require_only_problem(s.m, fmt::format("c{}: component 1 is c500, which is not an earlier constant", bad.index()));
  }
  SECTION("scalars have no components") {
    const ConstantId bad = s.m.intern(Constant{kFloat, 0, {kFloatOne}, {}});
    require_only_problem(s.m, fmt::format("c{}: scalar constant of type float has components", bad.index()));
  }
  SECTION("constant types") {
    const TypeId pointer = s.m.pointer_type(kVec4, StorageClass::Output);
    const ConstantId bad = s.m.intern(Constant{pointer, 0, {}, {}});
    require_only_problem(s.m, fmt::format("c{}: a constant cannot have type ptr<Output, vec4>", bad.index()));
  }
  SECTION("type exists") {
    const ConstantId bad = s.m.intern(Constant{TypeId(999), 0, {}, {}});
    require_only_problem(s.m, fmt::format("c{}: type t999 does not exist", bad.index()));
  }
}

TEST_CASE("registers: a register holds a value of an existing type", "[validator][module]") {
  ShaderFixture s;
  const RegisterId loaded = s.load_scale();
  s.store_color(loaded);
  s.end(Opcode::Return);
  require_valid(s.m);
  SECTION("void") {
    s.m.reg(loaded).type = kVoid;
    auto p = require_only_problem(s.m, fmt::format("r{} has type void; registers always hold a value", loaded.index()));
    CHECK(p.instruction == 0);  // where it is defined
  }
  SECTION("missing type") {
    s.m.reg(loaded).type = TypeId(999);
    require_only_problem(s.m, fmt::format("r{} has type t999, which does not exist", loaded.index()));
  }
  SECTION("unreferenced registers are not checked") {
    s.m.new_register(kVoid);  // e.g. the placeholder of a register the text form does not spell
    require_valid(s.m);
  }
}

TEST_CASE("variables: pointer types and initializers of the pointee type", "[validator][module]") {
  EmptyShader s;
  SECTION("pointer") {
    Variable v;
    v.type = kFloat;
    const VariableId bad = s.m.add_variable(v);
    require_only_problem(s.m,
                         fmt::format("v{}: type float is not a pointer; variables are always pointers", bad.index()));
  }
  SECTION("initializer type") {
    s.m.variable(s.scale).initializer = kIntOne;
    require_only_problem(s.m, fmt::format("v{}: initializer c{} has type int, but the variable holds float",
                                          s.scale.index(), kIntOne.index()));
  }
  SECTION("initializer exists") {
    s.m.variable(s.scale).initializer = ConstantId(400);
    require_only_problem(s.m, fmt::format("v{}: initializer c400 does not exist", s.scale.index()));
  }
}

TEST_CASE("variables: a push constant is a block", "[validator][module]") {
  EmptyShader s;
  const TypeId plain = s.m.intern(Type::make_struct("P", {member("x", kFloat)}));
  SECTION("a block is valid") {
    const TypeId block = s.m.intern(Type::make_struct("P", {member("x", kFloat)}, true));
    s.b.add_global({"push", NameSource::Interface}, block, StorageClass::PushConstant);
    require_valid(s.m);
  }
  SECTION("a struct without [block]") {
    const VariableId bad = s.b.add_global({"push", NameSource::Interface}, plain, StorageClass::PushConstant);
    require_only_problem(s.m, fmt::format("v{}: a PushConstant variable must be a block (a struct marked [block]), "
                                          "not struct P",
                                          bad.index()));
  }
  SECTION("a scalar") {
    const VariableId bad = s.b.add_global({"push", NameSource::Interface}, kFloat, StorageClass::PushConstant);
    require_only_problem(
        s.m, fmt::format("v{}: a PushConstant variable must be a block (a struct marked [block]), not float", bad.index()));
  }
}

TEST_CASE("globals: exist, are listed once and are not Function storage", "[validator][module]") {
  EmptyShader s;
  SECTION("Function storage") {
    VariableId local = s.b.add_global({"g", NameSource::Temporary}, kFloat, StorageClass::Function);
    require_only_problem(s.m, fmt::format("Globals: v{} has Function storage; globals live in the other storage "
                                          "classes",
                                          local.index()));
  }
  SECTION("listed twice") {
    s.m.globals().push_back(s.color);
    require_only_problem(s.m, fmt::format("Globals: v{} is listed twice", s.color.index()));
  }
  SECTION("exists") {
    s.m.globals().push_back(VariableId(77));
    require_only_problem(s.m, "Globals: v77 does not exist");
  }
}

TEST_CASE("functions: parameters are Function-storage variables", "[validator][module]") {
  EmptyShader s;
  FunctionId f = s.b.begin_function({"f", NameSource::Internal}, kVoid);
  VariableId p = s.b.add_parameter(f, {"p", NameSource::Temporary}, kFloat, ParamDirection::In);
  s.end(Opcode::Return);
  require_valid(s.m);
  SECTION("storage") {
    s.m.variable(p).type = s.m.pointer_type(kFloat, StorageClass::Output);
    auto problem = require_only_problem(
        s.m, fmt::format("parameter v{} has Output storage; parameters are Function-storage variables", p.index()));
    CHECK(problem.function == f);
  }
  SECTION("declared once") {
    s.m.function(f).params.push_back(s.m.function(f).params[0]);
    require_only_problem(s.m, fmt::format("parameter v{} is already a global or a parameter", p.index()));
  }
  SECTION("exists") {
    s.m.function(f).params[0].variable = VariableId(500);
    require_only_problem(s.m, "parameter v500 does not exist");
  }
}

TEST_CASE("functions: return types exist and are values", "[validator][module]") {
  EmptyShader s;
  FunctionId f = s.b.begin_function({"f", NameSource::Internal}, kVoid);
  s.end(Opcode::Return);
  require_valid(s.m);
  SECTION("exists") {
    s.m.function(f).return_type = TypeId(300);
    require_only_problem(s.m, "return type t300 does not exist");
  }
  SECTION("not a pointer") {
    s.m.function(f).return_type = s.m.pointer_type(kFloat, StorageClass::Function);
    auto problems = validator::validate(s.m);
    REQUIRE(!problems.empty());
    CHECK(problems[0].message == "returns ptr<Function, float>; functions return values");
  }
}

TEST_CASE("entry point: one void main() without parameters", "[validator][module]") {
  EmptyShader s;
  SECTION("missing") {
    s.fn().name.text = "start";
    require_only_problem(s.m, "no entry point: no function is named 'main'");
  }
  SECTION("twice") {
    FunctionId other = s.b.begin_function({"main", NameSource::Internal}, kVoid);
    s.end(Opcode::Return);
    require_only_problem(
        s.m, fmt::format("f{} and f{} are both named 'main'; there is one entry point", s.main.index(), other.index()));
  }
  SECTION("returns a value") {
    ShaderFixture f;
    f.m.function(f.main).return_type = kFloat;
    f.end(Opcode::Return, kFloatOne);
    require_only_problem(f.m, "the entry point returns float; it must return void");
  }
  SECTION("takes parameters") {
    ShaderFixture f;
    f.b.add_parameter(f.main, {"x", NameSource::Temporary}, kFloat, ParamDirection::In);
    f.end(Opcode::Return);
    require_only_problem(f.m, "the entry point takes 1 parameters; it must take none");
  }
  SECTION("an empty module needs none") {
    Module empty;
    require_valid(empty);
  }
}

TEST_CASE("functions: no recursion", "[validator][module]") {
  ShaderFixture s;
  // a() is made first so that main can call it; b() after it.
  Function a_function;
  a_function.name = {"a", NameSource::Internal};
  a_function.return_type = kVoid;
  a_function.entry = a_function.add_block();
  const FunctionId a = s.m.add_function(std::move(a_function));
  const Operand call_a[] = {a};
  must(s.b.emit(Opcode::Call, call_a));
  s.end(Opcode::Return);
  const FunctionId b = s.b.begin_function({"b", NameSource::Internal}, kVoid);
  s.end(Opcode::Return);
  s.b.set_function(a);
  s.b.set_block(s.m.function(a).entry);
  const Operand call_b[] = {b};
  must(s.b.emit(Opcode::Call, call_b));
  s.end(Opcode::Return);
  require_valid(s.m);
  SECTION("self") {
    s.m.function(a).block(s.m.function(a).entry).instructions[0].operands[0] = a;
    require_only_problem(s.m, fmt::format("recursion is not allowed: call cycle f{0} 'a' -> f{0} 'a'", a.index()));
  }
  SECTION("through another function") {
    Block& b_entry = s.m.function(b).block(s.m.function(b).entry);
    b_entry.instructions.insert(b_entry.instructions.begin(),
                                s.m.function(a).block(s.m.function(a).entry).instructions[0]);
    b_entry.instructions[0].operands[0] = a;
    require_only_problem(s.m, fmt::format("recursion is not allowed: call cycle f{0} 'a' -> f{1} 'b' -> f{0} 'a'",
                                          a.index(), b.index()));
  }
}
