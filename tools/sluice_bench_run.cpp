// `sluice bench-run FILES... [--device gpu] [--iter N] [--grid-divisor D]`:
// the GPU run time of the same shader compiled several ways (issue 19):
//
//   glslang            glslang's SPIR-V (as glslangValidator -V)
//   glslang+spirv-opt  that, through SPIRV-Tools' optimizer (spirv-opt -O)
//   sluice-O0          Sluice's SPIR-V, -O0
//   sluice-O1          Sluice's SPIR-V, -O1
//   sluice-glsl        Sluice's GLSL (-O1) compiled by glslang
//   sluice-O1-ub-check Sluice's SPIR-V, -O1, instrumented by --ub-check
//                      (docs/ub-check.md): its findings buffer is bound, and
//                      a run where a check fired is reported, not timed
//   file:PATH          the SPIR-V in PATH (binary .spv, or assembly), as
//                      it is: a hand-edited module timed beside the others
//                      (one shader per run then, since PATH is one module)
//
// `--variants` picks and orders them (default: the first five; the first
// picked is the reference the others must agree with). `--fp-contract=off`
// decorates Sluice's SPIR-V variants NoContraction (spirv::Options::
// no_contraction); the variants made from Sluice's GLSL are then skipped.
//
// (a λV file has no glslang variants of its own: its two glslang variants
// compile Sluice's -O1 GLSL, with and without spirv-opt). Everything is
// done in process, so a copied `sluice` binary and the shader files are all
// a machine needs. Each shader names its work in a comment:
// `bench-run: dispatch X Y Z [elements E]` (compute; the output buffer's
// runtime array gets E elements per workgroup) or `bench-run: draw W H`
// (fragment); `--grid-divisor D` divides those sizes (lavapipe runs in
// seconds), and GLSL shaders read `ITER` (their inner work), which
// `--iter N` defines, and `SIZE` (the draw's width).
//
// Every variant is first run once and its results compared with the first
// variant's (exec/compare.h's rules, as xcheck; `--max-ulps` sets the float
// tolerance, 4 ulps by default); then it is run W warm-up plus `--repeats`
// timed times in one command buffer, each run between two Vulkan timestamp
// queries (exec/timestamps.h), and the median of the repeats is reported,
// with the ratio to the faster glslang variant. With `--rounds R` that is
// done R times, the variants interleaved (every variant's round r before any
// round r + 1), and the median is over all R × repeats runs: on a device
// whose speed drifts during a run (lavapipe on a shared CPU) the drift then
// lands on every variant alike rather than on the ones timed last.
//
// W is `--warmup` or, if more, as many runs as keep the GPU busy for
// `--warmup-ms` (default 1,000 ms; a probe of 5 timed runs gives one run's
// time; at most 10,000 runs). A count alone was not enough: on an H100
// (580.159.04) three warm-up runs left the timed runs of a 2-5 ms dispatch
// in a slower state of the GPU for some variants and not others, at random
// (the same SPIR-V read 4.96 ms in one process and 17.2 ms in the next;
// within a batch 4.96 to 28 ms), while 200 warm-up runs made all five
// variants agree within 0.3% (docs/performance.md, "GPU run time").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <regex>

#include <fmt/format.h>

#include "exec/compare.h"
#include "exec/glsl_compiler/glsl_compile.h"
#include "exec/runner.h"
#include "device_probe.h"
#include "sluice_commands.h"
#include "sluice_pipeline.h"
#include "ub_findings.h"
#include "xcheck_variants.h"

namespace sluice::tools {
namespace {

struct BenchArgs {
  std::vector<std::string> files;
  std::string device = "cpu";
  std::optional<unsigned> iter;
  unsigned grid_divisor = 1;
  unsigned warmup = 3;
  double warmup_ms = 1000;
  unsigned repeats = 20;
  unsigned rounds = 1;
  unsigned timeout_seconds = 600;
  std::string tsv;
  std::string workarounds = "auto";
  std::string fp_contract = "on";
  std::uint32_t max_ulps = 4;
  std::vector<std::string> variants;
};

const std::vector<std::string>& variant_names() {
  static const std::vector<std::string> names{"glslang",   "glslang+spirv-opt", "sluice-O0",
                                              "sluice-O1", "sluice-glsl",       "sluice-O1-ub-check"};
  return names;
}
constexpr std::size_t kDefaultVariants = 5;  // all but sluice-O1-ub-check

struct Work {
  bool draw = false;
  std::uint32_t x = 1, y = 1, z = 1;
  std::uint32_t elements = 1;  // per workgroup, in the output buffer's runtime array
};

std::optional<Work> work_of(const std::string& source, unsigned divisor) {
  std::smatch m;
  static const std::regex dispatch(R"(bench-run:\s*dispatch\s+(\d+)\s+(\d+)\s+(\d+)(\s+elements\s+(\d+))?)");
  static const std::regex draw(R"(bench-run:\s*draw\s+(\d+)\s+(\d+))");
  auto scaled = [&](const std::string& s) { return std::max<std::uint32_t>(1, std::stoul(s) / divisor); };
  if (std::regex_search(source, m, dispatch)) {
    const std::uint32_t elements = m[5].matched ? std::max<std::uint32_t>(1, std::stoul(m[5])) : 1;
    return Work{false, scaled(m[1]), scaled(m[2]), scaled(m[3]), elements};
  }
  if (std::regex_search(source, m, draw)) return Work{true, scaled(m[1]), scaled(m[2]), 1, 1};
  return std::nullopt;
}

// `#define SIZE w` (the draw's width) and `#define ITER n` after the #version
// line, then a `#line` that gives the lines after them their numbers in the
// file again (GLSL 4.60 §3.3: after `#line L` the next line is line L), so
// that ub-check's findings name the file's lines.
std::string with_defines(const std::string& source, const Work& work, std::optional<unsigned> iter) {
  const auto version = source.find("#version");
  const auto eol = version == std::string::npos ? std::string::npos : source.find('\n', version);
  if (eol == std::string::npos) return source;
  std::string defines = fmt::format("#define SIZE {}\n", work.x);
  if (iter) defines += fmt::format("#define ITER {}\n", *iter);
  const auto next_line = std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(eol), '\n') + 2;
  defines += fmt::format("#line {}\n", next_line);
  return source.substr(0, eol + 1) + defines + source.substr(eol + 1);
}

struct Variant {
  std::string name;
  StepResult<std::vector<std::uint32_t>> spirv;
  std::optional<UbMap> ub;  // sluice-O1-ub-check: where its findings go
};

StepResult<std::vector<std::uint32_t>> sluice_spirv(const std::string& source, const std::string& path,
                                                    PipelineOptions options, const char* level, UbMap* ub = nullptr) {
  set_opt_level(options, level);
  options.ub_check = ub != nullptr;
  auto module = compile_to_ir(source, path, options, nullptr, nullptr, ub);
  if (!module.ok()) return {std::nullopt, module.failure};
  auto words = emit_spirv(*module.value, options);
  if (words.ok())
    if (const auto messages = spirv::validate(*words.value, options.spirv.target); !messages.empty())
      return {std::nullopt, {"Sluice's SPIR-V fails spirv-val: " + messages.front(), 1}};
  return words;
}

StepResult<std::vector<std::uint32_t>> optimized(const StepResult<std::vector<std::uint32_t>>& in,
                                                 const PipelineOptions& options) {
  if (!in.ok()) return in;
  auto words = spirv::optimize(*in.value, options.spirv.target);
  if (!words) return {std::nullopt, {"spirv-opt: " + words.error(), 1}};
  return {std::move(*words), {}};
}

// A file's SPIR-V, checked by spirv-val like Sluice's own.
StepResult<std::vector<std::uint32_t>> spirv_file(const std::string& path, const PipelineOptions& options) {
  auto words = exec::read_spirv_file(path);
  if (!words) return {std::nullopt, {path + ": " + words.error(), 1}};
  if (const auto messages = spirv::validate(*words, options.spirv.target); !messages.empty())
    return {std::nullopt, {path + " fails spirv-val: " + messages.front(), 1}};
  return {std::move(*words), {}};
}

// The variants `names` picks, in its order.
std::vector<Variant> variants_of(const std::string& source, const std::string& path, exec::ShaderStage stage,
                                 const PipelineOptions& options, const std::vector<std::string>& names) {
  const SluiceVariants s = compile_variants(source, path, stage, options);
  const StepResult<std::vector<std::uint32_t>> glslang =
      is_lambdav_path(path) ? s.via_glsl : glsl_to_checked_spirv(source, stage, options, "the file's");
  std::vector<Variant> out;
  for (const std::string& name : names) {
    Variant v{name, {}, std::nullopt};
    if (name == "glslang") v.spirv = glslang;
    else if (name == "glslang+spirv-opt") v.spirv = optimized(glslang, options);
    else if (name == "sluice-O0") v.spirv = sluice_spirv(source, path, options, "O0");
    else if (name == "sluice-O1") v.spirv = s.spirv;
    else if (name == "sluice-glsl") v.spirv = s.via_glsl;
    else if (name == "sluice-O1-ub-check") v.spirv = sluice_spirv(source, path, options, "O1", &v.ub.emplace());
    else if (name.starts_with("file:")) v.spirv = spirv_file(name.substr(5), options);
    out.push_back(std::move(v));
  }
  return out;
}

Result<exec::RunOutput> run(exec::Runner& runner, const Variant& v, const Work& work, exec::Timing timing) {
  exec::ResourceSpec resources;
  // The findings buffer, zeroed; a run where no check fires leaves it so.
  if (v.ub) resources.buffers.push_back(ub_findings_buffer(*v.ub));
  if (!work.draw) {
    resources.runtime_array_length = work.x * work.y * work.z * work.elements;
    return runner.dispatch_compute(*v.spirv.value, {work.x, work.y, work.z}, resources, timing);
  }
  exec::DrawOptions draw;
  draw.width = work.x;
  draw.height = work.y;
  draw.timing = timing;
  return runner.draw_fragment(*v.spirv.value, draw, resources);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// The timed runs, after a warm-up of at least `--warmup` runs and at least
// `--warmup-ms` of GPU time (see the top of this file for why).
struct TimedRuns {
  Result<exec::RunOutput> output;
  std::uint32_t warmup = 0;
};
TimedRuns timed_runs(exec::Runner& runner, const Variant& v, const Work& work, const BenchArgs& args) {
  constexpr std::uint32_t kProbeRuns = 5, kMaxWarmup = 10000;
  std::uint32_t warmup = args.warmup;
  if (args.warmup_ms > 0) {
    auto probe = run(runner, v, work, {0, kProbeRuns});
    if (!probe) return {std::move(probe), 0};
    const double per_run = probe->milliseconds.empty() ? 0 : median(probe->milliseconds);
    const double wanted = per_run > 0 ? std::ceil(args.warmup_ms / per_run) : kMaxWarmup;
    warmup = std::max(warmup, static_cast<std::uint32_t>(std::min<double>(wanted, kMaxWarmup)));
  }
  return {run(runner, v, work, {warmup, args.repeats}), warmup};
}

int run_bench(BenchArgs& args) {
  PipelineOptions options;
  options.workarounds = args.workarounds;
  options.fp_contract = args.fp_contract;
  if (auto e = finish_pipeline_options(options, "", "", "", ""); !e.empty()) {
    std::cerr << "sluice: error: " << e << "\n";
    return kExitUsage;
  }
  if (args.variants.empty())
    args.variants.assign(variant_names().begin(), variant_names().begin() + kDefaultVariants);
  for (const std::string& name : args.variants)
    if (!name.starts_with("file:") &&
        std::find(variant_names().begin(), variant_names().end(), name) == variant_names().end()) {
      std::string known;
      for (const std::string& n : variant_names()) known += (known.empty() ? "" : ", ") + n;
      std::cerr << fmt::format("sluice: error: unknown --variants name '{}' ({})\n", name, known);
      return kExitUsage;
    }
  auto device = exec::parse_device_choice(args.device);
  if (!device || args.grid_divisor == 0 || args.repeats == 0 || args.rounds == 0) {
    std::cerr << "sluice: error: "
              << (device ? "--grid-divisor, --repeats and --rounds must be positive" : device.error())
              << "\n";
    return kExitUsage;
  }
  // --workarounds=auto (the default, as render and xcheck): the device's,
  // lavapipe's included (a CPU device is asked too).
  if (options.workarounds == "auto") {
    const DeviceProbe probe = probe_device(*device);
    if (auto e = resolve_auto_workarounds(options, probe.identity); !e.empty()) {
      std::cerr << "sluice: error: " << e << "\n";
      return kExitUsage;
    }
  }
  exec::ContextOptions context;
  context.device = *device;
  context.timeout = std::chrono::seconds(args.timeout_seconds);
  auto runner = exec::Runner::create(context);
  if (!runner) {
    std::cerr << "sluice: error: " << runner.error() << "\n";
    return kExitError;
  }
  std::string workarounds;
  for (const std::string& w : options.workaround_names) workarounds += (workarounds.empty() ? "" : ",") + w;
  std::cout << fmt::format("device: {}\nSluice's workarounds: {}\n", runner->context().description(),
                           workarounds.empty() ? "none" : workarounds);
  std::cout << fmt::format(
      "median of {} timed runs ({} round(s) of {}, the variants interleaved) after at least {} warm-up runs and {} ms "
      "of warm-up GPU time per round, milliseconds of GPU time (timestamps)\n\n",
      args.repeats * args.rounds, args.rounds, args.repeats, args.warmup, args.warmup_ms);
  // Ratio columns where their variants are picked.
  auto picked = [&](std::string_view name) {
    return std::find(args.variants.begin(), args.variants.end(), name) != args.variants.end();
  };
  const bool glslang_ratio = picked("sluice-O1") && (picked("glslang") || picked("glslang+spirv-opt"));
  const bool ub_ratio = picked("sluice-O1") && picked("sluice-O1-ub-check");
  std::string header = "| shader | work |", rule = "|---|---|";
  for (const std::string& name : args.variants) {
    header += " " + name + " |";
    rule += "---|";
  }
  if (glslang_ratio) {
    header += " sluice-O1 / faster glslang |";
    rule += "---|";
  }
  if (ub_ratio) {
    header += " ub-check / sluice-O1 |";
    rule += "---|";
  }
  std::cout << header << "\n" << rule << "\n";
  std::ofstream tsv;
  if (!args.tsv.empty()) {
    tsv.open(args.tsv);
    tsv << "shader\tvariant\twords\tmedian_ms\tmin_ms\tmax_ms\tagrees\twarmup_runs\n";
  }
  int status = kExitOk;
  for (const std::string& path : args.files) {
    const auto text = read_text_file(path);
    const std::optional<Work> work = text ? work_of(*text, args.grid_divisor) : std::nullopt;
    if (!work) {
      std::cerr << fmt::format("sluice: error: {}: {}\n", path,
                               text ? "no `bench-run: dispatch X Y Z` or `bench-run: draw W H` line" : "cannot read it");
      status = kExitError;
      continue;
    }
    const std::string source = is_lambdav_path(path) ? *text : with_defines(*text, *work, args.iter);
    const exec::ShaderStage stage = work->draw ? exec::ShaderStage::Fragment : exec::ShaderStage::Compute;
    const std::vector<Variant> variants = variants_of(source, path, stage, options, args.variants);
    std::optional<exec::RunOutput> reference;
    // Each variant is checked once, then timed in `--rounds` rounds that
    // interleave the variants (round r times every variant before round
    // r + 1 starts), so that a drift of the device's speed during the run
    // lands on all of them alike; the median is over every round's runs.
    struct State {
      std::string cell;  // set when the variant is not timed (error, skipped, fired)
      std::string agrees = "yes";
      std::vector<double> milliseconds;
      std::uint32_t warmup = 0;
    };
    std::vector<State> states(variants.size());
    for (std::size_t i = 0; i < variants.size(); ++i) {
      const Variant& v = variants[i];
      State& st = states[i];
      if (!v.spirv.ok()) {
        std::cerr << fmt::format("{}: {}: {}\n", path, v.name, first_line(v.spirv.failure.message));
        // A variant the options rule out (Sluice's GLSL under
        // --fp-contract=off) is said and skipped, not failed.
        st.cell = v.spirv.failure.skip ? "skipped" : "error";
        if (!v.spirv.failure.skip) status = kExitError;
        continue;
      }
      auto once = run(*runner, v, *work, {});
      if (once && v.ub) {
        // Instrumented: its findings buffer leaves the outputs first (what
        // is left compares with the plain program's); a check that fired
        // means the program has undefined behaviour, not worth timing.
        auto findings = take_ub_findings(once->storage_buffers, *v.ub);
        if (!findings) {
          once = Error{findings.error()};
        } else if (!findings->findings.empty()) {
          std::cerr << fmt::format("{}: {}: a check fired:\n{}", path, v.name, describe_ub_findings(*findings));
          st.cell = "fired";
          status = kExitError;
          continue;
        }
      }
      if (!once) {
        std::cerr << fmt::format("{}: {}: {}\n", path, v.name, once.error());
        st.cell = "error";
        status = kExitError;
      } else if (!reference) {
        reference = std::move(*once);
      } else if (auto mismatch = exec::compare_outputs(*reference, *once, {args.max_ulps})) {
        st.agrees = "no";
        std::cerr << fmt::format("{}: {} differs from {}: {}\n", path, v.name, variants.front().name,
                                 mismatch->describe());
      }
    }
    for (unsigned round = 0; round < args.rounds; ++round)
      for (std::size_t i = 0; i < variants.size(); ++i) {
        State& st = states[i];
        if (!st.cell.empty()) continue;
        TimedRuns runs = timed_runs(*runner, variants[i], *work, args);
        if (!runs.output || runs.output->milliseconds.empty()) {
          std::cerr << fmt::format("{}: {}: {}\n", path, variants[i].name,
                                   runs.output ? "no timings" : runs.output.error());
          st.cell = "error";
          status = kExitError;
          continue;
        }
        st.milliseconds.insert(st.milliseconds.end(), runs.output->milliseconds.begin(),
                               runs.output->milliseconds.end());
        st.warmup = std::max(st.warmup, runs.warmup);
      }
    std::vector<std::string> cells;
    double glslang_best = 0, o1 = 0, o1_checked = 0;
    for (std::size_t i = 0; i < variants.size(); ++i) {
      const Variant& v = variants[i];
      const State& st = states[i];
      if (!st.cell.empty()) {
        cells.push_back(st.cell);
        continue;
      }
      const double ms = median(st.milliseconds);
      const auto [lo, hi] = std::minmax_element(st.milliseconds.begin(), st.milliseconds.end());
      if (v.name.starts_with("glslang")) glslang_best = glslang_best == 0 ? ms : std::min(glslang_best, ms);
      if (v.name == "sluice-O1") o1 = ms;
      if (v.name == "sluice-O1-ub-check") o1_checked = ms;
      cells.push_back(fmt::format("{:.3f}{}", ms, st.agrees == "yes" ? "" : " (differs)"));
      if (st.agrees != "yes") status = kExitError;
      if (tsv)
        tsv << fmt::format("{}\t{}\t{}\t{:.4f}\t{:.4f}\t{:.4f}\t{}\t{}\n", path, v.name, v.spirv.value->size(), ms,
                           *lo, *hi, st.agrees, st.warmup);
    }
    std::string row = fmt::format("| {} | {} {}x{}x{} |", path.substr(path.find_last_of('/') + 1),
                                  work->draw ? "draw" : "dispatch", work->x, work->y, work->z);
    for (const std::string& c : cells) row += " " + c + " |";
    if (glslang_ratio) row += glslang_best > 0 && o1 > 0 ? fmt::format(" {:.3f} |", o1 / glslang_best) : " – |";
    if (ub_ratio) row += o1_checked > 0 && o1 > 0 ? fmt::format(" {:.3f} |", o1_checked / o1) : " – |";
    std::cout << row << std::endl;
  }
  return status;
}

}  // namespace

CommandAction add_bench_run_command(CLI::App& sub) {
  auto args = std::make_shared<BenchArgs>();
  sub.add_option("files", args->files, "Shaders (.comp, .frag, .lv) with a `bench-run:` line (bench/gpu/)")
      ->required();
  sub.add_option("--device", args->device, "cpu (lavapipe, default), gpu, or a device index");
  sub.add_option("--iter", args->iter, "GLSL: #define ITER (each shader's inner work; default: the shader's own)");
  sub.add_option("--grid-divisor", args->grid_divisor, "Divide each shader's dispatch or draw size by this (default 1)");
  sub.add_option("--warmup", args->warmup, "Untimed runs before the timed ones, at least (default 3)");
  sub.add_option("--warmup-ms", args->warmup_ms,
                 "Milliseconds of GPU time the untimed runs take, at least (default 1000; 0: --warmup runs only)");
  sub.add_option("--repeats", args->repeats, "Timed runs per round; the median of all is reported (default 20)");
  sub.add_option("--rounds", args->rounds,
                 "Rounds of timed runs, the variants interleaved (round 1 of every variant, then round 2...); "
                 "default 1");
  sub.add_option("--timeout", args->timeout_seconds, "Seconds one submission may take (default 600)");
  sub.add_option("--tsv", args->tsv, "Also write every variant's timings here");
  sub.add_option("--workarounds", args->workarounds,
                 "Driver workarounds for Sluice's variants (docs/workarounds.md): auto (default: the device's), none, all or a list");
  add_fp_contract_option(sub, args->fp_contract);
  sub.add_option("--max-ulps", args->max_ulps,
                 "Floats agree with the reference's within this many units in the last place (default 4, as xcheck; "
                 "0: bit for bit)");
  sub.add_option("--variants", args->variants,
                 "Variants to run, in order, comma-separated; the first is the reference (default: glslang, "
                 "glslang+spirv-opt, sluice-O0, sluice-O1, sluice-glsl; also sluice-O1-ub-check, and file:PATH for "
                 "the SPIR-V in PATH)")
      ->delimiter(',');
  sub.footer("--fp-contract=off applies to Sluice's SPIR-V variants (sluice-O0, sluice-O1, sluice-O1-ub-check); "
             "glslang's variants of a GLSL file are glslang's own, and those made from Sluice's GLSL are skipped.\n"
             "Example:\n  sluice bench-run bench/gpu/* --device gpu\n  sluice bench-run bench/gpu/* --grid-divisor 16 --iter 2\n"
             "  sluice bench-run bench/gpu/* --variants sluice-O1,sluice-O1-ub-check   # ub-check's run-time overhead");
  return [args] { return run_bench(*args); };
}

}  // namespace sluice::tools
