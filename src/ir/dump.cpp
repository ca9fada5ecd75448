#include "ir/dump.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "ir/structure.h"
#include "ir/texture.h"
#include "ir/traversal.h"
#include "ir/typing.h"

namespace sluice::ir {
namespace {

// Column layout of an instruction line (ANGLE's): the result part is padded
// to kResultWidth, the instruction text to kTextWidth before [precision].
constexpr std::size_t kResultWidth = 15;
constexpr std::size_t kTextWidth = 45;
// Nesting depth up to which every level's bar is drawn (see prefix()).
constexpr std::uint32_t kDrawnDepth = 16;

std::string storage_word(StorageClass s) {
  switch (s) {
    case StorageClass::Function: return "";
    case StorageClass::Private: return "private";
    case StorageClass::Input: return "input";
    case StorageClass::Output: return "output";
    case StorageClass::Uniform: return "uniform";
    case StorageClass::StorageBuffer: return "buffer";
    case StorageClass::PushConstant: return "push_constant";
    case StorageClass::UniformConstant: return "uniform_constant";
    case StorageClass::Workgroup: return "shared";
  }
  return "";
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

std::string attributes(const std::vector<std::string>& parts) {
  return parts.empty() ? "" : fmt::format(" [{}]", join(parts, ", "));
}

std::string describe(const Module& m, const Type& t) {
  switch (t.kind) {
    case TypeKind::Void: return "void";
    case TypeKind::Scalar: return t.width == 64 ? "double" : to_string(t.scalar);
    case TypeKind::Vector: return fmt::format("Vector of t{}[{}]", t.element.index(), t.count);
    case TypeKind::Matrix: return fmt::format("Matrix of t{}[{}]", t.element.index(), t.count);
    case TypeKind::Array:
      if (t.length.valid()) return fmt::format("Array of t{}[c{} = {}]", t.element.index(), t.length.index(), t.count);
      return fmt::format("Array of t{}[{}]", t.element.index(), t.count);
    case TypeKind::UnsizedArray: return fmt::format("Unsized array of t{}", t.element.index());
    case TypeKind::Pointer:
      return t.storage == StorageClass::Function
                 ? fmt::format("Pointer to t{}", t.element.index())
                 : fmt::format("Pointer to t{} in {}", t.element.index(), to_string(t.storage));
    case TypeKind::Sampler: return "Sampler";
    case TypeKind::SampledImage: return fmt::format("Sampled image of t{}", t.element.index());
    case TypeKind::Image: {
      std::vector<std::string> attrs;
      if (t.image.depth) attrs.push_back("depth");
      if (t.image.arrayed) attrs.push_back("arrayed");
      if (t.image.multisampled) attrs.push_back("multisampled");
      if (t.image.storage) attrs.push_back("storage");
      if (!t.image.format.empty()) attrs.push_back("format=" + t.image.format);
      return fmt::format("Image {} {}{}", to_string(t.image.sampled_type), to_string(t.image.dim), attributes(attrs));
    }
    case TypeKind::Struct: {
      std::vector<std::string> attrs;
      if (t.is_block) attrs.push_back("block");
      if (t.layout != BlockLayout::None) attrs.push_back(to_string(t.layout));
      std::vector<std::string> members;
      for (const auto& mem : t.members) {
        std::vector<std::string> ma;
        if (mem.precision != Precision::None) ma.push_back(to_string(mem.precision));
        if (mem.offset) ma.push_back(fmt::format("offset={}", *mem.offset));
        if (mem.xfb_offset) ma.push_back(fmt::format("xfb_offset={}", *mem.xfb_offset));
        if (mem.location) ma.push_back(fmt::format("location={}", *mem.location));
        if (mem.matrix_layout == MatrixLayout::RowMajor) ma.push_back("row_major");
        if (mem.matrix_layout == MatrixLayout::ColumnMajor) ma.push_back("column_major");
        if (!mem.built_in.empty()) ma.push_back("builtin=" + mem.built_in);
        members.push_back(fmt::format("t{} '{}'{}", mem.type.index(), mem.name, attributes(ma)));
      }
      return fmt::format("Struct '{}'{} {{{}}}", t.name, attributes(attrs), join(members, ", "));
    }
  }
  (void)m;
  return "?";
}

std::string constant_value(const Module& m, const Constant& c) {
  if (c.is_composite()) {
    std::vector<std::string> parts;
    for (auto id : c.components) parts.push_back(fmt::format("c{}", id.index()));
    return fmt::format("composite({})", join(parts, ", "));
  }
  const Type& t = m.type(c.type);
  switch (t.scalar) {
    case ScalarKind::Float: return t.width == 64 ? format_double(c.as_double()) : format_float(c.as_float());
    case ScalarKind::Int: return fmt::format("{}", c.as_int());
    case ScalarKind::Uint: return fmt::format("{}", c.as_uint());
    case ScalarKind::Bool: return c.as_bool() ? "true" : "false";
  }
  return "?";
}

std::vector<std::string> variable_attributes(const Module& m, const Variable& v) {
  std::vector<std::string> a;
  if (v.precision != Precision::None) a.push_back(to_string(v.precision));
  if (v.type.valid() && v.type.index() < m.type_count() && m.type(v.type).kind == TypeKind::Pointer) {
    std::string s = storage_word(m.type(v.type).storage);
    if (!s.empty()) a.push_back(s);
  }
  const Decorations& d = v.decorations;
  if (!d.built_in.empty()) a.push_back("builtin=" + d.built_in);
  if (d.location) a.push_back(fmt::format("location={}", *d.location));
  if (d.component) a.push_back(fmt::format("component={}", *d.component));
  if (d.index) a.push_back(fmt::format("index={}", *d.index));
  if (d.set) a.push_back(fmt::format("set={}", *d.set));
  if (d.binding) a.push_back(fmt::format("binding={}", *d.binding));
  if (d.xfb_buffer) a.push_back(fmt::format("xfb_buffer={}", *d.xfb_buffer));
  if (d.xfb_stride) a.push_back(fmt::format("xfb_stride={}", *d.xfb_stride));
  if (d.xfb_offset) a.push_back(fmt::format("xfb_offset={}", *d.xfb_offset));
  if (d.interpolation == Interpolation::Flat) a.push_back("flat");
  if (d.interpolation == Interpolation::NoPerspective) a.push_back("noperspective");
  if (d.centroid) a.push_back("centroid");
  if (d.sample) a.push_back("sample");
  if (d.invariant) a.push_back("invariant");
  if (d.readonly) a.push_back("readonly");
  if (d.writeonly) a.push_back("writeonly");
  if (d.coherent) a.push_back("coherent");
  if (d.volatile_) a.push_back("volatile");
  if (d.restrict_) a.push_back("restrict");
  if (d.patch) a.push_back("patch");
  if (d.stream) a.push_back(fmt::format("stream={}", *d.stream));
  if (d.passthrough) a.push_back("passthrough");
  if (d.viewport_relative) a.push_back("viewport_relative");
  if (d.secondary_view_offset) a.push_back(fmt::format("secondary_view_offset={}", *d.secondary_view_offset));
  return a;
}

Precision operand_precision(const Module& m, Operand o) {
  if (o.is_register() && o.value() < m.register_count()) return m.reg(o.as_register()).precision;
  if (o.is_variable() && o.value() < m.variable_count()) return m.variable(o.as_variable()).precision;
  return Precision::None;
}

class FunctionDumper {
 public:
  FunctionDumper(const Module& m, const Function& f, std::string& out, bool locations = false)
      : m_(m), f_(f), out_(out), ctx_(compute_block_contexts(f)), locations_(locations) {}
  // Without a function: contextual precisions of constants are left out.
  FunctionDumper(const Module& m, std::string& out) : m_(m), f_(nullptr_function()), out_(out) {}

  void run() {
    visit(f_, [&](const BlockVisit& v, const Block& b) {
      block(v, b);
      return VisitAction::VisitSubBlocks;
    });
  }

 private:
  // Up to kDrawnDepth levels are drawn as ANGLE draws them, one "|   " per
  // level. Deeper lines write the depth as a number ("|40|   "): drawing
  // every bar would make the text quadratic in the nesting depth.
  static std::string prefix(std::uint32_t depth) {
    if (depth > kDrawnDepth) return fmt::format("    |{}|   ", depth);
    std::string p = "    ";
    for (std::uint32_t i = 0; i < depth; ++i) p += "|   ";
    return p;
  }

  // Lines are written straight into the output, never through temporary
  // strings: a large module dumps to ~70 bytes a line, millions of lines.
  void line(std::string_view s) {
    const std::size_t start = out_.size();
    out_ += s;
    end_line(out_, start);
  }
  // Trailing spaces never carry meaning; trimming keeps goldens clean.
  static void end_line(std::string& out, std::size_t start) {
    std::size_t end = out.size();
    while (end > start && out[end - 1] == ' ') --end;
    out.resize(end);
    out += '\n';
  }

  std::string title(const BlockVisit& v) const {
    if (v.kind != BlockKind::SwitchCase) return block_title(v.kind);
    const BlockContext& c = ctx_[v.id.index()];
    const Block& parent = f_.block(c.construct);
    for (std::size_t i = 0; i < parent.case_blocks.size() && i < parent.cases.size(); ++i) {
      if (parent.case_blocks[i] != v.id) continue;
      const auto& value = parent.cases[i].value;
      if (!value) return "Case Default:";
      const bool is_signed = !parent.instructions.empty() && !parent.instructions.back().operands.empty() &&
                             m_.type_of(parent.instructions.back().operands[0]) == predefined::kInt;
      return is_signed ? fmt::format("Case {}:", static_cast<std::int32_t>(*value)) : fmt::format("Case {}:", *value);
    }
    return "Case ?:";
  }

  void block(const BlockVisit& v, const Block& b) {
    const std::string t = title(v);
    if (v.kind == BlockKind::FunctionEntry) {
      line(prefix(0) + std::string(t.size(), '_'));
    } else if (v.kind == BlockKind::Merge) {
      line(prefix(v.depth) + "|");
      line(prefix(v.depth) + "V" + std::string(t.size() - 1, '_'));
    } else {
      line(prefix(v.depth - 1) + "|");
      line(prefix(v.depth - 1) + "+-> " + std::string(t.size(), '_'));
    }
    const std::string p = prefix(v.depth);
    line(p + t);
    if (!b.declarations.empty()) {
      std::vector<std::string> vars;
      for (auto id : b.declarations) vars.push_back(fmt::format("v{}", id.index()));
      line(p + "Declare: " + join(vars, ", "));
    }
    if (b.merge_input.valid()) {
      const bool known = b.merge_input.index() < m_.register_count();
      const RegisterInfo info = known ? m_.reg(b.merge_input) : RegisterInfo{};
      line(fmt::format("{}Input: r{} (t{}){}", p, b.merge_input.index(), info.type.index(),
                       info.precision == Precision::None ? "" : fmt::format(" [{}]", to_string(info.precision))));
    }
    for (const Instruction& inst : b.instructions) {
      const std::size_t start = out_.size();
      out_ += p;
      instruction(out_, v.id, inst);
      if (locations_ && inst.location.valid()) {
        const SourceLocation& l = m_.location(inst.location);
        const auto& files = m_.source_files();
        out_ += fmt::format("  @ {}:{}:{}", l.file < files.size() ? files[l.file] : "?", l.line, l.column);
      }
      end_line(out_, start);
    }
  }

  static const Function& nullptr_function() {
    static const Function empty;
    return empty;
  }

 public:
  // Appends the instruction's text, trailing spaces and all, to `out`.
  void instruction(std::string& out, BlockId where, const Instruction& inst) const {
    const std::size_t start = out.size();
    Precision result_precision = Precision::None;
    if (inst.result.valid()) {
      const bool known = inst.result.index() < m_.register_count();
      const RegisterInfo info = known ? m_.reg(inst.result) : RegisterInfo{};
      result_precision = info.precision;
      // "r{}  {:>5} = " with "(t{})" as the right-aligned field.
      append_number(out, 'r', inst.result.index());
      out += "  ";
      const fmt::format_int type(info.type.index());
      if (type.size() + 3 < 5) out.append(5 - (type.size() + 3), ' ');
      out += "(t";
      out.append(type.data(), type.size());
      out += ") = ";
    }
    pad_to(out, start + kResultWidth);

    const std::size_t text_start = out.size();
    const OpcodeInfo& oi = info(inst.opcode);
    if (inst.opcode == Opcode::Texture)
      out += texture_opcode_name(inst.aux);
    else
      out += oi.name;
    const Precision context = where.valid() ? context_precision(where, inst) : Precision::None;
    const std::size_t fixed = oi.variadic_tail ? std::min<std::size_t>(oi.max_operands, inst.operands.size())
                                               : inst.operands.size();
    for (std::size_t i = 0; i < fixed; ++i) {
      out += ' ';
      operand(out, inst.operands[i], context);
    }
    if (oi.variadic_tail) {
      out += " (";
      for (std::size_t i = fixed; i < inst.operands.size(); ++i) {
        if (i != fixed) out += ", ";
        operand(out, inst.operands[i], context);
      }
      out += ')';
    }
    if (result_precision != Precision::None) {
      pad_to(out, text_start + kTextWidth);
      out += " [";
      out += to_string(result_precision);
      out += ']';
    }
  }

 private:
  Precision context_precision(BlockId where, const Instruction& inst) const {
    auto input_precision = [&](BlockId target) {
      if (!target.valid()) return Precision::None;
      RegisterId in = f_.block(target).merge_input;
      return in.valid() && in.index() < m_.register_count() ? m_.reg(in).precision : Precision::None;
    };
    switch (inst.opcode) {
      case Opcode::Merge: return input_precision(ctx_[where.index()].merge_target);
      case Opcode::Break: return input_precision(ctx_[where.index()].break_target);
      case Opcode::Return: return f_.return_precision;
      default: break;
    }
    if (inst.result.valid() && inst.result.index() < m_.register_count()) {
      Precision p = m_.reg(inst.result).precision;
      if (p != Precision::None) return p;
    }
    Precision p = Precision::None;
    for (Operand o : inst.operands) p = std::max(p, operand_precision(m_, o));
    return p;
  }

  static void append_number(std::string& out, char letter, std::uint32_t n) {
    const fmt::format_int digits(n);
    out += letter;
    out.append(digits.data(), digits.size());
  }
  static void pad_to(std::string& out, std::size_t column) {
    if (out.size() < column) out.append(column - out.size(), ' ');
  }

  void operand(std::string& out, Operand o, Precision context) const {
    switch (o.kind()) {
      case Operand::Kind::Register: return append_number(out, 'r', o.value());
      case Operand::Kind::Constant:
        append_number(out, 'c', o.value());
        if (context != Precision::None) {
          out += '[';
          out += to_string(context);
          out += ']';
        }
        return;
      case Operand::Kind::Variable: return append_number(out, 'v', o.value());
      case Operand::Kind::Function: return append_number(out, 'f', o.value());
      case Operand::Kind::Literal: {
        const fmt::format_int digits(o.value());
        out.append(digits.data(), digits.size());
        return;
      }
    }
    out += '?';
  }

  const Module& m_;
  const Function& f_;
  std::string& out_;
  std::vector<BlockContext> ctx_;
  bool locations_ = false;
};

}  // namespace

namespace {

// The shortest decimal that reads back as the same value (fmt's default),
// with ".0" where it would look like an integer; NaNs keep their bits.
template <class Real, class Bits>
std::string format_real(Real v) {
  if (std::isnan(v)) return fmt::format("nan(0x{:0{}x})", std::bit_cast<Bits>(v), 2 * sizeof(Bits));
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

}  // namespace

std::string format_float(float f) { return format_real<float, std::uint32_t>(f); }
std::string format_double(double d) { return format_real<double, std::uint64_t>(d); }

std::string dump_instruction(const Module& m, const Instruction& inst) {
  std::string unused;
  std::string text;
  FunctionDumper(m, unused).instruction(text, BlockId{}, inst);
  std::size_t end = text.find_last_not_of(' ');
  text.resize(end == std::string::npos ? 0 : end + 1);
  return text;
}

std::string dumped_variable_name(const Variable& v, VariableId id) {
  switch (v.name.source) {
    case NameSource::Interface: return "_u" + v.name.text;
    case NameSource::Temporary: return fmt::format("t{}_{}", v.name.text, id.index());
    case NameSource::Internal: return v.name.text;
  }
  return v.name.text;
}

std::string dump(const Module& m) { return dump(m, DumpOptions{}); }

std::string dump(const Module& m, const DumpOptions& options) {
  // Room for the function bodies up front (a line is ~70 bytes): growing a
  // string of a hundred megabytes by doubling copies it and touches twice
  // the memory.
  std::size_t lines = 0;
  for (std::uint32_t i = 0; i < m.function_count(); ++i)
    for (const Block& b : m.function(FunctionId(i)).blocks) lines += b.instructions.size() + 3;
  std::string out;
  out.reserve(lines * 72);
  const ShaderInfo& s = m.shader();
  out += fmt::format("{} Shader\n", to_string(s.stage));
  if (s.early_fragment_tests) out += "[Early fragment tests]\n";
  if (s.depth_replacing) out += "[Depth replacing]\n";
  if (s.transform_feedback) out += "[Transform feedback]\n";
  if (s.input_primitive != Primitive::None) out += fmt::format("[Input primitive {}]\n", to_string(s.input_primitive));
  if (s.output_primitive != Primitive::None)
    out += fmt::format("[Output primitive {}]\n", to_string(s.output_primitive));
  if (s.output_vertices) out += fmt::format("[Output vertices {}]\n", *s.output_vertices);
  if (s.invocations) out += fmt::format("[Invocations {}]\n", *s.invocations);
  if (s.spacing != TessSpacing::None) out += fmt::format("[Spacing {}]\n", to_string(s.spacing));
  if (s.order != VertexOrder::None) out += fmt::format("[Vertex order {}]\n", to_string(s.order));
  if (s.point_mode) out += "[Point mode]\n";
  if (s.stage == ShaderStage::Compute)
    out += fmt::format("[Local size {}, {}, {}]\n", s.local_size[0], s.local_size[1], s.local_size[2]);
  if (s.stage == ShaderStage::Compute && (s.local_size_spec_id[0] || s.local_size_spec_id[1] || s.local_size_spec_id[2])) {
    auto id = [](const std::optional<std::uint32_t>& i) { return i ? std::to_string(*i) : std::string("-"); };
    out += fmt::format("[Local size ids {}, {}, {}]\n", id(s.local_size_spec_id[0]), id(s.local_size_spec_id[1]),
                       id(s.local_size_spec_id[2]));
  }

  out += "\nTypes:\n";
  for (std::uint32_t i = 0; i < m.type_count(); ++i)
    out += fmt::format("  t{}: {}\n", i, describe(m, m.type(TypeId(i))));

  out += "\nConstants:\n";
  for (std::uint32_t i = 0; i < m.constant_count(); ++i) {
    const Constant& c = m.constant(ConstantId(i));
    out += fmt::format("  c{} (t{}): {}{}", i, c.type.index(), constant_value(m, c),
                       c.spec_id ? fmt::format(" [spec_id={}]", *c.spec_id) : "");
    if (c.spec_op != SpecOp::None) {
      out += fmt::format(" [spec_op={}", to_string(c.spec_op));
      for (ConstantId operand : c.operands) out += fmt::format(" c{}", operand.index());
      out += ']';
    }
    out += '\n';
  }

  out += "\nVariables:\n";
  for (std::uint32_t i = 0; i < m.variable_count(); ++i) {
    const Variable& v = m.variable(VariableId(i));
    out += fmt::format("  v{} (t{}): '{}'{}{}\n", i, v.type.index(), dumped_variable_name(v, VariableId(i)),
                       v.initializer.valid() ? fmt::format("=c{}", v.initializer.index()) : "",
                       attributes(variable_attributes(m, v)));
  }

  std::vector<std::string> globals;
  for (auto id : m.globals()) globals.push_back(fmt::format("v{}", id.index()));
  out += globals.empty() ? "\nGlobals:\n" : fmt::format("\nGlobals: {}\n", join(globals, ", "));

  out += "\nFunctions:\n";
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    const Function& f = m.function(FunctionId(i));
    std::vector<std::string> params;
    for (const auto& p : f.params) params.push_back(fmt::format("v{} {}", p.variable.index(), to_string(p.direction)));
    out += fmt::format("\n  f{}: '{}'({}) -> t{}{}\n\n", i, f.name.text, join(params, ", "), f.return_type.index(),
                       f.return_precision == Precision::None
                           ? ""
                           : fmt::format(" [{}]", to_string(f.return_precision)));
    FunctionDumper(m, f, out, options.locations).run();
  }
  return out;
}

}  // namespace sluice::ir
