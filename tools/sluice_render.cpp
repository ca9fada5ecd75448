// `sluice render FILE -o out.png [--size WxH] [--format png|pfm]`: compiles
// a fragment shader (λV, GLSL, or ready SPIR-V) with Sluice, draws it on the
// headless Vulkan runner and writes output location 0 as a picture.
#include <iostream>

#include <fmt/format.h>

#include "exec/image_io.h"
#include "exec/runner.h"
#include "exec/xcheck.h"
#include "sluice_commands.h"
#include "sluice_pipeline.h"

namespace sluice::tools {
namespace {

struct RenderArgs {
  std::string input;
  std::string output;
  std::string size = "256x256";
  std::string format;
  std::string device = "cpu";
  std::string target_env;
  PipelineOptions pipeline;
};

bool parse_size(const std::string& s, std::uint32_t& w, std::uint32_t& h) {
  unsigned a = 0, b = 0;
  char x = 0;
  if (std::sscanf(s.c_str(), "%u%c%u", &a, &x, &b) != 3 || (x != 'x' && x != 'X') || a == 0 || b == 0 ||
      a > 16384 || b > 16384)
    return false;
  w = a;
  h = b;
  return true;
}

int run_render(RenderArgs& args) {
  std::uint32_t width = 0, height = 0;
  if (!parse_size(args.size, width, height)) {
    std::cerr << "sluice: error: --size takes WxH, e.g. 256x256 (at most 16384 each)\n";
    return kExitUsage;
  }
  std::string format = args.format;
  if (format.empty()) format = args.output.ends_with(".pfm") ? "pfm" : "png";
  auto file_format = exec::parse_image_file_format(format);
  if (!file_format) {
    std::cerr << "sluice: error: " << file_format.error() << "\n";
    return kExitUsage;
  }
  if (auto e = finish_pipeline_options(args.pipeline, args.target_env, "", "", ""); !e.empty()) {
    std::cerr << "sluice: error: " << e << "\n";
    return kExitUsage;
  }
  std::vector<std::uint32_t> spirv;
  if (args.input.ends_with(".spv") || args.input.ends_with(".spvasm")) {
    auto words = exec::read_spirv_file(args.input);
    if (!words) {
      std::cerr << "sluice: error: " << words.error() << "\n";
      return kExitError;
    }
    spirv = std::move(*words);
  } else {
    const auto source = read_text_file(args.input);
    if (!source) {
      std::cerr << "sluice: error: cannot read '" << args.input << "'\n";
      return kExitError;
    }
    auto module = compile_to_ir(*source, args.input == "-" ? "<stdin>" : args.input, args.pipeline);
    if (!module.ok()) {
      std::cerr << module.failure.message;
      return module.failure.exit_code;
    }
    auto words = emit_spirv(*module.value, args.pipeline);
    if (!words.ok()) {
      std::cerr << words.failure.message;
      return kExitError;
    }
    spirv = std::move(*words.value);
  }
  auto device = exec::parse_device_choice(args.device);
  if (!device) {
    std::cerr << "sluice: error: " << device.error() << "\n";
    return kExitUsage;
  }
  auto runner = exec::Runner::create(*device);
  if (!runner) {
    std::cerr << "sluice: error: " << runner.error() << "\n";
    return kExitError;
  }
  std::cerr << "sluice: rendering on " << runner->device_name() << "\n";
  exec::ShaderRunSettings settings;
  settings.draw.width = width;
  settings.draw.height = height;
  auto out = exec::run_shader(*runner, spirv, settings);
  if (!out) {
    std::cerr << "sluice: error: " << out.error() << "\n";
    return kExitError;
  }
  if (out->images.empty()) {
    std::cerr << "sluice: error: the shader has no fragment output to render\n";
    return kExitError;
  }
  auto written = exec::write_image(out->images[0], args.output, *file_format);
  if (!written) {
    std::cerr << "sluice: error: " << written.error() << "\n";
    return kExitError;
  }
  return kExitOk;
}

}  // namespace

CommandAction add_render_command(CLI::App& sub) {
  auto args = std::make_shared<RenderArgs>();
  sub.add_option("file", args->input, "Fragment shader: .lv, .frag, or SPIR-V (.spv, .spvasm)")->required();
  sub.add_option("-o,--output", args->output, "The picture to write")->required();
  sub.add_option("--size", args->size, "Width x height in pixels (default 256x256)");
  sub.add_option("--format", args->format, "png (8 bits per channel) or pfm (exact floats); default from -o");
  sub.add_option("--device", args->device, "cpu (lavapipe, default), gpu, or a device index");
  sub.add_option("-O", args->pipeline.opt_level, "Sluice's pass pipeline: O0 or O1 (default)")
      ->transform([](std::string s) { return "O" + s; });
  sub.add_option("--target-env", args->target_env, "SPIR-V target environment (default vulkan1.0)");
  add_pipeline_options(sub, args->pipeline);
  sub.footer("Example:\n  sluice render examples/gradient.lv -o gradient.png --size 128x128");
  return [args] { return run_render(*args); };
}

}  // namespace sluice::tools
