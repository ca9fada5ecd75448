// The reader's driver: module-level declarations, then each function
// (reader_internal.h says which file does what).
#include "frontend/spirv/reader.h"

#include <algorithm>

#include "frontend/spirv/reader_internal.h"
#include "validator/validator.h"

namespace sluice::spirv_in {
namespace detail {

namespace {

// Shaders cannot recurse (Vulkan: VUID-StandaloneSpirv-None-04634, the
// static call graph has no cycle; the IR's rule too). Depth-first search
// with colours on an explicit stack over the OpFunctionCall edges; returns
// the message for the first cycle found.
std::optional<ReadError> find_recursion(const Module& sm, const std::string& file) {
  const std::size_t n = sm.functions.size();
  std::vector<std::vector<std::uint32_t>> callees(n);
  std::vector<std::pair<Id, std::uint32_t>> index_of;  // function id -> index, sorted
  for (std::uint32_t i = 0; i < n; ++i) index_of.emplace_back(sm.functions[i].id, i);
  std::sort(index_of.begin(), index_of.end());
  for (std::uint32_t i = 0; i < n; ++i)
    for (InstrIndex k = sm.functions[i].begin; k < sm.functions[i].end && k < sm.instructions.size(); ++k) {
      const Instruction& inst = sm.instructions[k];
      if (inst.opcode != spv::Op::OpFunctionCall || inst.operands.size() < 3) continue;
      const Id callee = inst.operand_word(2);
      auto it = std::lower_bound(index_of.begin(), index_of.end(), std::pair<Id, std::uint32_t>{callee, 0});
      if (it != index_of.end() && it->first == callee) callees[i].push_back(it->second);
    }
  enum : std::uint8_t { kNew, kOpen, kDone };
  std::vector<std::uint8_t> state(n, kNew);
  std::vector<std::pair<std::uint32_t, std::size_t>> stack;
  for (std::uint32_t root = 0; root < n; ++root) {
    if (state[root] != kNew) continue;
    state[root] = kOpen;
    stack.emplace_back(root, 0);
    while (!stack.empty()) {
      auto& [f, next] = stack.back();
      if (next == callees[f].size()) {
        state[f] = kDone;
        stack.pop_back();
        continue;
      }
      const std::uint32_t g = callees[f][next++];
      if (state[g] == kOpen)
        return ReadError{file + ": error: " + sm.describe(sm.functions[g].id) +
                         " calls itself (directly or through other functions); shaders cannot recurse"};
      if (state[g] == kNew) {
        state[g] = kOpen;
        stack.emplace_back(g, 0);
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<ReadError> Reader::run() {
  if (auto e = find_recursion(sm_, options_.file_name)) return e;
  read_locations();
  if (auto e = read_globals()) return e;
  def_block_.assign(sm_.bound, kNone);
  spill_.assign(sm_.bound, ir::VariableId());
  phi_var_.assign(sm_.bound, ir::VariableId());
  for (std::size_t i = 0; i < sm_.functions.size(); ++i)
    if (auto e = read_function(sm_.functions[i], functions_[i])) return e;
  return std::nullopt;
}

}  // namespace detail

Result<ir::Module> read(const Module& module, const ReadOptions& options) {
  if (options.validate_for) {
    const InputVerdict verdict = validate(module, *options.validate_for);
    if (!verdict.messages.empty())
      return Error{options.file_name + ": error: the input is not valid SPIR-V for " +
                   spvTargetEnvDescription(verdict.env) + " (spirv-val): " + verdict.messages.front()};
  }
  ir::Module m;
  detail::Reader reader(module, m, options);
  if (auto e = reader.run()) return Error{e->message};
  // A module that reads into invalid IR (corrupt input the checks above let
  // through) is an error here, never IR that breaks the passes' contract.
  if (const auto problems = validator::validate(m); !problems.empty())
    return Error{options.file_name + ": error: the module does not translate to valid IR: " +
                 validator::describe(m, std::span(problems).first(1))};
  return m;
}

Result<ir::Module> read_bytes(std::string_view bytes, const ReadOptions& options) {
  ParseResult parsed = parse_bytes(bytes);
  if (!parsed.ok()) return Error{options.file_name + ": error: " + parsed.error().describe()};
  return read(parsed.value(), options);
}

}  // namespace sluice::spirv_in
