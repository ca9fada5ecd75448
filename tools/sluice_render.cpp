// `sluice render FILE -o out.png [--size WxH] [--format png|pfm]`: compiles
// a fragment shader (λV, GLSL, or ready SPIR-V) with Sluice, draws it on the
// headless Vulkan runner and writes output location 0 as a picture.
#include <iostream>

#include <fmt/format.h>

#include "exec/image_io.h"
#include "exec/runner.h"
#include "exec/xcheck.h"
#include "device_probe.h"
#include "process_pool.h"
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
  unsigned timeout_seconds = 120;
  std::string ub_report;  // --ub-report FILE.json
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

// In the child: draw and write the picture. "ok\tDEVICE" or "error\tWHY";
// with --ub-check, the findings follow on a second line (encode_ub_findings).
std::string draw(const std::vector<std::uint32_t>& spirv, const exec::DeviceChoice& device, std::uint32_t width,
                 std::uint32_t height, const std::string& output, exec::ImageFileFormat format, const UbMap* ub) {
  auto runner = exec::Runner::create(device);
  if (!runner) return "error\t" + runner.error();
  exec::ShaderRunSettings settings;
  settings.draw.width = width;
  settings.draw.height = height;
  if (ub) settings.resources.buffers.push_back(ub_findings_buffer(*ub));
  auto out = exec::run_shader(*runner, spirv, settings);
  if (!out) return fmt::format("error\t{} (on {})", out.error(), runner->device_name());
  if (out->images.empty()) return "error\tthe shader has no fragment output to render";
  auto written = exec::write_image(out->images[0], output, format);
  if (!written) return "error\t" + written.error();
  std::string findings;
  if (ub) {
    auto decoded = take_ub_findings(out->storage_buffers, *ub);
    if (!decoded) return "error\t" + decoded.error();
    findings = "\n" + encode_ub_findings(*decoded);
  }
  return "ok\t" + runner->device_name() + findings;
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
  auto device = exec::parse_device_choice(args.device);
  if (!device) {
    std::cerr << "sluice: error: " << device.error() << "\n";
    return kExitUsage;
  }
  // --workarounds=auto (the default here): those of the device drawn on,
  // lavapipe's too (asked as xcheck asks, so that both draw the same code).
  if (args.pipeline.workarounds == "auto") {
    const DeviceProbe probe = probe_device(*device);
    if (auto e = resolve_auto_workarounds(args.pipeline, probe.identity); !e.empty()) {
      std::cerr << "sluice: error: " << e << "\n";
      return kExitUsage;
    }
  }
  std::vector<std::uint32_t> spirv;
  UbMap ub_map;
  if (args.pipeline.ub_check && is_spirv_path(args.input)) args.pipeline.language = "spirv";
  if (!args.pipeline.ub_check && (args.input.ends_with(".spv") || args.input.ends_with(".spvasm"))) {
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
    auto module = compile_to_ir(*source, args.input == "-" ? "<stdin>" : args.input, args.pipeline, nullptr, nullptr,
                                &ub_map);
    if (!module.ok()) {
      std::cerr << module.failure.message;
      return module.failure.exit_code;
    }
    auto words = emit_spirv(*module.value, args.pipeline, args.input == "-" ? "<stdin>" : args.input);
    if (!words.ok()) {
      std::cerr << words.failure.message;
      return kExitError;
    }
    spirv = std::move(*words.value);
  }
  // The drawing runs in a child process: after a GPU hang the driver can
  // block a process that used the device for minutes when it exits, so
  // this process reports and exits without waiting for it (issue 20).
  std::string report;
  bool died = false;
  run_in_children(
      1, 1, std::chrono::seconds(args.timeout_seconds),
      [&](std::size_t) {
        return draw(spirv, *device, width, height, args.output, *file_format,
                    args.pipeline.ub_check ? &ub_map : nullptr);
      },
      [&](std::size_t, ChildResult r) {
        report = std::move(r.output);
        died = r.died;
        if (r.timed_out) report = fmt::format("error\tthe drawing did not finish within {} s", args.timeout_seconds);
      });
  if (died && report.empty()) report = "error\tthe process drawing the picture died (a driver crash?)";
  const auto tab = report.find('\t');
  const std::string status = report.substr(0, tab);
  std::string text = tab == std::string::npos ? "" : report.substr(tab + 1);
  if (status == "ok") {
    const auto line = text.find('\n');
    std::cerr << "sluice: rendered on " << text.substr(0, line) << "\n";
    if (!args.pipeline.ub_check) return kExitOk;
    const auto findings = decode_ub_findings_line(line == std::string::npos ? "" : text.substr(line + 1));
    if (!findings) {
      std::cerr << "sluice: error: internal: the findings did not come back from the drawing process\n";
      return kExitInternal;
    }
    std::cout << describe_ub_findings(*findings);
    if (!args.ub_report.empty() && !write_ub_report(args.ub_report, *findings)) {
      std::cerr << "sluice: error: cannot write '" << args.ub_report << "'\n";
      return kExitError;
    }
    return findings->findings.empty() ? kExitOk : kExitError;
  }
  std::cerr << "sluice: error: " << text << "\n";
  return kExitError;
}

}  // namespace

CommandAction add_render_command(CLI::App& sub) {
  auto args = std::make_shared<RenderArgs>();
  args->pipeline.workarounds = "auto";
  sub.add_option("file", args->input, "Fragment shader: .lv, .frag, or SPIR-V (.spv, .spvasm)")->required();
  sub.add_option("-o,--output", args->output, "The picture to write")->required();
  sub.add_option("--size", args->size, "Width x height in pixels (default 256x256)");
  sub.add_option("--format", args->format, "png (8 bits per channel) or pfm (exact floats); default from -o");
  sub.add_option("--device", args->device, "cpu (lavapipe, default), gpu, or a device index");
  sub.add_option("-O", args->pipeline.opt_level, "Sluice's pass pipeline: O0 or O1 (default)")
      ->transform([](std::string s) { return "O" + s; });
  sub.add_option("--target-env", args->target_env, "SPIR-V target environment (default vulkan1.0)");
  sub.add_option("--timeout", args->timeout_seconds, "Seconds the drawing may take in all (default 120)");
  sub.add_option("--ub-report", args->ub_report, "--ub-check: also write the findings as JSON");
  add_pipeline_options(sub, args->pipeline);
  sub.footer("Example:\n  sluice render examples/gradient.lv -o gradient.png --size 128x128\n"
             "  sluice render --ub-check shader.frag -o out.png   # report undefined behaviour (docs/ub-check.md)");
  return [args] { return run_render(*args); };
}

}  // namespace sluice::tools
