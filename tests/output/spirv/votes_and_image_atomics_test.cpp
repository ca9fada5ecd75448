// Group votes and image atomics: the instructions, capabilities and
// extensions each target gets (coverage_test.cpp only checks that the
// modules validate). Straight-line compute shaders, no control flow.
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "spirv_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using testing::count_of;
using testing::ok;

namespace {

// anyInvocation, allInvocations and allInvocationsEqual of a bool input
// (gl_LocalInvocationIndex == 0), each stored to a buffer.
Module vote_module() {
  Module m(ShaderStage::Compute);
  Builder b(m);
  Decorations lid;
  lid.built_in = "LocalInvocationIndex";
  const VariableId index =
      b.add_global({"gl_LocalInvocationIndex", NameSource::Interface}, kUint, StorageClass::Input, Precision::None, lid);
  const TypeId votes_type = m.intern(Type::make_struct(
      "Votes", {testing::member("any", kUint), testing::member("all", kUint), testing::member("equal", kUint)}, true,
      BlockLayout::Std430));
  Decorations d;
  d.set = 0;
  d.binding = 0;
  const VariableId votes = b.add_global({"votes", NameSource::Interface}, votes_type, StorageClass::StorageBuffer,
                                        Precision::None, d);
  b.begin_function({"main", NameSource::Internal}, kVoid);
  const RegisterId first = ok(b.emit(Opcode::Equal, {ok(b.load(index)), kUintZero}));
  std::uint32_t field = 0;
  for (Opcode vote : {Opcode::AnyInvocation, Opcode::AllInvocations, Opcode::AllInvocationsEqual}) {
    const RegisterId v = ok(b.emit(vote, {first}));
    const RegisterId as_uint = ok(b.emit(Opcode::Select, {v, kUintOne, kUintZero}));
    ok(b.store(ok(b.emit(Opcode::AccessStructField, {votes, Operand::literal(field++)})), as_uint));
  }
  ok(b.terminate(Opcode::Return));
  return m;
}

// Every image atomic on an r32i and an r32ui storage image.
Module image_atomic_module() {
  Module m(ShaderStage::Compute);
  Builder b(m);
  std::uint32_t binding = 0;
  auto image = [&](ScalarKind kind, const char* format, const char* name) {
    ImageDescriptor desc;
    desc.sampled_type = kind;
    desc.storage = true;
    desc.format = format;
    Decorations d;
    d.set = 0;
    d.binding = binding++;
    return b.add_global({name, NameSource::Interface}, m.intern(Type::make_image(desc)),
                        StorageClass::UniformConstant, Precision::None, d);
  };
  const VariableId signed_image = image(ScalarKind::Int, "r32i", "signed_counts");
  const VariableId unsigned_image = image(ScalarKind::Uint, "r32ui", "unsigned_counts");
  b.begin_function({"main", NameSource::Internal}, kVoid);
  const ConstantId coord = m.composite_constant(kIVec2, std::vector<ConstantId>{kIntZero, kIntOne});
  for (auto [variable, one] : {std::pair{signed_image, kIntOne}, std::pair{unsigned_image, kUintOne}}) {
    const RegisterId loaded = ok(b.load(variable));
    for (Opcode atomic : {Opcode::ImageAtomicAdd, Opcode::ImageAtomicMin, Opcode::ImageAtomicMax,
                          Opcode::ImageAtomicAnd, Opcode::ImageAtomicOr, Opcode::ImageAtomicXor,
                          Opcode::ImageAtomicExchange})
      ok(b.emit(atomic, {loaded, coord, one}));
    ok(b.emit(Opcode::ImageAtomicCompSwap, {loaded, coord, one, one}));
  }
  ok(b.terminate(Opcode::Return));
  return m;
}

// The module's validated disassembly for each target.
std::vector<std::pair<spirv::TargetEnv, std::string>> disassembly_on_every_target(const Module& m) {
  std::vector<std::pair<spirv::TargetEnv, std::string>> out;
  for (spirv::TargetEnv target : testing::all_targets()) {
    spirv::Options options;
    options.target = target;
    out.emplace_back(target, testing::emit_checked(m, options).text);
  }
  return out;
}

}  // namespace

TEST_CASE("group votes: SPV_KHR_subgroup_vote before SPIR-V 1.3, core group operations from it") {
  const Module m = vote_module();
  for (const auto& [target, text] : disassembly_on_every_target(m)) {
    INFO(spirv::to_string(target));
    const bool core = spirv::spirv_version(target) >= 0x00010300;
    CHECK(count_of(text, "OpCapability GroupNonUniformVote") == (core ? 1u : 0u));
    CHECK(count_of(text, "OpCapability SubgroupVoteKHR") == (core ? 0u : 1u));
    CHECK(count_of(text, "OpExtension \"SPV_KHR_subgroup_vote\"") == (core ? 0u : 1u));
    for (const char* op : {"Any", "All", "AllEqual"}) {
      const std::string spelled = core ? std::string("OpGroupNonUniform") + op + " " : std::string("OpSubgroup") + op + "KHR ";
      INFO(spelled);
      CHECK(count_of(text, spelled) == 1);
    }
  }
}

TEST_CASE("image atomics: one OpImageTexelPointer each, signedness from the image's type") {
  const Module m = image_atomic_module();
  for (const auto& [target, text] : disassembly_on_every_target(m)) {
    INFO(spirv::to_string(target));
    CHECK(count_of(text, "OpImageTexelPointer") == 16);
    CHECK(count_of(text, "OpTypePointer Image") == 2);  // to int and to uint
    CHECK(count_of(text, "OpAtomicSMin") == 1);
    CHECK(count_of(text, "OpAtomicUMin") == 1);
    CHECK(count_of(text, "OpAtomicSMax") == 1);
    CHECK(count_of(text, "OpAtomicUMax") == 1);
    CHECK(count_of(text, "OpAtomicIAdd") == 2);
    CHECK(count_of(text, "OpAtomicCompareExchange") == 2);
  }
}
