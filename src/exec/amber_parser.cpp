// Parser for the AmberScript subset described in amber_script.h.
#include <array>
#include <cstdlib>

#include <fmt/format.h>

#include "exec/amber_data.h"
#include "exec/amber_lexer.h"
#include "exec/amber_script.h"

namespace sluice::exec::amber {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : lex_(text) {}

  Result<Script> parse() {
    while (true) {
      Token t = lex_.next();
      if (t.text.empty()) break;
      Result<bool> r = command(t);
      if (!r) return r.failure();
    }
    return std::move(script_);
  }

 private:
  Error error(int line, const std::string& message) {
    return Error{message, ErrorCode::Rejected, ErrorLocation{"", static_cast<std::uint32_t>(line), 0}};
  }

  Error unsupported(const Token& t, const std::string& what) {
    return error(t.line, fmt::format("{} '{}' is not in the AmberScript subset Sluice supports", what, t.text));
  }

  // The rest of the current line must be empty.
  Result<bool> end_of_line(const Token& command) {
    if (!lex_.at_line_end()) {
      Token extra = lex_.next();
      return error(extra.line, fmt::format("unexpected '{}' after {}", extra.text, command.text));
    }
    return true;
  }

  Result<std::string> word(const Token& after, const char* what) {
    if (lex_.at_line_end()) return error(after.line, fmt::format("{} expects {}", after.text, what));
    return lex_.next().text;
  }

  Result<int64_t> integer(const Token& after, const char* what) {
    auto w = word(after, what);
    if (!w) return w.failure();
    char* end = nullptr;
    const long long v = std::strtoll(w->c_str(), &end, 10);
    if (end == w->c_str() || *end != '\0') return error(after.line, fmt::format("'{}' is not an integer {}", *w, what));
    return static_cast<int64_t>(v);
  }

  Result<double> number(const Token& after, const char* what) {
    auto w = word(after, what);
    if (!w) return w.failure();
    char* end = nullptr;
    const double v = std::strtod(w->c_str(), &end);
    if (end == w->c_str() || *end != '\0') return error(after.line, fmt::format("'{}' is not a number {}", *w, what));
    return v;
  }

  Result<bool> expect_word(const Token& after, const char* keyword) {
    auto w = word(after, keyword);
    if (!w) return w.failure();
    if (*w != keyword) return error(after.line, fmt::format("expected {} but found '{}'", keyword, *w));
    return true;
  }

  Result<bool> command(const Token& t) {
    if (t.text == "#!amber") return true;
    if (t.text == "DEVICE_EXTENSION") {
      auto name = word(t, "an extension name");
      if (!name) return name.failure();
      script_.device_extensions.push_back(*name);
      return end_of_line(t);
    }
    if (t.text == "SHADER") return shader(t);
    if (t.text == "BUFFER") return buffer(t);
    if (t.text == "PIPELINE") return pipeline(t);
    if (t.text == "CLEAR_COLOR") {
      Command c{Command::Kind::ClearColor, t.line};
      auto name = word(t, "a pipeline name");
      if (!name) return name.failure();
      c.target = *name;
      for (int i = 0; i < 4; ++i) {
        auto v = number(t, "colour component (0-255)");
        if (!v) return v.failure();
        c.color[i] = *v;
      }
      script_.commands.push_back(c);
      return end_of_line(t);
    }
    if (t.text == "CLEAR") {
      Command c{Command::Kind::Clear, t.line};
      auto name = word(t, "a pipeline name");
      if (!name) return name.failure();
      c.target = *name;
      script_.commands.push_back(c);
      return end_of_line(t);
    }
    if (t.text == "RUN") return run(t);
    if (t.text == "EXPECT") return expect(t);
    return unsupported(t, "command");
  }

  Result<bool> shader(const Token& t) {
    ShaderDecl s;
    s.line = t.line;
    auto stage = word(t, "a shader stage");
    if (!stage) return stage.failure();
    if (*stage == "vertex") s.stage = ShaderStage::Vertex;
    else if (*stage == "fragment") s.stage = ShaderStage::Fragment;
    else if (*stage == "compute") s.stage = ShaderStage::Compute;
    else return error(t.line, fmt::format("shader stage '{}' is not supported (vertex, fragment, compute)", *stage));
    auto name = word(t, "a shader name");
    if (!name) return name.failure();
    s.name = *name;
    auto format = word(t, "a shader format");
    if (!format) return format.failure();
    if (*format == "PASSTHROUGH") {
      if (s.stage != ShaderStage::Vertex) return error(t.line, "PASSTHROUGH is only a vertex shader");
      s.format = ShaderDecl::Format::Passthrough;
      script_.shaders.push_back(s);
      return end_of_line(t);
    }
    if (*format == "SPIRV-ASM") s.format = ShaderDecl::Format::SpirvAsm;
    else if (*format == "GLSL") s.format = ShaderDecl::Format::Glsl;
    else return error(t.line, fmt::format("shader format '{}' is not supported (PASSTHROUGH, SPIRV-ASM, GLSL)", *format));
    while (!lex_.at_line_end()) {
      Token option = lex_.next();
      if (option.text != "TARGET_ENV") return unsupported(option, "SHADER option");
      auto env = word(option, "an environment");
      if (!env) return env.failure();
      s.target_env = *env;
    }
    bool found_end = false;
    s.source = lex_.raw_block(found_end);
    if (!found_end) return error(t.line, fmt::format("SHADER {} has no END", s.name));
    script_.shaders.push_back(std::move(s));
    return true;
  }

  Result<bool> buffer(const Token& t) {
    BufferDecl b;
    b.line = t.line;
    auto name = word(t, "a buffer name");
    if (!name) return name.failure();
    b.name = *name;
    auto kind = word(t, "DATA_TYPE or FORMAT");
    if (!kind) return kind.failure();
    if (*kind == "FORMAT") {
      auto format = word(t, "a format");
      if (!format) return format.failure();
      if (*format != "B8G8R8A8_UNORM" && *format != "R8G8B8A8_UNORM" && *format != "R32G32B32A32_SFLOAT")
        return error(t.line, fmt::format("buffer format '{}' is not supported", *format));
      b.is_format = true;
      b.format = *format;
      script_.buffers.push_back(std::move(b));
      return end_of_line(t);
    }
    if (*kind != "DATA_TYPE") return error(t.line, fmt::format("BUFFER {} '{}' is not supported", b.name, *kind));
    auto type_name = word(t, "a data type");
    if (!type_name) return type_name.failure();
    auto type = parse_data_type(*type_name);
    if (!type) return error(t.line, type.error());
    b.type = *type;
    auto next = word(t, "STD140, STD430, DATA or SIZE");
    if (!next) return next.failure();
    if (*next == "STD140" || *next == "STD430") {
      b.std140 = *next == "STD140";
      next = word(t, "DATA or SIZE");
      if (!next) return next.failure();
    }
    if (*next == "DATA") {
      std::vector<std::string> values;
      while (true) {
        Token v = lex_.next();
        if (v.text.empty()) return error(t.line, fmt::format("BUFFER {} DATA has no END", b.name));
        if (v.text == "END") break;
        values.push_back(v.text);
      }
      auto bytes = pack_values(b.type, b.std140, values);
      if (!bytes) return error(t.line, bytes.error());
      b.bytes = std::move(*bytes);
      script_.buffers.push_back(std::move(b));
      return true;
    }
    if (*next == "SIZE") {
      auto count = integer(t, "an element count");
      if (!count) return count.failure();
      if (*count < 0 || *count > (1 << 24)) return error(t.line, "SIZE out of range");
      auto how = word(t, "FILL or SERIES_FROM");
      if (!how) return how.failure();
      double start = 0, step = 0;
      if (*how == "FILL") {
        auto v = number(t, "fill value");
        if (!v) return v.failure();
        start = *v;
      } else if (*how == "SERIES_FROM") {
        auto v = number(t, "series start");
        if (!v) return v.failure();
        start = *v;
        auto inc = expect_word(t, "INC_BY");
        if (!inc) return inc.failure();
        auto s = number(t, "series step");
        if (!s) return s.failure();
        step = *s;
      } else {
        return error(t.line, fmt::format("BUFFER SIZE initializer '{}' is not supported", *how));
      }
      auto bytes = pack_series(b.type, b.std140, static_cast<uint32_t>(*count), start, step);
      if (!bytes) return error(t.line, bytes.error());
      b.bytes = std::move(*bytes);
      script_.buffers.push_back(std::move(b));
      return end_of_line(t);
    }
    return error(t.line, fmt::format("BUFFER initializer '{}' is not supported", *next));
  }

  Result<bool> pipeline(const Token& t) {
    PipelineDecl p;
    p.line = t.line;
    auto kind = word(t, "graphics or compute");
    if (!kind) return kind.failure();
    if (*kind != "graphics" && *kind != "compute")
      return error(t.line, fmt::format("{} pipelines are not supported", *kind));
    p.compute = *kind == "compute";
    auto name = word(t, "a pipeline name");
    if (!name) return name.failure();
    p.name = *name;
    if (auto r = end_of_line(t); !r) return r;
    while (true) {
      Token c = lex_.next();
      if (c.text.empty()) return error(t.line, fmt::format("PIPELINE {} has no END", p.name));
      if (c.text == "END") break;
      if (c.text == "ATTACH") {
        auto shader_name = word(c, "a shader name");
        if (!shader_name) return shader_name.failure();
        p.shaders.push_back(*shader_name);
        p.entry_points.emplace_back();
        while (!lex_.at_line_end()) {
          Token option = lex_.next();
          if (option.text != "ENTRY_POINT") return unsupported(option, "ATTACH option");
          auto ep = word(option, "an entry point name");
          if (!ep) return ep.failure();
          p.entry_points.back() = *ep;
        }
      } else if (c.text == "FRAMEBUFFER_SIZE") {
        auto w = integer(c, "width");
        if (!w) return w.failure();
        auto h = integer(c, "height");
        if (!h) return h.failure();
        if (*w <= 0 || *h <= 0 || *w > 16384 || *h > 16384) return error(c.line, "FRAMEBUFFER_SIZE out of range");
        p.framebuffer_width = static_cast<uint32_t>(*w);
        p.framebuffer_height = static_cast<uint32_t>(*h);
        if (auto r = end_of_line(c); !r) return r;
      } else if (c.text == "BIND") {
        auto r = bind(c, p);
        if (!r) return r;
      } else {
        return unsupported(c, "PIPELINE command");
      }
    }
    script_.pipelines.push_back(std::move(p));
    return true;
  }

  Result<bool> bind(const Token& c, PipelineDecl& p) {
    auto what = word(c, "BUFFER");
    if (!what) return what.failure();
    if (*what != "BUFFER") return error(c.line, fmt::format("BIND {} is not supported (only BIND BUFFER)", *what));
    BufferBinding b;
    auto name = word(c, "a buffer name");
    if (!name) return name.failure();
    b.buffer = *name;
    if (auto r = expect_word(c, "AS"); !r) return r;
    auto as = word(c, "a binding kind");
    if (!as) return as.failure();
    if (*as == "color") {
      b.kind = BufferBinding::Kind::Color;
      if (auto r = expect_word(c, "LOCATION"); !r) return r;
      auto loc = integer(c, "location");
      if (!loc) return loc.failure();
      b.location = static_cast<uint32_t>(*loc);
    } else if (*as == "uniform" || *as == "storage") {
      b.kind = *as == "uniform" ? BufferBinding::Kind::Uniform : BufferBinding::Kind::Storage;
      if (auto r = expect_word(c, "DESCRIPTOR_SET"); !r) return r;
      auto set = integer(c, "descriptor set");
      if (!set) return set.failure();
      if (auto r = expect_word(c, "BINDING"); !r) return r;
      auto binding = integer(c, "binding");
      if (!binding) return binding.failure();
      b.set = static_cast<uint32_t>(*set);
      b.binding = static_cast<uint32_t>(*binding);
    } else if (*as == "push_constant") {
      b.kind = BufferBinding::Kind::PushConstant;
    } else {
      return error(c.line, fmt::format("BIND BUFFER AS {} is not supported", *as));
    }
    p.bindings.push_back(b);
    return end_of_line(c);
  }

  Result<bool> run(const Token& t) {
    Command c{Command::Kind::DrawRect, t.line};
    auto name = word(t, "a pipeline name");
    if (!name) return name.failure();
    c.target = *name;
    if (const PipelineDecl* p = script_.find_pipeline(c.target); p && p->compute) {
      // RUN pipeline x y z: a dispatch of x × y × z workgroups.
      c.kind = Command::Kind::Dispatch;
      std::array<uint32_t, 3> groups{};
      for (auto& g : groups) {
        auto v = integer(t, "a workgroup count");
        if (!v) return v.failure();
        if (*v <= 0 || *v > 65535) return error(t.line, "RUN workgroup counts must be 1-65535");
        g = static_cast<uint32_t>(*v);
      }
      c.width = groups[0];
      c.height = groups[1];
      c.depth = groups[2];
      script_.commands.push_back(c);
      return end_of_line(t);
    }
    auto what = word(t, "DRAW_RECT");
    if (!what) return what.failure();
    if (*what != "DRAW_RECT") return error(t.line, fmt::format("RUN {} is not supported (only DRAW_RECT)", *what));
    if (auto r = expect_word(t, "POS"); !r) return r;
    auto x = integer(t, "x"), y = integer(t, "y");
    if (!x) return x.failure();
    if (!y) return y.failure();
    if (auto r = expect_word(t, "SIZE"); !r) return r;
    auto w = integer(t, "width"), h = integer(t, "height");
    if (!w) return w.failure();
    if (!h) return h.failure();
    if (*w <= 0 || *h <= 0) return error(t.line, "DRAW_RECT SIZE must be positive");
    c.x = static_cast<int32_t>(*x);
    c.y = static_cast<int32_t>(*y);
    c.width = static_cast<uint32_t>(*w);
    c.height = static_cast<uint32_t>(*h);
    script_.commands.push_back(c);
    return end_of_line(t);
  }

  Result<bool> expect(const Token& t) {
    Command c{Command::Kind::ExpectRgba, t.line};
    auto name = word(t, "a buffer name");
    if (!name) return name.failure();
    c.target = *name;
    auto idx = word(t, "IDX");
    if (!idx) return idx.failure();
    if (*idx != "IDX") return error(t.line, fmt::format("EXPECT {} is not supported (only IDX)", *idx));
    if (const BufferDecl* b = script_.find_buffer(c.target); b && !b->is_format) {
      // EXPECT buffer IDX offset EQ values...: a data buffer's contents.
      c.kind = Command::Kind::ExpectData;
      auto offset = integer(t, "a byte offset");
      if (!offset) return offset.failure();
      if (*offset < 0 || *offset > (1 << 28)) return error(t.line, "EXPECT offset out of range");
      c.offset = static_cast<uint32_t>(*offset);
      if (auto r = expect_word(t, "EQ"); !r) return r;
      while (!lex_.at_line_end()) c.values.push_back(lex_.next().text);
      if (c.values.empty()) return error(t.line, "EXPECT ... EQ expects values");
      script_.commands.push_back(std::move(c));
      return true;
    }
    auto x = integer(t, "x"), y = integer(t, "y");
    if (!x) return x.failure();
    if (!y) return y.failure();
    if (*x < 0 || *y < 0) return error(t.line, "EXPECT position must not be negative");
    c.x = static_cast<int32_t>(*x);
    c.y = static_cast<int32_t>(*y);
    auto op = word(t, "SIZE, EQ_RGBA or EQ_RGB");
    if (!op) return op.failure();
    if (*op == "SIZE") {
      auto w = integer(t, "width"), h = integer(t, "height");
      if (!w) return w.failure();
      if (!h) return h.failure();
      if (*w <= 0 || *h <= 0) return error(t.line, "EXPECT SIZE must be positive");
      c.width = static_cast<uint32_t>(*w);
      c.height = static_cast<uint32_t>(*h);
      op = word(t, "EQ_RGBA or EQ_RGB");
      if (!op) return op.failure();
    }
    if (*op != "EQ_RGBA" && *op != "EQ_RGB")
      return error(t.line, fmt::format("EXPECT comparison '{}' is not supported (EQ_RGBA, EQ_RGB)", *op));
    c.has_alpha = *op == "EQ_RGBA";
    for (int i = 0; i < (c.has_alpha ? 4 : 3); ++i) {
      auto v = number(t, "colour component (0-255)");
      if (!v) return v.failure();
      c.color[i] = *v;
    }
    if (!lex_.at_line_end()) {
      if (auto r = expect_word(t, "TOLERANCE"); !r) return r;
      while (!lex_.at_line_end()) {
        std::string text = lex_.next().text;
        Tolerance tol;
        if (!text.empty() && text.back() == '%') {
          tol.percent = true;
          text.pop_back();
        }
        char* end = nullptr;
        tol.value = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0') return error(t.line, fmt::format("bad TOLERANCE '{}'", text));
        c.tolerances.push_back(tol);
      }
      if (c.tolerances.size() != 1 && c.tolerances.size() != 4)
        return error(t.line, "TOLERANCE takes one value or four");
    }
    script_.commands.push_back(c);
    return true;
  }

  Lexer lex_;
  Script script_;
};

}  // namespace

Result<Script> parse_script(std::string_view text) { return Parser(text).parse(); }

const ShaderDecl* Script::find_shader(const std::string& name) const {
  for (const auto& s : shaders)
    if (s.name == name) return &s;
  return nullptr;
}

const BufferDecl* Script::find_buffer(const std::string& name) const {
  for (const auto& b : buffers)
    if (b.name == name) return &b;
  return nullptr;
}

const PipelineDecl* Script::find_pipeline(const std::string& name) const {
  for (const auto& p : pipelines)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace sluice::exec::amber
