// Execution of AmberScript commands on the Runner.
#include "exec/amber_executor.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "exec/amber_data.h"
#include "exec/vertex_shader.h"

namespace sluice::exec::amber {
namespace {

constexpr double kDefaultTolerance = 0.002;  // Amber's kDefaultTexelTolerance, normalized units

struct ColorState {
  std::optional<Image> image;  // nothing drawn or cleared yet: reads as zero
  bool drawn = false;          // holds a draw's result, not just a clear
};

class Executor {
 public:
  Executor(Runner& runner, const Script& script, const ExecuteOptions& options)
      : runner_(runner), script_(script), options_(options) {}

  Result<ScriptOutcome> run() {
    for (const auto& ext : script_.device_extensions)
      if (!runner_.supports_extension(ext))
        return Error{fmt::format("the script needs device extension {}, which {} does not offer", ext,
                                 runner_.device_name())};
    for (const auto& c : script_.commands) {
      Result<bool> r = true;
      switch (c.kind) {
        case Command::Kind::ClearColor: r = clear_color(c); break;
        case Command::Kind::Clear: r = clear(c); break;
        case Command::Kind::DrawRect: r = draw(c); break;
        case Command::Kind::ExpectRgba: r = expect(c); break;
        case Command::Kind::Dispatch: r = dispatch(c); break;
        case Command::Kind::ExpectData: r = expect_data(c); break;
      }
      if (!r) return r.failure();
    }
    for (auto& [name, state] : colors_)
      if (state.image) outcome_.color_buffers[name] = *state.image;
    return std::move(outcome_);
  }

 private:
  Error error(int line, const std::string& message) {
    return Error{message, ErrorCode::Rejected, ErrorLocation{"", static_cast<std::uint32_t>(line), 0}};
  }

  Result<const PipelineDecl*> pipeline(const Command& c) {
    const PipelineDecl* p = script_.find_pipeline(c.target);
    if (!p) return error(c.line, fmt::format("unknown pipeline '{}'", c.target));
    return p;
  }

  Result<bool> clear_color(const Command& c) {
    auto p = pipeline(c);
    if (!p) return p.failure();
    clear_colors_[c.target] = c.color;
    return true;
  }

  // Fills every colour buffer of the pipeline with its clear colour, stored
  // as the buffer's format stores it.
  Result<bool> clear(const Command& c) {
    auto p = pipeline(c);
    if (!p) return p.failure();
    const auto rgba = clear_colors_[c.target];
    for (const auto& b : (*p)->bindings) {
      if (b.kind != BufferBinding::Kind::Color) continue;
      const BufferDecl* buffer = script_.find_buffer(b.buffer);
      Image img;
      img.width = (*p)->framebuffer_width;
      img.height = (*p)->framebuffer_height;
      img.location = b.location;
      img.rgba.resize(size_t(img.width) * img.height * 4);
      for (size_t i = 0; i < img.rgba.size(); ++i) {
        const double v = rgba[i % 4] / 255.0;
        img.rgba[i] = buffer && buffer->format == "R32G32B32A32_SFLOAT"
                          ? static_cast<float>(v)
                          : static_cast<float>(std::lround(std::clamp(v, 0.0, 1.0) * 255.0)) / 255.0f;
      }
      colors_[b.buffer] = {std::move(img), false};
    }
    return true;
  }

  Result<std::vector<uint32_t>> shader_binary(const ShaderDecl& s) {
    std::vector<uint32_t> words;
    if (s.format == ShaderDecl::Format::SpirvAsm) {
      auto version = spirv_version_for_target_env(s.target_env);
      if (!version) return error(s.line, version.error());
      auto assembled = assemble_spirv(s.source, *version);
      if (!assembled) return error(s.line, fmt::format("shader {}: {}", s.name, assembled.error()));
      words = std::move(*assembled);
    } else if (s.format == ShaderDecl::Format::Glsl) {
      if (!options_.compile_glsl) return error(s.line, "GLSL shaders need a GLSL compiler (none was given)");
      auto compiled = options_.compile_glsl(s.source, s.stage);
      if (!compiled) return error(s.line, fmt::format("shader {}: {}", s.name, compiled.error()));
      words = std::move(*compiled);
    }
    if (options_.replace_shader) {
      auto replaced = options_.replace_shader(s, words);
      if (!replaced) return error(s.line, fmt::format("replacing shader {}: {}", s.name, replaced.error()));
      words = std::move(*replaced);
    }
    return words;
  }

  Result<bool> draw(const Command& c) {
    auto p_result = pipeline(c);
    if (!p_result) return p_result.failure();
    const PipelineDecl& p = **p_result;
    const ShaderDecl* fragment = nullptr;
    for (size_t i = 0; i < p.shaders.size(); ++i) {
      const ShaderDecl* s = script_.find_shader(p.shaders[i]);
      if (!s) return error(p.line, fmt::format("unknown shader '{}'", p.shaders[i]));
      if (!p.entry_points[i].empty() && p.entry_points[i] != "main")
        return error(p.line, "ENTRY_POINT other than main is not supported");
      if (s->stage == ShaderStage::Vertex && s->format != ShaderDecl::Format::Passthrough)
        return error(s->line, "only the PASSTHROUGH vertex shader is supported");
      if (s->stage == ShaderStage::Fragment) fragment = s;
      if (s->stage == ShaderStage::Compute) return error(s->line, "compute shaders in graphics pipelines");
    }
    if (!fragment) return error(p.line, fmt::format("pipeline {} has no fragment shader", p.name));
    auto words = shader_binary(*fragment);
    if (!words) return words.failure();

    DrawOptions draw;
    draw.width = p.framebuffer_width;
    draw.height = p.framebuffer_height;
    draw.rect = PixelRect{c.x, c.y, c.width, c.height};
    draw.color_format = ColorFormat::Unorm8;
    ResourceSpec spec;
    std::vector<const BufferBinding*> color_bindings;
    for (const auto& b : p.bindings) {
      const BufferDecl* buffer = script_.find_buffer(b.buffer);
      if (!buffer) return error(p.line, fmt::format("unknown buffer '{}'", b.buffer));
      switch (b.kind) {
        case BufferBinding::Kind::Color: {
          if (!buffer->is_format) return error(p.line, fmt::format("colour buffer {} needs a FORMAT", b.buffer));
          if (buffer->format == "R32G32B32A32_SFLOAT") draw.color_format = ColorFormat::Float32;
          ColorState& state = colors_[b.buffer];
          if (state.drawn)
            return error(c.line, fmt::format("drawing again into {} without CLEAR is not supported", b.buffer));
          // The runner clears before drawing: use what the buffer holds now.
          if (state.image && !state.image->rgba.empty())
            for (int i = 0; i < 4; ++i) draw.clear_color[i] = state.image->rgba[i];
          color_bindings.push_back(&b);
          break;
        }
        case BufferBinding::Kind::Uniform:
        case BufferBinding::Kind::Storage:
          if (buffer->is_format) return error(p.line, fmt::format("buffer {} has no DATA", b.buffer));
          spec.buffers.push_back({b.set, b.binding, buffer->bytes});
          break;
        case BufferBinding::Kind::PushConstant:
          spec.push_constants = buffer->bytes;
          break;
      }
    }
    spec.buffers.insert(spec.buffers.end(), options_.extra_buffers.begin(), options_.extra_buffers.end());
    auto out = runner_.draw_fragment(*words, draw, spec);
    if (!out) return error(c.line, out.error());
    for (const BufferBinding* b : color_bindings) {
      ColorState& state = colors_[b->buffer];
      for (const auto& img : out->images)
        if (img.location == b->location) state.image = img;
      if (!state.image) state.image = blank(p, b->location);
      state.drawn = true;
    }
    outcome_.storage_buffers = out->storage_buffers;
    return true;
  }

  // A data buffer's contents now: what the last compute RUN left, else its DATA.
  const std::vector<uint8_t>& data_of(const BufferDecl& b) {
    auto it = data_.find(b.name);
    return it == data_.end() ? b.bytes : it->second;
  }

  // RUN pipeline x y z: one dispatch; the storage buffers keep what it wrote.
  Result<bool> dispatch(const Command& c) {
    auto p_result = pipeline(c);
    if (!p_result) return p_result.failure();
    const PipelineDecl& p = **p_result;
    if (p.shaders.size() != 1) return error(p.line, fmt::format("compute pipeline {} needs one shader", p.name));
    const ShaderDecl* s = script_.find_shader(p.shaders[0]);
    if (!s) return error(p.line, fmt::format("unknown shader '{}'", p.shaders[0]));
    if (s->stage != ShaderStage::Compute) return error(p.line, fmt::format("pipeline {} needs a compute shader", p.name));
    if (!p.entry_points[0].empty() && p.entry_points[0] != "main")
      return error(p.line, "ENTRY_POINT other than main is not supported");
    auto words = shader_binary(*s);
    if (!words) return words.failure();
    ResourceSpec spec;
    for (const auto& b : p.bindings) {
      const BufferDecl* buffer = script_.find_buffer(b.buffer);
      if (!buffer) return error(p.line, fmt::format("unknown buffer '{}'", b.buffer));
      if (b.kind == BufferBinding::Kind::Color) return error(p.line, "colour buffers in a compute pipeline");
      if (buffer->is_format) return error(p.line, fmt::format("buffer {} has no DATA", b.buffer));
      if (b.kind == BufferBinding::Kind::PushConstant) spec.push_constants = data_of(*buffer);
      else spec.buffers.push_back({b.set, b.binding, data_of(*buffer)});
    }
    auto out = runner_.dispatch_compute(*words, {c.width, c.height, c.depth}, spec);
    if (!out) return error(c.line, out.error());
    for (const auto& b : p.bindings) {
      if (b.kind != BufferBinding::Kind::Storage) continue;
      for (const auto& sb : out->storage_buffers)
        if (sb.set == b.set && sb.binding == b.binding && sb.array_element == 0) data_[b.buffer] = sb.bytes;
    }
    outcome_.storage_buffers = out->storage_buffers;
    return true;
  }

  // EXPECT buffer IDX offset EQ values: the values laid out by the buffer's
  // type must equal its bytes from `offset` on; the first differing 32-bit
  // word is reported.
  Result<bool> expect_data(const Command& c) {
    const BufferDecl* buffer = script_.find_buffer(c.target);
    if (!buffer) return error(c.line, fmt::format("unknown buffer '{}'", c.target));
    auto expected = pack_values(buffer->type, buffer->std140, c.values);
    if (!expected) return error(c.line, expected.error());
    const std::vector<uint8_t>& actual = data_of(*buffer);
    ExpectOutcome e;
    e.line = c.line;
    if (uint64_t(c.offset) + expected->size() > actual.size()) {
      e.message = fmt::format("line {}: EXPECT {} reads bytes {}-{} of a {}-byte buffer", c.line, c.target, c.offset,
                              c.offset + expected->size(), actual.size());
      outcome_.expects.push_back(std::move(e));
      return true;
    }
    e.passed = std::equal(expected->begin(), expected->end(), actual.begin() + c.offset);
    if (!e.passed) {
      size_t at = 0;
      while ((*expected)[at] == actual[c.offset + at]) ++at;
      at &= ~size_t(3);
      auto word = [](const uint8_t* p, size_t n) {
        uint32_t w = 0;
        for (size_t i = 0; i < 4 && i < n; ++i) w |= uint32_t(p[i]) << (8 * i);
        return w;
      };
      size_t differing = 0;
      for (size_t i = 0; i < expected->size(); i += 4)
        differing += word(expected->data() + i, expected->size() - i) != word(actual.data() + c.offset + i, expected->size() - i);
      e.message = fmt::format("line {}: EXPECT {} failed at byte {}: expected {}, got {} ({} of {} words differ)", c.line,
                              c.target, c.offset + at, word(expected->data() + at, expected->size() - at),
                              word(actual.data() + c.offset + at, expected->size() - at), differing,
                              (expected->size() + 3) / 4);
    }
    outcome_.expects.push_back(std::move(e));
    return true;
  }

  static Image blank(const PipelineDecl& p, uint32_t location) {
    Image img;
    img.width = p.framebuffer_width;
    img.height = p.framebuffer_height;
    img.location = location;
    img.rgba.assign(size_t(img.width) * img.height * 4, 0.0f);
    return img;
  }

  Result<bool> expect(const Command& c) {
    const BufferDecl* buffer = script_.find_buffer(c.target);
    if (!buffer) return error(c.line, fmt::format("unknown buffer '{}'", c.target));
    if (!buffer->is_format) return error(c.line, "EXPECT on data buffers is not supported");
    const ColorState& state = colors_[c.target];
    if (!state.image) return error(c.line, fmt::format("buffer {} was never bound to a pipeline", c.target));
    const Image& img = *state.image;
    if (uint64_t(c.x) + c.width > img.width || uint64_t(c.y) + c.height > img.height)
      return error(c.line, fmt::format("EXPECT area ({}, {}) size {}x{} is outside the {}x{} framebuffer", c.x, c.y,
                                       c.width, c.height, img.width, img.height));
    const int channels = c.has_alpha ? 4 : 3;
    std::array<Tolerance, 4> tol;
    for (int i = 0; i < 4; ++i)
      tol[i] = c.tolerances.empty() ? Tolerance{kDefaultTolerance * 255.0, false}
                                    : c.tolerances[c.tolerances.size() == 4 ? i : 0];
    uint64_t failures = 0;
    std::string first;
    for (uint32_t y = uint32_t(c.y); y < uint32_t(c.y) + c.height; ++y)
      for (uint32_t x = uint32_t(c.x); x < uint32_t(c.x) + c.width; ++x) {
        bool ok = true;
        for (int ch = 0; ch < channels; ++ch) {
          const double actual = double(img.at(x, y, ch)) * 255.0, expected = c.color[ch];
          const double allowed = tol[ch].percent ? tol[ch].value / 100.0 * std::fabs(expected) : tol[ch].value;
          if (!(std::fabs(actual - expected) <= allowed)) ok = false;
        }
        if (ok) continue;
        if (failures++ == 0) {
          auto values = [&](auto get) {
            std::string s;
            for (int ch = 0; ch < channels; ++ch) s += fmt::format("{}{}", ch ? " " : "", get(ch));
            return s;
          };
          first = fmt::format("pixel ({}, {}): expected {} {}, got {}", x, y, c.has_alpha ? "RGBA" : "RGB",
                              values([&](int ch) { return c.color[ch]; }),
                              values([&](int ch) { return double(img.at(x, y, ch)) * 255.0; }));
        }
      }
    ExpectOutcome e;
    e.line = c.line;
    e.passed = failures == 0;
    if (failures)
      e.message = fmt::format("line {}: EXPECT {} failed at {} ({} of {} pixels differ)", c.line, c.target, first,
                              failures, uint64_t(c.width) * c.height);
    outcome_.expects.push_back(std::move(e));
    return true;
  }

  Runner& runner_;
  const Script& script_;
  const ExecuteOptions& options_;
  std::map<std::string, std::array<double, 4>> clear_colors_;
  std::map<std::string, ColorState> colors_;
  std::map<std::string, std::vector<uint8_t>> data_;  // data buffers a compute RUN wrote
  ScriptOutcome outcome_;
};

}  // namespace

bool ScriptOutcome::passed() const {
  for (const auto& e : expects)
    if (!e.passed) return false;
  return true;
}

std::string ScriptOutcome::summary() const {
  size_t ok = 0;
  for (const auto& e : expects) ok += e.passed ? 1 : 0;
  for (const auto& e : expects)
    if (!e.passed) return e.message;
  return fmt::format("{}/{} EXPECTs passed", ok, expects.size());
}

Result<ScriptOutcome> execute_script(Runner& runner, const Script& script, const ExecuteOptions& options) {
  return Executor(runner, script, options).run();
}

Result<ScriptOutcome> run_amber_file(Runner& runner, const std::string& path, const ExecuteOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{fmt::format("cannot open '{}'", path), ErrorCode::Environment};
  std::stringstream text;
  text << in.rdbuf();
  auto script = parse_script(text.str());
  if (!script) return script.failure().prefixed(path + ": ");
  auto outcome = execute_script(runner, *script, options);
  if (!outcome) return outcome.failure().prefixed(path + ": ");
  return outcome;
}

std::optional<Mismatch> compare_outcomes(const ScriptOutcome& e, const ScriptOutcome& a,
                                         const CompareOptions& options) {
  if (e.expects.size() != a.expects.size())
    return Mismatch{"number of EXPECT results", std::to_string(e.expects.size()), std::to_string(a.expects.size())};
  for (size_t i = 0; i < e.expects.size(); ++i)
    if (e.expects[i].passed != a.expects[i].passed)
      return Mismatch{fmt::format("EXPECT on line {}", e.expects[i].line),
                      e.expects[i].passed ? "pass" : "fail: " + e.expects[i].message,
                      a.expects[i].passed ? "pass" : "fail: " + a.expects[i].message};
  for (const auto& [name, image] : e.color_buffers) {
    auto it = a.color_buffers.find(name);
    if (it == a.color_buffers.end()) return Mismatch{"colour buffer " + name, "present", "missing"};
    if (auto m = compare_images(image, it->second, options)) {
      m->where = fmt::format("colour buffer {}, {}", name, m->where);
      return m;
    }
  }
  RunOutput eb, ab;
  eb.storage_buffers = e.storage_buffers;
  ab.storage_buffers = a.storage_buffers;
  return compare_outputs(eb, ab, options);
}

Result<uint32_t> spirv_version_for_target_env(const std::string& env) {
  if (env.empty() || env == "spv1.0" || env == "vulkan1.0") return 0x00010000u;
  if (env == "spv1.1") return 0x00010100u;
  if (env == "spv1.2") return 0x00010200u;
  if (env == "spv1.3" || env == "vulkan1.1") return 0x00010300u;
  if (env == "spv1.4" || env == "vulkan1.1spv1.4") return 0x00010400u;
  if (env == "spv1.5" || env == "vulkan1.2") return 0x00010500u;
  if (env == "spv1.6" || env == "vulkan1.3") return 0x00010600u;
  return Error{fmt::format("TARGET_ENV '{}' is not supported", env)};
}

}  // namespace sluice::exec::amber
