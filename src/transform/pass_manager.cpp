// The pass registry and pipeline runner. Pipelines:
//   O0: dealias — Alias is a transformation aid no output understands.
//   O1: dealias, inline-functions (first, as in spirv-opt -O; GLSL has no
//       recursion), lower-increments, initialize-constant-variables; then
//       replace-uninitialized-loads →
//       forward-stores → fold-constants → simplify-control-flow →
//       convert-ifs → eliminate-common-subexpressions →
//       eliminate-dead-stores → eliminate-overwritten-stores →
//       eliminate-dead-loops → eliminate-dead-code
//       → private-to-local → merge-continue-blocks repeated to a fixpoint:
//       while any of them changes something, for at most 8 rounds, and only
//       while a round leaves the module no larger than it found it (each
//       round is linear, so the pipeline is too; the cap and the size rule
//       keep passes that undo each other from cycling or growing the
//       module). Constants that appear only after inlining and folding
//       (an If, Switch or Loop on a now-constant condition, a vector updated
//       through swizzles) take a round per step of the chain; the corpus
//       needs at most 6 (docs/performance.md); then remove-unused-interface
//       (resources and inputs no instruction uses, where Vulkan lets a
//       shader leave them out, as spirv-opt -O drops them) and dealias.
#include "transform/pass_manager.h"

#include "transform/ub_check.h"

#include <chrono>
#include <utility>

#include <fmt/format.h>

#include "ir/dump.h"

namespace sluice::transform {

PassManager::PassManager() {
  // Each pass under one name: its function's (passes.h) and its file's
  // (src/transform/<name>.cpp), hyphenated. docs/ir.md documented the
  // shorter names before; they stay accepted (kAliases).
  add({"dealias", "remove Alias instructions, pointing their uses at the aliased value", dealias});
  add({"fold-constants", "fold operations on constants (float32 IEEE-754, integer wrap-around)", fold_constants});
  add({"simplify-control-flow", "If/Loop/DoLoop on constants, NextBlock chains stitched", simplify_control_flow});
  add({"eliminate-common-subexpressions", "common-subexpression elimination over the dominance tree",
       eliminate_common_subexpressions});
  add({"eliminate-unreachable-code", "drop merge blocks nothing reaches", eliminate_unreachable_code});
  add({"eliminate-dead-registers", "drop unused pure instructions and unread merge inputs", eliminate_dead_registers});
  add({"remove-unused-variables", "drop Function/Private variables nobody reads", remove_unused_variables});
  add({"remove-unused-functions", "drop functions the entry point never calls", remove_unused_functions});
  add({"remove-unused-interface", "drop uniform/buffer/sampler/shared/input globals no instruction uses",
       remove_unused_interface});
  add({"eliminate-dead-stores", "drop stores into Function/Private variables no live instruction reads",
       eliminate_dead_stores});
  add({"eliminate-overwritten-stores",
       "drop stores a later store through the same pointer in the same block overwrites before any read",
       eliminate_overwritten_stores});
  add({"replace-uninitialized-loads", "loads of never-written, uninitialized Private/Function variables become zero",
       replace_uninitialized_loads});
  add({"initialize-constant-variables",
       "Function/Private variables only ever stored one constant get it as initializer, the stores dropped",
       initialize_constant_variables});
  add({"lower-increments", "++/-- on Function/Private scalars and vectors become Load, Add/Sub, Store",
       lower_increments});
  add({"forward-stores", "loads of Function/Private variables whose stored value dominates them",
       forward_stores});
  add({"loop-exit-in-header", "workaround: a loop's leading exit test becomes its condition (docs/workarounds.md)",
       loop_exit_in_header});
  add({"loop-top-exit-test",
       "workaround: loops left only after computing get an exit test at the top of the body (docs/workarounds.md)",
       loop_top_exit_test});
  add({"reload-uniforms-in-loops",
       "workaround: uniform values loaded before a loop and used in it are loaded again in it (docs/workarounds.md)",
       reload_uniforms_in_loops});
  add({"scalar-replace-aggregates",
       "Function/Private structs and arrays accessed only with constant indices become a variable per element",
       scalar_replace_aggregates});
  add({"eliminate-dead-loops",
       "loops whose only effect is writing Function/Private variables nothing outside them reads",
       eliminate_dead_loops});
  add({"convert-ifs", "If whose branches only compute, store into locals and merge becomes Selects", convert_ifs});
  add({"private-to-local", "a Private global only the entry point uses becomes its local", private_to_local});
  add({"merge-continue-blocks", "a continue block only the body's end reaches moves into that end",
       merge_continue_blocks});
  add({"eliminate-dead-code",
       "eliminate-unreachable-code, remove-unused-functions, remove-unused-variables, eliminate-dead-registers",
       eliminate_dead_code});
  add({"inline-functions", "inline calls to IR functions (in/out/inout copied)",
       [](ir::Module& m) { return inline_functions(m); }});
  // The driver runs it with --ub-check (before the pipeline, with the map of
  // its findings); here with the default findings buffer, for --passes.
  add({"ub-check", "run-time checks for undefined behaviour, reported to a findings buffer (docs/ub-check.md)",
       [](ir::Module& m) -> PassResult {
         auto map = ub_check(m);
         if (!map) return map.failure();
         return !map->sites.empty();
       }});
}

void PassManager::add(PassInfo pass) {
  for (PassInfo& p : passes_) {
    if (p.name == pass.name) {
      p = std::move(pass);
      return;
    }
  }
  passes_.push_back(std::move(pass));
}

namespace {

// The names docs/ir.md gave the passes before each got one name.
constexpr std::pair<std::string_view, std::string_view> kAliases[] = {
    {"fold", "fold-constants"},
    {"simplify-cfg", "simplify-control-flow"},
    {"cse", "eliminate-common-subexpressions"},
    {"unreachable-code", "eliminate-unreachable-code"},
    {"dead-registers", "eliminate-dead-registers"},
    {"unused-variables", "remove-unused-variables"},
    {"unused-functions", "remove-unused-functions"},
    {"unused-resources", "remove-unused-interface"},
    {"remove-unused-resources", "remove-unused-interface"},
    {"dead-stores", "eliminate-dead-stores"},
    {"uninitialized-loads", "replace-uninitialized-loads"},
    {"if-conversion", "convert-ifs"},
    {"dce", "eliminate-dead-code"},
    {"inline", "inline-functions"},
};

}  // namespace

const PassInfo* PassManager::find(std::string_view name) const {
  for (const auto& [alias, canonical] : kAliases)
    if (name == alias) name = canonical;
  for (const PassInfo& p : passes_)
    if (p.name == name) return &p;
  return nullptr;
}

Result<Pipeline> PassManager::pipeline(std::string_view level) const {
  if (level.starts_with('-')) level.remove_prefix(1);
  if (level == "O0") return Pipeline{{Stage{{"dealias"}, 1}}};
  if (level == "O1")
    return Pipeline{{Stage{{"dealias", "inline-functions", "lower-increments", "initialize-constant-variables"}, 1},
                     Stage{{"scalar-replace-aggregates", "replace-uninitialized-loads", "forward-stores", "fold-constants", "simplify-control-flow",
                            "convert-ifs", "eliminate-common-subexpressions", "eliminate-dead-stores",
                            "eliminate-overwritten-stores", "eliminate-dead-loops", "eliminate-dead-code", "private-to-local", "merge-continue-blocks"},
                           8},
                     Stage{{"remove-unused-interface", "dealias"}, 1}}};
  return Error{fmt::format("unknown optimization level '{}' (O0 or O1)", level)};
}

Result<Pipeline> PassManager::parse_pass_list(std::string_view list) const {
  Pipeline p;
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    std::string_view name = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    if (name.empty()) continue;
    const PassInfo* pass = find(name);
    if (!pass) {
      std::string known;
      for (const PassInfo& info : passes_) known += (known.empty() ? "" : ", ") + info.name;
      return Error{fmt::format("unknown pass '{}' (known: {})", name, known)};
    }
    p.stages.push_back(Stage{{pass->name}, 1});
  }
  return p;
}

namespace {

// Instructions in the module's functions, terminators included, plus one
// per block (every output spends at least a label on a block): the size
// the fixpoint must not grow. Counting blocks lets convert-ifs trade a
// branch for a Load and a Select.
std::size_t module_size(const ir::Module& m) {
  std::size_t n = 0;
  for (std::uint32_t i = 0; i < m.function_count(); ++i)
    for (const ir::Block& b : m.function(ir::FunctionId(i)).blocks) n += b.instructions.size() + 1;
  return n;
}

std::string list_problems(const std::vector<std::string>& problems) {
  std::string out;
  for (const std::string& p : problems) out += "\n  " + p;
  return out;
}

}  // namespace

Result<std::vector<PassRun>> PassManager::run(ir::Module& m, const Pipeline& pipeline,
                                              const RunOptions& options) const {
  std::vector<PassRun> runs;
  if (options.validate) {
    if (auto problems = options.validate(m); !problems.empty())
      return Error{fmt::format("the input IR is invalid (before any pass):{}", list_problems(problems))};
  }
  for (const Stage& stage : pipeline.stages) {
    std::size_t size = stage.max_rounds > 1 ? module_size(m) : 0;
    for (unsigned round = 0; round < std::max(1u, stage.max_rounds); ++round) {
      bool changed = false;
      for (const std::string& name : stage.passes) {
        const PassInfo* pass = find(name);
        if (!pass) return Error{fmt::format("unknown pass '{}'", name)};
        const auto start = std::chrono::steady_clock::now();
        auto result = pass->run(m);
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        if (!result) return result.failure().prefixed(fmt::format("pass '{}' failed: ", name));
        runs.push_back(PassRun{name, *result, took.count()});
        changed = changed || *result;
        if (options.print_after_all && options.print) options.print(name, m);
        if (options.validate) {
          if (auto problems = options.validate(m); !problems.empty())
            return Error{fmt::format("pass '{}' broke the IR:{}", name, list_problems(problems))};
        }
      }
      if (!changed) break;
      if (stage.max_rounds > 1) {
        // A round that grew the module ends the fixpoint: its next round could grow it again.
        const std::size_t now = module_size(m);
        if (now > size) break;
        size = now;
      }
    }
  }
  return runs;
}

std::string describe_after_pass(std::string_view pass, const ir::Module& m) {
  return fmt::format("; IR after {}\n{}", pass, ir::dump(m));
}

}  // namespace sluice::transform
