// Shader-level driving of the AST walk (shader metadata, the order in which
// globals and functions are translated) and the helpers every part of the
// translator shares: diagnostics and checked builder calls.
#include "frontend/glsl/translator.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "ir/typing.h"

namespace sluice::glsl_in::detail {

Translator::Translator(const glslang::TIntermediate& ast, std::string_view source, ir::Module& module,
                       Diagnostics& diagnostics, std::string file, const Options& options)
    : ast_(ast), source_(source), module_(module), builder_(module), diagnostics_(diagnostics), file_(std::move(file)),
      options_(options) {
  file_index_ = module_.add_source_file(file_);
}

glslang::TSourceLoc Translator::find_in_source(std::string_view word) const {
  glslang::TSourceLoc loc{};
  loc.line = 1;
  loc.column = 1;
  auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = source_.find(word); !word.empty() && at != std::string_view::npos;
       at = source_.find(word, at + 1)) {
    const std::size_t end = at + word.size();
    if ((at > 0 && is_word(source_[at - 1])) || (end < source_.size() && is_word(source_[end]))) continue;
    const std::size_t line_start = source_.rfind('\n', at);
    const std::size_t from = line_start == std::string_view::npos ? 0 : line_start + 1;
    if (source_.substr(from, at - from).find("//") != std::string_view::npos) continue;  // in a comment
    loc.line = 1 + static_cast<int>(std::count(source_.begin(), source_.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    loc.column = static_cast<int>(at - from) + 1;
    break;
  }
  return loc;
}

void Translator::error(const glslang::TSourceLoc& where, std::string message) {
  if (failed_) return;
  failed_ = true;
  glslang::TSourceLoc loc = where;
  if (loc.line <= 0 && current_node_ && current_node_->getLoc().line > 0) loc = current_node_->getLoc();
  if (loc.line <= 0) loc = find_in_source("main");
  Diagnostic d;
  d.file = file_;
  d.line = loc.line > 0 ? static_cast<std::uint32_t>(loc.line) : 0;
  d.column = loc.column > 0 ? static_cast<std::uint32_t>(loc.column) : 1;
  d.message = std::move(message);
  diagnostics_.push_back(std::move(d));
}

void Translator::unsupported(const glslang::TSourceLoc& loc, std::string_view what) {
  error(loc, fmt::format("{} is not supported", what));
}

std::string Translator::operator_word(const TIntermNode* node) const {
  const glslang::TSourceLoc& loc = node->getLoc();
  if (loc.line <= 0) return "?";
  std::size_t start = 0;
  for (int l = 1; l < loc.line && start != std::string_view::npos; ++l) {
    start = source_.find('\n', start);
    if (start != std::string_view::npos) ++start;
  }
  if (start == std::string_view::npos) return "?";
  auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::size_t at = std::min(source_.size(), start + static_cast<std::size_t>(std::max(loc.column - 1, 0)));
  std::size_t before = at;
  while (before > start && source_[before - 1] == ' ') --before;
  const bool in_call = (node->getAsAggregate() && (at >= source_.size() || !is_word(source_[at]))) ||
                       (node->getAsUnaryNode() && before > start && source_[before - 1] == '(');
  if (in_call) {
    // glslang places a call at its closing parenthesis or a comma: the
    // name is the word before the unmatched '(' to the left.
    int depth = 0;
    std::size_t i = at;
    while (i > 0 && i + 200 > at) {
      const char c = source_[--i];
      if (c == ')') ++depth;
      if (c == '(' && depth-- == 0) break;
    }
    while (i > 0 && source_[i - 1] == ' ') --i;
    std::size_t begin = i;
    while (begin > 0 && is_word(source_[begin - 1])) --begin;
    if (begin < i) return std::string(source_.substr(begin, i - begin));
  }
  std::size_t end = at;
  while (end < source_.size() && is_word(source_[end])) ++end;
  if (end == at) {
    // An operator: the run of punctuation at the location.
    while (end < source_.size() && std::ispunct(static_cast<unsigned char>(source_[end])) && end - at < 3) ++end;
  }
  if (end == at) return "?";
  return std::string(source_.substr(at, end - at));
}

void Translator::locate(const TIntermNode* node) {
  current_node_ = node;
  const glslang::TSourceLoc& loc = node->getLoc();
  if (loc.line <= 0) return;
  builder_.set_location(ir::SourceLocation{file_index_, static_cast<std::uint32_t>(loc.line),
                                           static_cast<std::uint32_t>(loc.column > 0 ? loc.column : 0)});
}

namespace {
glslang::TSourceLoc location_of(const TIntermNode* node) {
  glslang::TSourceLoc loc;
  loc.init();
  if (node) loc = node->getLoc();
  return loc;
}
}  // namespace

ir::Precision Translator::operand_precision(ir::Operand o) const {
  if (o.is_register() && o.value() < module_.register_count()) return module_.reg(o.as_register()).precision;
  if (o.is_variable() && o.value() < module_.variable_count()) return module_.variable(o.as_variable()).precision;
  return ir::Precision::None;
}

std::optional<ir::Precision> Translator::node_precision(const TIntermTyped* node) const {
  if (!node) return std::nullopt;
  glslang::TPrecisionQualifier p = node->getQualifier().precision;
  // An operation's own precision, except that texture and image calls
  // return at their sampler's (the type's), as in glslang's SPIR-V.
  if (const TIntermOperator* op = node->getAsOperator(); op && !op->isTexture() && !op->isImage())
    p = op->getOperationPrecision();
  if (p == glslang::EpqNone) return std::nullopt;
  return to_precision(p);
}

ir::Operand Translator::emit(ir::Opcode op, std::span<const ir::Operand> operands, const TIntermTyped* node,
                             std::uint16_t aux) {
  if (failed_) return kNoValue;
  auto r = builder_.emit(op, operands, node_precision(node), aux);
  if (!r) {
    // Operations the IR types for floats only (typing.cpp) refuse doubles.
    const bool on_doubles = std::any_of(operands.begin(), operands.end(), [&](const ir::Operand& o) {
      return !o.is_literal() && ir::is_double_like(module_, module_.type_of(o));
    });
    if (on_doubles) unsupported(location_of(node ? node : current_node_), fmt::format("{} on doubles", ir::name(op)));
    else error(location_of(node ? node : current_node_), fmt::format("internal error: {}", r.error()));
    return kNoValue;
  }
  if (!r->valid()) return kNoValue;
  return *r;
}

ir::Operand Translator::construct(ir::Opcode op, ir::TypeId type, std::span<const ir::Operand> operands,
                                  const TIntermTyped* node) {
  if (failed_) return kNoValue;
  auto r = builder_.construct(op, type, operands, node_precision(node));
  if (!r) {
    error(location_of(node ? node : current_node_), fmt::format("internal error: {}", r.error()));
    return kNoValue;
  }
  return *r;
}

void Translator::store(ir::Operand pointer, ir::Operand value) {
  if (failed_) return;
  auto r = builder_.store(pointer, value);
  if (!r) error(location_of(current_node_), fmt::format("internal error: {}", r.error()));
}

void Translator::terminate(ir::Opcode op, std::optional<ir::Operand> operand) {
  if (failed_) return;
  auto r = builder_.terminate(op, operand);
  if (!r) error(location_of(current_node_), fmt::format("internal error: {}", r.error()));
}

namespace {

ir::Primitive primitive(glslang::TLayoutGeometry g) {
  switch (g) {
    case glslang::ElgPoints: return ir::Primitive::Points;
    case glslang::ElgLines: return ir::Primitive::Lines;
    case glslang::ElgLinesAdjacency: return ir::Primitive::LinesAdjacency;
    case glslang::ElgLineStrip: return ir::Primitive::LineStrip;
    case glslang::ElgTriangles: return ir::Primitive::Triangles;
    case glslang::ElgTrianglesAdjacency: return ir::Primitive::TrianglesAdjacency;
    case glslang::ElgTriangleStrip: return ir::Primitive::TriangleStrip;
    case glslang::ElgQuads: return ir::Primitive::Quads;
    case glslang::ElgIsolines: return ir::Primitive::Isolines;
    default: return ir::Primitive::None;
  }
}

}  // namespace

void Translator::stage_modes(ir::ShaderInfo& info) const {
  // The execution modes of the geometry and tessellation stages, as
  // glslang's linker settled them (it checked that every one needed is
  // there). glslang's SPIR-V gives a tessellation control shader only its
  // output vertices, the evaluation shader the domain, spacing, order and
  // point mode; so does the IR.
  const auto set = [](int n) {
    return n == glslang::TQualifier::layoutNotSet ? std::nullopt : std::optional<std::uint32_t>(static_cast<std::uint32_t>(n));
  };
  switch (info.stage) {
    case ir::ShaderStage::Geometry:
      info.input_primitive = primitive(ast_.getInputPrimitive());
      info.output_primitive = primitive(ast_.getOutputPrimitive());
      info.output_vertices = set(ast_.getVertices());
      info.invocations = set(ast_.getInvocations());
      break;
    case ir::ShaderStage::TessControl: info.output_vertices = set(ast_.getVertices()); break;
    case ir::ShaderStage::TessEvaluation:
      info.input_primitive = primitive(ast_.getInputPrimitive());
      switch (ast_.getVertexSpacing()) {
        case glslang::EvsEqual: info.spacing = ir::TessSpacing::Equal; break;
        case glslang::EvsFractionalEven: info.spacing = ir::TessSpacing::FractionalEven; break;
        case glslang::EvsFractionalOdd: info.spacing = ir::TessSpacing::FractionalOdd; break;
        default: break;
      }
      if (ast_.getVertexOrder() == glslang::EvoCw) info.order = ir::VertexOrder::Cw;
      if (ast_.getVertexOrder() == glslang::EvoCcw) info.order = ir::VertexOrder::Ccw;
      info.point_mode = ast_.getPointMode();
      break;
    default: break;
  }
}

bool Translator::run() {
  ir::ShaderInfo& info = module_.shader();
  switch (ast_.getStage()) {
    case EShLangVertex: info.stage = ir::ShaderStage::Vertex; break;
    case EShLangFragment: info.stage = ir::ShaderStage::Fragment; break;
    case EShLangCompute: info.stage = ir::ShaderStage::Compute; break;
    case EShLangGeometry: info.stage = ir::ShaderStage::Geometry; break;
    case EShLangTessControl: info.stage = ir::ShaderStage::TessControl; break;
    case EShLangTessEvaluation: info.stage = ir::ShaderStage::TessEvaluation; break;
    default: break;
  }
  TIntermAggregate* root = ast_.getTreeRoot() ? ast_.getTreeRoot()->getAsAggregate() : nullptr;
  glslang::TSourceLoc start;
  start.init();
  start.line = 1;
  if (!root) {
    error(start, "glslang produced no syntax tree");
    return false;
  }
  info.early_fragment_tests = ast_.getEarlyFragmentTests();
  // layout(depth_greater) & co. are hints the IR does not carry;
  // depth_replacing follows from gl_FragDepth (interface.cpp).
  if (info.stage == ir::ShaderStage::Compute) {
    for (int i = 0; i < 3; ++i) {
      if (ast_.getLocalSizeSpecId(i) != glslang::TQualifier::layoutNotSet)
        info.local_size_spec_id[i] = static_cast<std::uint32_t>(ast_.getLocalSizeSpecId(i));
      info.local_size[i] = ast_.getLocalSize(i);
    }
  }
  info.transform_feedback = ast_.getXfbMode();
  stage_modes(info);

  // The root sequence holds, in source order, the statements that
  // initialize globals, the function definitions and, last, the linker
  // objects (every global the shader declares).
  std::vector<TIntermNode*> global_initializers;
  std::vector<const TIntermAggregate*> definitions;
  const TIntermAggregate* linker_objects = nullptr;
  for (TIntermNode* node : root->getSequence()) {
    const TIntermAggregate* a = node ? node->getAsAggregate() : nullptr;
    if (a && a->getOp() == glslang::EOpFunction)
      definitions.push_back(a);
    else if (a && a->getOp() == glslang::EOpLinkerObjects)
      linker_objects = a;
    else if (node)
      global_initializers.push_back(node);
  }
  if (linker_objects) declare_linker_objects(linker_objects);
  if (failed_) return false;
  declare_functions(root);
  if (failed_) return false;
  const std::string& entry = ast_.getEntryPointMangledName();
  for (const TIntermAggregate* fn : definitions) {
    const bool is_entry = std::string_view(fn->getName().c_str()) == entry;
    define_function(fn, is_entry ? std::span<TIntermNode* const>(global_initializers)
                                 : std::span<TIntermNode* const>());
    if (failed_) return false;
  }
  if (linker_objects) declare_unused_spec_constants(linker_objects);
  if (precise_seen && !failed_) {
    // The IR has no no-contraction marking: the computation is kept, its
    // guarantee against fused or reassociated arithmetic is not. Said, not
    // silently dropped, with the remedy that covers it: the SPIR-V output's
    // no_contraction, which is stricter than `precise` everywhere.
    Diagnostic d;
    d.severity = Severity::Warning;
    d.file = file_;
    const glslang::TSourceLoc at = find_in_source("precise");
    d.line = static_cast<std::uint32_t>(at.line);
    d.column = static_cast<std::uint32_t>(at.column);
    d.message =
        "'precise' is not kept in the IR: its operations may be contracted (e.g. into fma); the SPIR-V output's "
        "--fp-contract=off forbids contraction for every operation";
    diagnostics_.push_back(std::move(d));
  }
  if (!module_.entry_point().valid()) {
    error(start, "the shader has no entry point 'main'");
    return false;
  }
  return !failed_;
}

}  // namespace sluice::glsl_in::detail
