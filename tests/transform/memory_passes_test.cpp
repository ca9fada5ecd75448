// The -O1 passes on memory and control flow, before and after in the IR
// text form: eliminate-dead-stores, replace-uninitialized-loads, forward-stores,
// lower-increments, convert-ifs.
#include <catch2/catch.hpp>

#include "text_form_util.h"
#include "transform/pointer_roots.h"

using namespace sluice;
using sluice::testing::TextModule;

namespace {

// in float x; out float o; float g (Private); main's locals a (float), i (int).
TextModule shader(const std::string& body) {
  TextModule t;
  t.types =
      "  t26: Pointer to t1 in Input\n"
      "  t27: Pointer to t1 in Output\n"
      "  t28: Pointer to t1 in Private\n"
      "  t29: Pointer to t1\n"
      "  t30: Pointer to t2\n";
  t.variables =
      "  v0 (t26): '_ux' [highp, input, location=0]\n"
      "  v1 (t27): '_uo' [highp, output, location=0]\n"
      "  v2 (t28): 'tg_2' [highp, private]\n"
      "  v3 (t29): 'ta_3' [highp]\n"
      "  v4 (t30): 'ti_4' [highp]\n";
  t.globals = " v0, v1, v2";
  t.functions = "\n  f0: 'main'() -> t0\n\n    __________________\n    Entry To Function:\n" + body;
  return t;
}

// `x = v0; if (x > 0.0)` up to the true block's first instruction.
const std::string kIfOnX =
    "    r0   (t1) =    Load v0                                       [highp]\n"
    "    r1   (t4) =    GreaterThan r0 c2[highp]\n"
    "                   If r1\n"
    "    |\n"
    "    +-> ______________\n"
    "    |   If True Block:\n";

}  // namespace

TEST_CASE("dead-stores: stores nobody reads go, with the reads that only fed them") {
  // a is read only to compute what is stored back into it, g is a counter
  // nobody reads, i is incremented and never read: all dead.
  const TextModule before = shader(
      "    Declare: v3, v4\n"
      "    r0   (t1) =    Load v0                                       [highp]\n"
      "                   Store v3 r0\n"
      "    r1   (t1) =    Load v3                                       [highp]\n"
      "    r2   (t1) =    Mul r1 r1                                     [highp]\n"
      "                   Store v3 r2\n"
      "    r3   (t1) =    Load v2                                       [highp]\n"
      "    r4   (t1) =    Add r3 c3                                     [highp]\n"
      "                   Store v2 r4\n"
      "    r5   (t2) =    PostfixIncrement v4                           [highp]\n"
      "                   Store v1 r0\n"
      "                   Return\n");
  const TextModule after = shader(
      "    Declare: v3, v4\n"
      "    r0   (t1) =    Load v0                                       [highp]\n"
      "                   Store v1 r0\n"
      "                   Return\n");
  CHECK(testing::check_before_after("eliminate-dead-stores", before, after));
}

TEST_CASE("dead-stores: a store something reads stays, and outputs always do") {
  const TextModule live = shader(
      "    Declare: v3\n"
      "    r0   (t1) =    Load v0                                       [highp]\n"
      "                   Store v3 r0\n"
      "                   Store v2 r0\n"
      "    r1   (t1) =    Load v3                                       [highp]\n"
      "    r2   (t1) =    Load v2                                       [highp]\n"
      "    r3   (t1) =    Add r1 r2                                     [highp]\n"
      "                   Store v1 r3\n"
      "                   Return\n");
  CHECK_FALSE(testing::check_before_after("eliminate-dead-stores", live, live));
}

TEST_CASE("uninitialized-loads: loads of never-written uninitialized variables become zero") {
  const TextModule before = shader(
      "    Declare: v3\n"
      "    r0   (t1) =    Load v2                                       [highp]\n"
      "    r1   (t1) =    Load v3                                       [highp]\n"
      "    r2   (t1) =    Add r0 r1                                     [highp]\n"
      "                   Store v1 r2\n"
      "                   Return\n");
  const TextModule after = shader(
      "    Declare: v3\n"
      "    r2   (t1) =    Add c2 c2                                     [highp]\n"
      "                   Store v1 r2\n"
      "                   Return\n");
  CHECK(testing::check_before_after("replace-uninitialized-loads", before, after));
}

TEST_CASE("uninitialized-loads: a variable written anywhere, or initialized, keeps its loads") {
  // g is written after the load (a later invocation of the code would see
  // it); a has an initializer.
  TextModule written = shader(
      "    Declare: v3\n"
      "    r0   (t1) =    Load v2                                       [highp]\n"
      "    r1   (t1) =    Load v3                                       [highp]\n"
      "    r2   (t1) =    Add r0 r1                                     [highp]\n"
      "                   Store v1 r2\n"
      "                   Store v2 c3\n"
      "                   Return\n");
  written.variables.replace(written.variables.find("'ta_3'"), 6, "'ta_3'=c3");
  CHECK_FALSE(testing::check_before_after("replace-uninitialized-loads", written, written));
}

TEST_CASE("forward-stores: a dominating store gives later loads their value, until a write") {
  // The If's true branch sees a = x; after the If, a may be 1.0: the load
  // stays. Inside the loop nothing from outside is used (the back edge).
  const std::string head =
      "    Declare: v3\n"
      "    r0   (t1) =    Load v0                                       [highp]\n"
      "                   Store v3 r0\n"
      "    r1   (t4) =    GreaterThan r0 c2[highp]\n"
      "                   If r1\n"
      "    |\n"
      "    +-> ______________\n"
      "    |   If True Block:\n";
  const std::string rest =
      "    |                  Merge\n"
      "    |\n"
      "    V___________\n"
      "    Merge Block:\n"
      "    r4   (t1) =    Load v3                                       [highp]\n"
      "                   Store v1 r4\n"
      "                   Loop\n"
      "    |\n"
      "    +-> _______________\n"
      "    |   Loop Condition:\n"
      "    |   r5   (t1) =    Load v3                                   [highp]\n"
      "    |   r6   (t4) =    LessThan r5 c3[highp]\n"
      "    |                  LoopIf r6\n"
      "    |\n"
      "    +-> __________\n"
      "    |   Loop Body:\n"
      "    |   r7   (t1) =    Load v3                                   [highp]\n"
      "    |   r8   (t1) =    Add r7 c3[highp]                          [highp]\n"
      "    |                  Store v3 r8\n"
      "    |                  Continue\n"
      "    |\n"
      "    V___________\n"
      "    Merge Block:\n"
      "                   Return\n";
  const TextModule before = shader(head +
                                   "    |   r2   (t1) =    Load v3                                   [highp]\n"
                                   "    |                  Store v1 r2\n"
                                   "    |                  Store v3 c3\n"
                                   "    |   r3   (t1) =    Load v3                                   [highp]\n"
                                   "    |                  Store v1 r3\n" +
                                   rest);
  const TextModule after = shader(head +
                                  "    |                  Store v1 r0\n"
                                  "    |                  Store v3 c3\n"
                                  "    |                  Store v1 c3\n" +
                                  rest);
  CHECK(testing::check_before_after("forward-stores", before, after));
}

TEST_CASE("forward-stores: a value of another precision is not forwarded, a constant is") {
  const TextModule before = shader(
      "    Declare: v3\n"
      "    r0   (t1) =    Load v0                                       [mediump]\n"
      "                   Store v3 r0\n"
      "    r1   (t1) =    Load v3                                       [highp]\n"
      "                   Store v1 r1\n"
      "                   Store v3 c3\n"
      "    r2   (t1) =    Load v3                                       [highp]\n"
      "                   Store v1 r2\n"
      "                   Return\n");
  const TextModule after = shader(
      "    Declare: v3\n"
      "    r0   (t1) =    Load v0                                       [mediump]\n"
      "                   Store v3 r0\n"
      "    r1   (t1) =    Load v3                                       [highp]\n"
      "                   Store v1 r1\n"
      "                   Store v3 c3\n"
      "                   Store v1 c3\n"
      "                   Return\n");
  CHECK(testing::check_before_after("forward-stores", before, after));
}

TEST_CASE("lower-increments: ++ and -- become Load, Add or Sub, Store") {
  const TextModule before = shader(
      "    Declare: v4\n"
      "    r0   (t2) =    PostfixIncrement v4                           [highp]\n"
      "    r1   (t2) =    PrefixDecrement v4                            [highp]\n"
      "    r2   (t2) =    Add r0 r1                                     [highp]\n"
      "    r3   (t1) =    ConstructScalarFromScalar r2                  [highp]\n"
      "                   Store v1 r3\n"
      "                   Return\n");
  const TextModule after = shader(
      "    Declare: v4\n"
      "    r0   (t2) =    Load v4                                       [highp]\n"
      "    r4   (t2) =    Add r0 c5[highp]                              [highp]\n"
      "                   Store v4 r4\n"
      "    r5   (t2) =    Load v4                                       [highp]\n"
      "    r1   (t2) =    Sub r5 c5[highp]                              [highp]\n"
      "                   Store v4 r1\n"
      "    r2   (t2) =    Add r0 r1                                     [highp]\n"
      "    r3   (t1) =    ConstructScalarFromScalar r2                  [highp]\n"
      "                   Store v1 r3\n"
      "                   Return\n");
  CHECK(testing::check_before_after("lower-increments", before, after));
}

TEST_CASE("if-conversion: an If whose branches only merge becomes a Select, or nothing") {
  const TextModule before = shader(kIfOnX +
      "    |                  Merge r0\n"
      "    |\n"
      "    +-> _______________\n"
      "    |   If False Block:\n"
      "    |                  Merge c3[highp]\n"
      "    |\n"
      "    V___________\n"
      "    Merge Block:\n"
      "    Input: r2 (t1) [highp]\n"
      "                   If r1\n"
      "    |\n"
      "    +-> ______________\n"
      "    |   If True Block:\n"
      "    |                  Merge\n"
      "    |\n"
      "    V___________\n"
      "    Merge Block:\n"
      "                   Store v1 r2\n"
      "                   Return\n");
  const TextModule after = shader(
      "    r0   (t1) =    Load v0                                       [highp]\n"
      "    r1   (t4) =    GreaterThan r0 c2[highp]\n"
      "    r2   (t1) =    Select r1 r0 c3[highp]                        [highp]\n"
      "                   Store v1 r2\n"
      "                   Return\n");
  CHECK(testing::check_before_after("convert-ifs,simplify-control-flow", before, after));
}

TEST_CASE("if-conversion: a branch that does something stays") {
  const TextModule kept = shader(kIfOnX +
      "    |                  Store v1 r0\n"
      "    |                  Merge\n"
      "    |\n"
      "    V___________\n"
      "    Merge Block:\n"
      "                   Return\n");
  CHECK_FALSE(testing::check_before_after("convert-ifs", kept, kept));
}

TEST_CASE("pointer roots: an Access chain leads back to its variable: memory kinds follow the storage class") {
  using namespace sluice::ir;
  using sluice::testing::must;
  Module m;
  Builder b(m);
  Decorations loc0;
  loc0.location = 0;
  const VariableId in = b.add_global({"x", NameSource::Interface}, predefined::kFloat, StorageClass::Input,
                                     Precision::None, loc0);
  const VariableId out = b.add_global({"o", NameSource::Interface}, predefined::kFloat, StorageClass::Output,
                                      Precision::None, loc0);
  const VariableId g = b.add_global({"g", NameSource::Internal}, predefined::kFloat, StorageClass::Private);
  b.begin_function({"main", NameSource::Internal}, predefined::kVoid);
  const TypeId array = m.intern(Type::make_array(predefined::kVec4, 4));
  const VariableId a = b.declare_local({"a", NameSource::Temporary}, array);
  const RegisterId element = must(b.emit(Opcode::AccessArrayElement, {a, m.int_constant(2)}));
  const RegisterId component = must(b.emit(Opcode::AccessVectorComponent, {element, Operand::literal(1)}));
  const RegisterId value = must(b.load(component));
  must(b.store(out, value));
  must(b.terminate(Opcode::Return));

  const transform::PointerRoots roots(m);
  CHECK(roots.root(a) == a);
  CHECK(roots.root(element) == a);
  CHECK(roots.root(component) == a);
  CHECK_FALSE(roots.root(value).valid());  // a value, not a pointer
  CHECK_FALSE(roots.root(Operand(m.int_constant(2))).valid());

  CHECK(transform::memory_kind(m, a) == transform::MemoryKind::Invocation);
  CHECK(transform::memory_kind(m, g) == transform::MemoryKind::Invocation);
  CHECK(transform::memory_kind(m, in) == transform::MemoryKind::ReadOnly);
  CHECK(transform::memory_kind(m, out) == transform::MemoryKind::Shared);
  m.variable(g).decorations.volatile_ = true;
  CHECK(transform::memory_kind(m, g) == transform::MemoryKind::Shared);
}
