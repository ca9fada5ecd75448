// Constant folding: the value each fold gives is checked against the same
// operation done here in float32 (or, for built-ins of implementation-
// defined precision, against long double rounded to float), and what must
// not fold is checked to stay.
#include <cmath>
#include <limits>

#include <catch2/catch.hpp>

#include "transform/fold.h"
#include "transform/passes.h"
#include "transform_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::transform;
using sluice::testing::must;

namespace {

// Folds `op(operands)` in a fresh module through the pass and returns the
// operand the stored value became (a constant when folded).
struct Folded {
  Module m;
  Operand value;
  bool folded() const { return value.is_constant(); }
  float f() const { return m.constant(value.as_constant()).as_float(); }
  std::int32_t i() const { return m.constant(value.as_constant()).as_int(); }
  std::uint32_t u() const { return m.constant(value.as_constant()).as_uint(); }
  bool b() const { return m.constant(value.as_constant()).as_bool(); }
  double d() const { return m.constant(value.as_constant()).as_double(); }
};

template <class Build>
Folded fold_one(Build&& build) {
  testing::ShaderUnderTest s;
  RegisterId r = build(s.m, s.b);
  // Keep the result alive: store it to a Private variable of its type.
  const VariableId sink = s.b.add_global({"sink", NameSource::Internal}, s.m.reg(r).type, StorageClass::Private);
  must(s.b.store(sink, r));
  s.finish(must(s.b.load(s.input)));
  testing::require_valid(s.m);
  testing::run_passes(s.m, "fold-constants");
  Operand stored;
  for (const Block& blk : s.m.function(s.main).blocks)
    for (const Instruction& inst : blk.instructions)
      if (inst.opcode == Opcode::Store && inst.operands[0] == Operand(sink)) stored = inst.operands[1];
  return Folded{std::move(s.m), stored};
}

ConstantId vec(Module& m, std::initializer_list<float> xs) {
  std::vector<ConstantId> parts;
  for (float x : xs) parts.push_back(m.float_constant(x));
  return m.composite_constant(m.vector_type(ScalarKind::Float, static_cast<std::uint32_t>(xs.size())), parts);
}

}  // namespace

TEST_CASE("float arithmetic folds exactly as float32 rounds it") {
  const float a = 0.1f, b = 0.2f;
  auto sum = fold_one([&](Module& m, Builder& bl) { return must(bl.emit(Opcode::Add, {m.float_constant(a), m.float_constant(b)})); });
  REQUIRE(sum.folded());
  CHECK(std::bit_cast<std::uint32_t>(sum.f()) == std::bit_cast<std::uint32_t>(a + b));
  // Not the double sum rounded: 1 + 2^-24 + 2^-24 in float32 is 1, in double it is not.
  auto chain = fold_one([&](Module& m, Builder& bl) {
    auto t = must(bl.emit(Opcode::Add, {m.float_constant(1.0f), m.float_constant(0x1p-24f)}));
    return must(bl.emit(Opcode::Add, {t, m.float_constant(0x1p-24f)}));
  });
  REQUIRE(chain.folded());
  volatile float one = 1.0f, tiny = 0x1p-24f;
  CHECK(chain.f() == (one + tiny) + tiny);
  CHECK(static_cast<float>(1.0 + 0x1p-24 + 0x1p-24) != chain.f());

  auto quotient = fold_one([&](Module& m, Builder& bl) { return must(bl.emit(Opcode::Div, {m.float_constant(1.0f), m.float_constant(3.0f)})); });
  volatile float three = 3.0f;
  CHECK(quotient.f() == 1.0f / three);
  auto fma = fold_one([&](Module& m, Builder& bl) {
    return must(bl.emit(Opcode::Fma, {m.float_constant(0.1f), m.float_constant(10.0f), m.float_constant(-1.0f)}));
  });
  CHECK(fma.f() == std::fma(0.1f, 10.0f, -1.0f));
}

TEST_CASE("integer arithmetic wraps around") {
  auto wrap = fold_one([&](Module& m, Builder& bl) {
    return must(bl.emit(Opcode::Add, {m.int_constant(std::numeric_limits<std::int32_t>::max()), m.int_constant(1)}));
  });
  REQUIRE(wrap.folded());
  CHECK(wrap.i() == std::numeric_limits<std::int32_t>::min());
  auto mul = fold_one([&](Module& m, Builder& bl) {
    return must(bl.emit(Opcode::Mul, {m.uint_constant(0x10000u), m.uint_constant(0x10000u)}));
  });
  CHECK(mul.u() == 0u);
  auto neg = fold_one([&](Module& m, Builder& bl) {
    return must(bl.emit(Opcode::Div, {m.int_constant(-7), m.int_constant(2)}));
  });
  CHECK(neg.i() == -7 / 2);
  auto shr = fold_one([&](Module& m, Builder& bl) {
    return must(bl.emit(Opcode::BitShiftRight, {m.int_constant(-16), m.int_constant(2)}));
  });
  CHECK(shr.i() == -4);
  auto msb = fold_one([&](Module& m, Builder& bl) { return must(bl.emit(Opcode::FindMSB, {m.int_constant(-1)})); });
  CHECK(msb.i() == -1);
  auto extract = fold_one([&](Module& m, Builder& bl) {
    return must(bl.emit(Opcode::BitfieldExtract, {m.int_constant(0xf0), m.int_constant(4), m.int_constant(4)}));
  });
  CHECK(extract.i() == -1);  // 0b1111 sign-extended
}

TEST_CASE("undefined, NaN and Inf results are left unfolded") {
  auto not_folded = [](auto&& build) { return !fold_one(build).folded(); };
  CHECK(not_folded([](Module& m, Builder& bl) { return must(bl.emit(Opcode::Div, {m.int_constant(1), m.int_constant(0)})); }));
  CHECK(not_folded([](Module& m, Builder& bl) {
    return must(bl.emit(Opcode::Div, {m.int_constant(std::numeric_limits<std::int32_t>::min()), m.int_constant(-1)}));
  }));
  CHECK(not_folded([](Module& m, Builder& bl) { return must(bl.emit(Opcode::Div, {m.float_constant(1), m.float_constant(0)})); }));
  CHECK(not_folded([](Module& m, Builder& bl) { return must(bl.emit(Opcode::BitShiftLeft, {m.int_constant(1), m.int_constant(32)})); }));
  CHECK(not_folded([](Module& m, Builder& bl) { return must(bl.emit(Opcode::BitShiftLeft, {m.int_constant(1), m.int_constant(-1)})); }));
  CHECK(not_folded([](Module& m, Builder& bl) { return must(bl.emit(Opcode::IMod, {m.int_constant(-5), m.int_constant(3)})); }));
  CHECK(not_folded([](Module& m, Builder& bl) { return must(bl.emit(Opcode::Sqrt, {m.float_constant(-1)})); }));
  CHECK(not_folded([](Module& m, Builder& bl) { return must(bl.emit(Opcode::Log, {m.float_constant(0)})); }));
  CHECK(not_folded([](Module& m, Builder& bl) { return must(bl.emit(Opcode::Exp, {m.float_constant(1000)})); }));
  CHECK(not_folded([](Module& m, Builder& bl) { return must(bl.emit(Opcode::Mul, {m.float_constant(3e38f), m.float_constant(10)})); }));
  CHECK(not_folded([](Module& m, Builder& bl) { return must(bl.emit(Opcode::Pow, {m.float_constant(-2), m.float_constant(0.5f)})); }));
  CHECK(not_folded([](Module& m, Builder& bl) { return must(bl.emit(Opcode::Round, {m.float_constant(2.5f)})); }));
  CHECK(not_folded([](Module& m, Builder& bl) {
    return must(bl.construct(Opcode::ConstructScalarFromScalar, predefined::kInt, {m.float_constant(3e9f)}));
  }));
  CHECK(not_folded([](Module& m, Builder& bl) {
    return must(bl.emit(Opcode::Add, {m.float_constant(std::numeric_limits<float>::infinity()), m.float_constant(1)}));
  }));
  CHECK(not_folded([](Module& m, Builder& bl) {
    return must(bl.emit(Opcode::Clamp, {m.float_constant(1), m.float_constant(2), m.float_constant(0)}));
  }));
}

TEST_CASE("built-ins of implementation-defined precision fold to the correctly rounded float32") {
  // The reference is computed in long double (64-bit significand) and
  // rounded once to float, a different path from the pass's double one.
  auto check = [](Opcode op, float x, long double (*ref)(long double)) {
    auto r = fold_one([&](Module& m, Builder& bl) { return must(bl.emit(op, {m.float_constant(x)})); });
    REQUIRE(r.folded());
    INFO(name(op) << "(" << x << ")");
    CHECK(r.f() == static_cast<float>(ref(static_cast<long double>(x))));
  };
  check(Opcode::Sin, 1.0f, [](long double v) { return std::sin(v); });
  check(Opcode::Cos, 0.5f, [](long double v) { return std::cos(v); });
  check(Opcode::Exp, 1.0f, [](long double v) { return std::exp(v); });
  check(Opcode::Log2, 10.0f, [](long double v) { return std::log2(v); });
  check(Opcode::Atan, 3.0f, [](long double v) { return std::atan(v); });
  check(Opcode::InverseSqrt, 2.0f, [](long double v) { return 1.0L / std::sqrt(v); });
  auto p = fold_one([](Module& m, Builder& bl) { return must(bl.emit(Opcode::Pow, {m.float_constant(2.0f), m.float_constant(0.5f)})); });
  CHECK(p.f() == static_cast<float>(std::pow(2.0L, 0.5L)));
  auto sq = fold_one([](Module& m, Builder& bl) { return must(bl.emit(Opcode::Sqrt, {m.float_constant(2.0f)})); });
  CHECK(sq.f() == std::sqrt(2.0f));
}

TEST_CASE("composites fold component-wise, through the deduplicating constant table") {
  auto r = fold_one([](Module& m, Builder& bl) {
    auto a = vec(m, {1, 2, 3, 4});
    auto b = vec(m, {0.5f, 0.25f, 2, 8});
    auto sum = must(bl.emit(Opcode::Add, {a, b}));
    auto scaled = must(bl.emit(Opcode::VectorTimesScalar, {sum, m.float_constant(2)}));
    return must(bl.emit(Opcode::ExtractVectorComponentMulti,
                        {scaled, Operand::literal(3), Operand::literal(0), Operand::literal(1)}));
  });
  REQUIRE(r.folded());
  // The folded constant is the one the table already gives for that value.
  CHECK(r.value.as_constant() == vec(r.m, {(4 + 8.0f) * 2, (1 + 0.5f) * 2, (2 + 0.25f) * 2}));

  auto mv = fold_one([](Module& m, Builder& bl) {
    const ConstantId cols[] = {vec(m, {1, 2}), vec(m, {3, 4})};
    auto mat = m.composite_constant(predefined::kMat2, cols);
    return must(bl.emit(Opcode::MatrixTimesVector, {mat, vec(m, {5, 6})}));
  });
  REQUIRE(mv.folded());
  CHECK(mv.value.as_constant() == vec(mv.m, {1 * 5 + 3 * 6.0f, 2 * 5 + 4 * 6.0f}));

  auto dot = fold_one([](Module& m, Builder& bl) { return must(bl.emit(Opcode::Dot, {vec(m, {1, 2, 3}), vec(m, {4, 5, 6})})); });
  CHECK(dot.f() == 32.0f);
  auto all = fold_one([](Module& m, Builder& bl) {
    const ConstantId bs[] = {m.bool_constant(true), m.bool_constant(true)};
    auto bv = m.composite_constant(predefined::kBVec2, bs);
    return must(bl.emit(Opcode::All, {bv}));
  });
  CHECK(all.b());
  auto lt = fold_one([](Module& m, Builder& bl) { return must(bl.emit(Opcode::LessThan, {vec(m, {1, 5}), vec(m, {2, 2})})); });
  REQUIRE(lt.folded());
  const Constant& ltc = lt.m.constant(lt.value.as_constant());
  CHECK(lt.m.constant(ltc.components[0]).as_bool());
  CHECK_FALSE(lt.m.constant(ltc.components[1]).as_bool());
}

TEST_CASE("constructors and conversions fold") {
  auto conv = fold_one([](Module& m, Builder& bl) {
    return must(bl.construct(Opcode::ConstructScalarFromScalar, predefined::kInt, {m.float_constant(-2.75f)}));
  });
  CHECK(conv.i() == -2);
  auto diag = fold_one([](Module& m, Builder& bl) {
    auto mat = must(bl.construct(Opcode::ConstructMatrixFromScalar, predefined::kMat3, {m.float_constant(2)}));
    return must(bl.emit(Opcode::Determinant, {mat}));
  });
  CHECK(diag.f() == 8.0f);
  auto arr = fold_one([](Module& m, Builder& bl) {
    const TypeId arr_t = m.array_type(predefined::kInt, 3);
    auto a = must(bl.construct(Opcode::ConstructArray, arr_t, {m.int_constant(7), m.int_constant(8), m.int_constant(9)}));
    return must(bl.emit(Opcode::ExtractArrayElement, {a, m.int_constant(2)}));
  });
  CHECK(arr.i() == 9);
  auto inv = fold_one([](Module& m, Builder& bl) {
    const ConstantId cols[] = {vec(m, {4, 0}), vec(m, {0, 2})};
    auto mat = m.composite_constant(predefined::kMat2, cols);
    auto i = must(bl.emit(Opcode::Inverse, {mat}));
    auto p = must(bl.emit(Opcode::MatrixTimesMatrix, {mat, i}));
    return must(bl.emit(Opcode::ExtractMatrixColumn, {p, m.int_constant(1)}));
  });
  CHECK(inv.value.as_constant() == vec(inv.m, {0, 1}));
}

TEST_CASE("specialization constants are not folded") {
  auto r = fold_one([](Module& m, Builder& bl) {
    Constant spec{predefined::kInt, 4, {}, 7u};
    return must(bl.emit(Opcode::Add, {m.intern(spec), m.int_constant(1)}));
  });
  CHECK_FALSE(r.folded());
}

TEST_CASE("folding cascades in one pass and reaches terminator operands") {
  testing::ShaderUnderTest s;
  auto t = must(s.b.emit(Opcode::Mul, {s.m.int_constant(6), s.m.int_constant(7)}));
  auto c = must(s.b.emit(Opcode::Equal, {t, s.m.int_constant(42)}));
  auto sel = must(s.b.emit(Opcode::Select, {c, s.input_x(), predefined::kFloatZero}));
  auto blocks = must(s.b.branch_if(c, false));
  s.b.set_block(blocks.true_block);
  must(s.b.terminate(Opcode::Merge));
  s.b.set_block(blocks.merge);
  s.finish_scalar(sel);
  testing::run_passes(s.m, "fold-constants");
  const Function& f = s.m.function(s.main);
  CHECK(f.block(f.entry).terminator()->operands[0] == Operand(predefined::kTrue));
  CHECK(testing::count_instructions(s.m, Opcode::Select) == 0);  // select(true, x, 0) is x
  CHECK(testing::count_instructions(s.m, Opcode::Mul) == 0);
  CHECK_FALSE(testing::run_passes(s.m, "fold-constants"));
}

// Doubles (fold_double.cpp): evaluated in binary64, never through float;
// conversions fold only when exact; what has no double rule (transcendentals,
// matrices) is left to the GPU.
TEST_CASE("double arithmetic folds in binary64", "[transform][double]") {
  // 0.1 + 0.2 in double is 0.30000000000000004; through float it would not be.
  auto sum = fold_one([](Module& m, Builder& b) {
    return must(b.emit(Opcode::Add, {m.double_constant(0.1), m.double_constant(0.2)}));
  });
  REQUIRE(sum.folded());
  volatile double a = 0.1, c = 0.2;
  CHECK(std::bit_cast<std::uint64_t>(sum.d()) == std::bit_cast<std::uint64_t>(a + c));
  CHECK(sum.d() != static_cast<double>(0.1f + 0.2f));
  // 1 + 2^-40 survives in double, not in float.
  auto tiny = fold_one([](Module& m, Builder& b) {
    auto t = must(b.emit(Opcode::Add, {m.double_constant(1.0), m.double_constant(0x1p-40)}));
    return must(b.emit(Opcode::Sub, {t, m.double_constant(1.0)}));
  });
  REQUIRE(tiny.folded());
  CHECK(tiny.d() == 0x1p-40);
  auto quotient = fold_one([](Module& m, Builder& b) {
    return must(b.emit(Opcode::Div, {m.double_constant(1.0), m.double_constant(3.0)}));
  });
  volatile double three = 3.0;
  CHECK(quotient.d() == 1.0 / three);
  auto vector = fold_one([](Module& m, Builder& b) {
    const ConstantId parts[] = {m.double_constant(1.5), m.double_constant(-2.0)};
    const ConstantId v = m.composite_constant(m.double_type(2), parts);
    return must(b.emit(Opcode::VectorTimesScalar, {v, m.double_constant(1e300)}));
  });
  REQUIRE(vector.folded());
  const Constant& vc = vector.m.constant(vector.value.as_constant());
  REQUIRE(vc.components.size() == 2);
  CHECK(vector.m.constant(vc.components[0]).as_double() == 1.5e300);
  CHECK(vector.m.constant(vc.components[1]).as_double() == -2e300);
}

TEST_CASE("double comparisons and exact conversions fold", "[transform][double]") {
  auto less = fold_one([](Module& m, Builder& b) {
    return must(b.emit(Opcode::LessThan, {m.double_constant(0.1), m.double_constant(static_cast<double>(0.1f))}));
  });
  REQUIRE(less.folded());
  CHECK(less.m.constant(less.value.as_constant()).as_bool());  // 0.1 < float(0.1) = 0.100000001490116...
  auto widen = fold_one([](Module& m, Builder& b) {
    return must(b.construct(Opcode::ConstructScalarFromScalar, m.double_type(), {m.float_constant(0.1f)}));
  });
  REQUIRE(widen.folded());
  CHECK(widen.d() == static_cast<double>(0.1f));
  auto from_int = fold_one([](Module& m, Builder& b) {
    return must(b.construct(Opcode::ConstructScalarFromScalar, m.double_type(), {m.int_constant(-2147483647 - 1)}));
  });
  CHECK(from_int.d() == -2147483648.0);
  auto to_int = fold_one([](Module& m, Builder& b) {
    return must(b.construct(Opcode::ConstructScalarFromScalar, predefined::kInt, {m.double_constant(-2.75)}));
  });
  REQUIRE(to_int.folded());
  CHECK(to_int.m.constant(to_int.value.as_constant()).as_int() == -2);
  // A float holds 0.5 exactly, not 0.1.
  auto narrow = fold_one([](Module& m, Builder& b) {
    return must(b.construct(Opcode::ConstructScalarFromScalar, predefined::kFloat, {m.double_constant(0.5)}));
  });
  REQUIRE(narrow.folded());
  CHECK(narrow.m.constant(narrow.value.as_constant()).as_float() == 0.5f);
  auto inexact = fold_one([](Module& m, Builder& b) {
    return must(b.construct(Opcode::ConstructScalarFromScalar, predefined::kFloat, {m.double_constant(0.1)}));
  });
  CHECK_FALSE(inexact.folded());
}

TEST_CASE("double operations without a double rule stay", "[transform][double]") {
  auto division_by_zero = fold_one([](Module& m, Builder& b) {
    return must(b.emit(Opcode::Div, {m.double_constant(1.0), m.double_constant(0.0)}));
  });
  CHECK_FALSE(division_by_zero.folded());
  auto sine = fold_one([](Module& m, Builder& b) { return must(b.emit(Opcode::Sin, {m.double_constant(1.0)})); });
  CHECK_FALSE(sine.folded());
  auto overflow = fold_one([](Module& m, Builder& b) {
    return must(b.emit(Opcode::Mul, {m.double_constant(1e300), m.double_constant(1e300)}));
  });
  CHECK_FALSE(overflow.folded());
}
