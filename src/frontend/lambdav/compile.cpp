// The λV pipeline: parse, resolve, lower. The program's top-level forms are
// lowered in order into the fragment shader's `main`: a define binds a
// level-0 slot, an output stores into an Output variable at its location.
#include <fmt/format.h>

#include "frontend/lambdav/lambdav.h"
#include "frontend/lambdav/lower.h"
#include "frontend/lambdav/types.h"
#include "ir/predefined.h"

namespace sluice::lambdav {

bool Lowerer::lower_program() {
  set_location(ast_.top_level.empty() ? kNoNode : ast_.top_level.front());
  b_.begin_function(ir::Name{"main", ir::NameSource::Internal}, ir::predefined::kVoid);
  globals_ = new_frame(nullptr, res_.global_slots);
  for (const TopForm& form : res_.program) {
    auto v = lower_value(form.expr, globals_);
    if (!v) return false;
    if (form.kind == TopKind::Define) {
      if (v->kind == ValueKind::Closure && closures_[v->index].name == kNoSymbol)
        closures_[v->index].name = res_.global_names[form.slot];
      globals_->values[form.slot] = *v;
      continue;
    }
    const Shape s = v->is_runtime() ? shape_of(m_, v->type) : Shape{};
    if (s.kind != Shape::Kind::Num && s.kind != Shape::Kind::FloatVec) {
      error(form.expr, fmt::format("output {} must be Num or Vec(2..4, f), not {}", form.location, describe(*v)));
      return false;
    }
    ir::Decorations d;
    d.location = form.location;
    set_location(form.node);
    const ir::VariableId out = b_.add_global(ir::Name{fmt::format("out{}", form.location), ir::NameSource::Interface},
                                             v->type, ir::StorageClass::Output, ir::Precision::None, d);
    if (auto stored = b_.store(out, v->operand); !stored) {
      error(form.node, "internal error: " + stored.error());
      return false;
    }
  }
  return terminate(ir::Opcode::Return, std::nullopt, ast_.top_level.empty() ? kNoNode : ast_.top_level.back());
}

CompileResult compile(std::string_view source, const CompileOptions& options) {
  CompileResult result;
  DiagnosticSink sink(options.file_name, result.diagnostics);
  ParseOptions parse_options;
  parse_options.max_nesting = options.max_nesting;
  const Ast ast = parse(source, sink, parse_options);
  result.stats.nodes = ast.nodes.size();
  if (sink.error_count() > 0) return result;
  const Resolution res = resolve(ast, sink);
  if (sink.error_count() > 0) return result;

  ir::Module m(ir::ShaderStage::Fragment);
  Lowerer lowerer(ast, res, sink, options, m);
  const bool ok = lowerer.lower_program();
  result.stats = lowerer.stats();
  if (ok && sink.error_count() == 0) result.module = std::move(m);
  return result;
}

}  // namespace sluice::lambdav
