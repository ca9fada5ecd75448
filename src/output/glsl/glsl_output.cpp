// emit(): checks, names, declarations, then the functions in the module's
// order (the order a front end made them in), each callee that is defined
// after a caller declared first by a prototype (GLSL needs a declaration
// before a call). Recursion is refused, as GLSL forbids it.
#include "output/glsl/glsl_output.h"

#include <fmt/format.h>

#include "ir/operands.h"
#include "output/glsl/analysis.h"
#include "output/glsl/call_effects.h"
#include "output/glsl/declarations.h"
#include "output/glsl/module_names.h"
#include "output/glsl/function_emitter.h"
#include "output/glsl/types.h"
#include "validator/validator.h"

namespace sluice::glsl_out {
namespace {

// By FunctionId: the functions each one calls.
std::vector<std::vector<ir::FunctionId>> callees_of(const ir::Module& m) {
  const std::size_t n = m.function_count();
  std::vector<std::vector<ir::FunctionId>> callees(n);
  for (std::uint32_t i = 0; i < n; ++i)
    for (const ir::Block& b : m.function(ir::FunctionId(i)).blocks)
      for (const ir::Instruction& inst : b.instructions)
        if (inst.opcode == ir::Opcode::Call && !inst.operands.empty() && inst.operands[0].is_function() &&
            inst.operands[0].value() < n)
          callees[i].push_back(inst.operands[0].as_function());
  return callees;
}

// By VariableId: 1 for a global that more than one function names.
std::vector<std::uint8_t> globals_shared_by_functions(const ir::Module& m) {
  constexpr std::uint32_t kNoFunction = UINT32_MAX;
  std::vector<std::uint32_t> named_in(m.variable_count(), kNoFunction);
  std::vector<std::uint8_t> shared(m.variable_count(), 0);
  for (std::uint32_t i = 0; i < m.function_count(); ++i)
    for (const ir::Block& b : m.function(ir::FunctionId(i)).blocks)
      for (const ir::Instruction& inst : b.instructions)
        for (const ir::Operand& o : inst.operands) {
          if (!o.is_variable() || o.value() >= m.variable_count()) continue;
          std::uint32_t& first = named_in[o.value()];
          if (first == kNoFunction) first = i;
          else if (first != i) shared[o.value()] = 1;
        }
  return shared;
}

// Layout numbers past what glslang takes (its TQualifier::layout*End,
// glslang/Include/Types.h: the GLSL specification sets no bound, compilers
// do), and resource limits past its defaults: valid IR, and valid SPIR-V
// (a device's limits apply when a pipeline is made), but no GLSL that
// compiles.
void refuse_layout_numbers(EmitContext& ctx) {
  const ir::Module& m = ctx.m;
  struct Limit {
    const char* what;
    std::optional<std::uint32_t> value;
    std::uint32_t end;
  };
  for (ir::VariableId g : m.globals()) {
    if (g.index() >= m.variable_count()) continue;
    const ir::Variable& v = m.variable(g);
    const ir::Decorations& d = v.decorations;
    for (const Limit& l : {Limit{"location", d.location, 0xFFF}, Limit{"binding", d.binding, 0xFFFF},
                           Limit{"set", d.set, 0x3F}, Limit{"xfb_buffer", d.xfb_buffer, 0xF},
                           Limit{"xfb_stride", d.xfb_stride, 0x3FF}, Limit{"xfb_offset", d.xfb_offset, 0x3FF}})
      if (l.value && *l.value >= l.end)
        return ctx.fail(fmt::format("'{}' has {} = {}; GLSL compilers take less than {} (glslang)", v.name.text,
                                    l.what, *l.value, l.end));
  }
  // Resource limits glslang checks against its defaults
  // (glslang/Public/ResourceLimits.h: gl_MaxDrawBuffers 32,
  // gl_MaxComputeWorkGroupSize 1024 x 1024 x 64, gl_MaxClipDistances and
  // gl_MaxCullDistances 8).
  const ir::ShaderInfo& shader = m.shader();
  constexpr std::uint32_t kMaxWorkGroupSize[3] = {1024, 1024, 64};
  if (shader.stage == ir::ShaderStage::Compute)
    for (int k = 0; k < 3; ++k)
      if (shader.local_size[k] > kMaxWorkGroupSize[k])
        return ctx.fail(fmt::format("local_size_{} = {}; GLSL compilers take at most {} (glslang's "
                                    "gl_MaxComputeWorkGroupSize)",
                                    "xyz"[k], shader.local_size[k], kMaxWorkGroupSize[k]));
  for (ir::VariableId g : m.globals()) {
    if (g.index() >= m.variable_count()) continue;
    const ir::Variable& v = m.variable(g);
    if (!v.type.valid() || v.type.index() >= m.type_count()) continue;
    const ir::Type& pt = m.type(v.type);
    if (pt.kind != ir::TypeKind::Pointer) continue;
    const ir::Type& t = m.type(pt.element);
    const std::uint32_t count = t.kind == ir::TypeKind::Array ? t.count : 1;
    const std::string& b = v.decorations.built_in;
    if ((b == "ClipDistance" || b == "CullDistance") && count > 8)
      return ctx.fail(fmt::format("'{}' has {} elements; GLSL compilers take at most 8 (glslang's gl_Max{}s)",
                                  v.name.text, count, b));
    if (shader.stage == ir::ShaderStage::Fragment && pt.storage == ir::StorageClass::Output &&
        v.decorations.location && *v.decorations.location + count > 32)
      return ctx.fail(fmt::format("fragment output '{}' reaches location {}; GLSL compilers take less than 32 "
                                  "(glslang's gl_MaxDrawBuffers)",
                                  v.name.text, *v.decorations.location + count - 1));
  }
  for (std::uint32_t i = 0; i < m.constant_count(); ++i) {
    const auto id = m.constant(ir::ConstantId(i)).spec_id;
    if (id && *id >= 0x7FF)
      return ctx.fail(fmt::format("constant_id = {}; GLSL compilers take less than {} (glslang)", *id, 0x7FF));
  }
}

}  // namespace

Result<GlslVersion> parse_version(std::string_view text) {
  if (text == "450") return GlslVersion::V450;
  if (text == "310es" || text == "310 es" || text == "310") return GlslVersion::V310es;
  return Error{fmt::format("unknown GLSL version '{}' (expected 450 or 310es)", text)};
}

Result<std::string> emit(const ir::Module& m, const Options& options) {
  // The output relies on the validator's guarantees (see the SPIR-V
  // output's emit()); it reports only what GLSL cannot express.
  if (const auto problems = validator::validate(m, {1}); !problems.empty())
    return Error{"invalid IR: " + validator::describe(m, problems.front())};
  // The validator lets a module without functions through (a fragment of
  // IR); a GLSL shader needs main() (glslang: "Missing entry point").
  if (!m.entry_point().valid()) return Error{"GLSL output: the module has no entry point (no function 'main')"};
  EmitContext ctx(m, options);
  compute_canonical_types(ctx);
  if (ctx.es) choose_default_precisions(ctx);
  if (!ctx.failed()) name_module(ctx);
  std::string declarations;
  if (!ctx.failed()) declarations = emit_declarations(ctx);
  std::string functions;
  if (!ctx.failed()) {
    RegisterFacts regs(m.register_count());
    VariableFacts vars(m.variable_count());
    RegisterStates states(m.register_count());
    const auto callees = callees_of(m);
    refuse_layout_numbers(ctx);
    ctx.writes_memory = functions_writing_memory(m, callees);
    ctx.shared_by_functions = globals_shared_by_functions(m);
    // A function is declared early when a caller comes before it.
    std::vector<std::uint8_t> forward(m.function_count(), 0);
    for (std::uint32_t i = 0; i < callees.size(); ++i)
      for (ir::FunctionId c : callees[i])
        if (c.index() > i) forward[c.index()] = 1;
    std::string prototypes;
    for (std::uint32_t i = 0; i < m.function_count() && !ctx.failed(); ++i) {
      const std::string text = emit_function(ctx, regs, vars, states, ir::FunctionId(i));
      if (forward[i]) prototypes += text.substr(0, text.find(" {\n")) + ";\n";
      functions += text + "\n";
    }
    if (!prototypes.empty()) functions = prototypes + "\n" + functions;
    // Globals that the functions found no text names are declared again
    // without them (emit_declarations only adds to what ctx caches).
    ctx.unwritten_globals.assign(m.variable_count(), 0);
    bool unwritten = false;
    for (ir::VariableId g : m.globals())
      if (vars.return_temporary[g.index()].valid()) {
        ctx.unwritten_globals[g.index()] = 1;
        unwritten = true;
      }
    if (unwritten && !ctx.failed()) declarations = emit_declarations(ctx);
  }
  if (ctx.failed()) return Error{"GLSL output: " + *ctx.error};
  if (!functions.empty()) functions.pop_back();
  return emit_header(ctx) + declarations + functions;
}

}  // namespace sluice::glsl_out
