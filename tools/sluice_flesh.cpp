// `sluice flesh`: the CFG fleshing fuzzer (issue 14, docs/flesh.md; Klimis
// et al., POPL 2023, §6). Generates random structured CFGs
// (src/flesh/generate.h), fleshes them into compute shaders whose oracle is
// the path they take (src/flesh/flesh.h), and
//   --out DIR      writes each test (.spv, .spvasm, .amber, buffers);
//   --run          runs each test as the fleshed SPIR-V, through Sluice
//                  (SPIR-V and GLSL), and optionally SPIRV-Cross, and
//                  compares the recorded path with the reference's
//                  (flesh_run.h);
//   --mutants N    measures the oracle's teeth: N mutants, the fraction
//                  flagged;
//   --reduce TEST  shrinks a failing test to a minimal CFG (flesh_reduce.h);
//   --import FILE  fleshes a SPIR-V module's or an Alloy instance's CFG.
// Exit 1 when a Sluice variant disagrees where the fleshed SPIR-V agreed
// (with --strict also for the driver's and the peer's findings), when
// fewer than 99% of the mutants are flagged, or on bad options.
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "device_probe.h"
#include "exec/vulkan_context.h"
#include "flesh/amber.h"
#include "flesh/alloy_import.h"
#include "flesh/batch_run.h"
#include "flesh/test_file.h"
#include "flesh_reduce.h"
#include "flesh_run.h"
#include "process_pool.h"
#include "sluice_commands.h"
#include "flesh/import.h"
#include "frontend/spirv/module.h"
#include "ir/diagnostic.h"
#include "spirv_cross_peer.h"
#include "spirv_diagnostics.h"

namespace sluice::tools {
namespace {

struct FleshArgs {
  std::uint64_t seed = 1;
  std::uint64_t first = 0;
  std::uint64_t count = 100;
  std::string modes = "basic";
  std::uint32_t blocks = 40;
  std::uint32_t walk = 48;
  std::uint32_t invocations = 16;
  std::string out;
  bool run = false;
  std::string device = "lavapipe";
  std::string peer;
  std::string variants = "fleshed,sluice-spirv,sluice-glsl";
  unsigned batch = 64;
  unsigned bundle = 1;
  unsigned jobs = 1;
  unsigned timeout = 10;
  std::string findings;
  bool strict = false;
  std::uint64_t mutants = 0;
  std::string import;
  std::string source = "spirv";
  std::string reduce;
  std::string inject;  // hidden: --inject-failure (flesh_bisect.h)
  PipelineOptions pipeline;
};

int usage_error(const std::string& message) {
  std::cerr << "sluice flesh: error: " << message << "\n";
  return kExitError;
}

// "basic,phi" or "all" → modes; an error names the bad entry.
Result<std::vector<flesh::Mode>> parse_modes(const std::string& text) {
  std::vector<flesh::Mode> modes;
  if (text == "all") return std::vector<flesh::Mode>{flesh::Mode::Basic, flesh::Mode::Phi, flesh::Mode::Threads,
                                                     flesh::Mode::PhiThreads, flesh::Mode::Data};
  std::size_t at = 0;
  while (at <= text.size()) {
    const auto comma = text.find(',', at);
    const std::string name = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    auto m = flesh::mode_from_string(name);
    if (!m)
      return Error{fmt::format("--mode '{}': column {}: unknown mode '{}' (basic, phi, threads, phi+threads, data, all)",
                               text, at + 1, name)};
    modes.push_back(*m);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return modes;
}

// "fleshed,sluice-glsl" → which of kFleshVariants run.
Result<std::array<bool, kFleshVariantCount>> parse_variants(const std::string& text) {
  std::array<bool, kFleshVariantCount> on{};
  std::size_t at = 0;
  while (at <= text.size()) {
    const auto comma = text.find(',', at);
    const std::string name = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    std::size_t v = 0;
    while (v < kFleshVariantCount && name != kFleshVariants[v]) ++v;
    if (v == kFleshVariantCount)
      return Error{fmt::format("--variants '{}': column {}: unknown variant '{}' (fleshed, sluice-spirv, sluice-glsl, "
                               "spirv-cross)",
                               text, at + 1, name)};
    on[v] = true;
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return on;
}

Result<exec::DeviceChoice> parse_device(const std::string& text) {
  if (text == "lavapipe" || text == "cpu") return exec::DeviceChoice{exec::DeviceChoice::Cpu, 0};
  if (text == "gpu") return exec::DeviceChoice{exec::DeviceChoice::Gpu, 0};
  return Error{fmt::format("--device '{}': expected lavapipe (or cpu) or gpu", text)};
}

// --import FILE is an Alloy instance: FILE.xml, or text that starts with '<'.
bool import_is_alloy(const std::string& path) {
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".xml") == 0) return true;
  std::ifstream in(path, std::ios::binary);
  std::string head(256, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return flesh::looks_like_xml(head);
}

// The CFG of an Alloy instance (alloy_import.h); errors printed with the
// line and a caret.
std::optional<flesh::Cfg> import_alloy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << path << ": error: cannot read the file\n";
    return std::nullopt;
  }
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto cfg = flesh::import_alloy_instance(text, path);
  if (cfg) return std::move(*cfg);
  const Error& e = cfg.failure();
  if (e.location)
    std::cerr << render(Diagnostic{Severity::Error, e.location->file, e.location->line, e.location->column, e.message}, text);
  else
    std::cerr << path << ": error: " << e.message << "\n";
  return std::nullopt;
}

// The hidden --inject-failure into `c`; an error message, or "".
std::string take_injected_failure(const FleshArgs& args, FleshRunConfig& c) {
  if (args.inject.empty()) return "";
  std::string error;
  auto inject = parse_injected_failure(args.inject, error);
  if (!inject) return fmt::format("--inject-failure '{}': {}", args.inject, error);
  c.inject = *inject;
  return "";
}

int write_tests(const FleshArgs& args, const std::vector<flesh::Mode>& modes, const flesh::CampaignOptions& base) {
  flesh::Coverage coverage;
  for (flesh::Mode m : modes) {
    flesh::CampaignOptions o = base;
    o.flesh.mode = m;
    const std::string dir = args.out + "/" + (m == flesh::Mode::PhiThreads ? "phi-threads" : flesh::to_string(m));
    for (std::uint64_t i = args.first; i < args.first + args.count; ++i) {
      auto t = flesh::campaign_test(args.seed, i, o, coverage);
      if (!t) {
        std::cerr << "sluice flesh: error: internal: " << t.error() << "\n";
        return kExitInternal;
      }
      const std::string name = fmt::format("flesh-{}-{}", args.seed, i);
      auto w = flesh::write_test_files(dir, name, *t);
      if (w) w = flesh::write_test_description(dir, name, *t, args.walk);
      if (!w) return usage_error(w.error());
    }
  }
  // With --mutants: each mutant too (what --reduce is tested on), as the
  // mutant run makes them.
  flesh::CampaignOptions basic = base;
  basic.flesh.mode = flesh::Mode::Basic;
  for (std::uint64_t i = 0; i < args.mutants; ++i) {
    auto t = flesh::campaign_test(args.seed, i, basic, coverage);
    const flesh::Mutation m = t ? flesh::choose_mutation(*t, args.seed + i) : flesh::Mutation{};
    auto mt = t ? flesh::mutated_test(*t, m) : Result<flesh::Test>(t.failure());
    if (!mt) {
      std::cerr << "sluice flesh: error: internal: " << mt.error() << "\n";
      return kExitInternal;
    }
    const std::string name = fmt::format("flesh-{}-{}", args.seed, i);
    auto w = flesh::write_test_files(args.out + "/mutants", name, *mt);
    if (w) w = flesh::write_test_description(args.out + "/mutants", name, *t, args.walk, m);
    if (!w) return usage_error(w.error());
  }
  std::cout << fmt::format("sluice flesh: wrote {} tests per mode into {}\ncoverage: {}\n", args.count, args.out,
                           coverage.line());
  return kExitOk;
}

// Mutants [first, first + count) with their unmutated tests, in one
// submission (or, for a single mutant, the test and then the mutant in two,
// so that a mutant that hangs still has its test's verdict). Lines:
//   M index kind flagged(0/1) test-wrong(0/1) how     H message (a hang)
std::string run_mutant_unit(const FleshArgs& args, const exec::DeviceChoice& device, const flesh::CampaignOptions& base,
                            std::uint64_t first, std::uint64_t count) {
  // --timeout per pipeline on the CPU device (lavapipe compiles them inside
  // the submission), per submission on a GPU.
  exec::ContextOptions co;
  co.device = device;
  const bool cpu = device.kind == exec::DeviceChoice::Cpu;
  co.timeout = std::chrono::seconds(args.timeout * (count == 1 || !cpu ? 1 : 2 * count));
  auto ctx = exec::VulkanContext::create(co);
  if (!ctx) return "E\t" + ctx.error() + "\n";
  std::string out = "D\t" + (*ctx)->description() + "\n";
  flesh::Coverage coverage;
  std::vector<flesh::Test> tests;
  std::vector<flesh::Mutation> mutations;
  std::vector<std::vector<std::uint32_t>> mutants;
  for (std::uint64_t i = first; i < first + count; ++i) {
    auto t = flesh::campaign_test(args.seed, i, base, coverage);
    if (!t) return "E\t" + t.error() + "\n";
    mutations.push_back(flesh::choose_mutation(*t, args.seed + i));
    auto w = flesh::mutant_spirv(*t, mutations.back());
    if (!w) return "E\t" + w.error() + "\n";
    mutants.push_back(std::move(*w));
    tests.push_back(std::move(*t));
  }
  auto job = [&](std::size_t k, bool mutant) {
    return flesh::BatchJob{mutant ? std::span<const std::uint32_t>(mutants[k]) : std::span<const std::uint32_t>(tests[k].spirv),
                           tests[k].directions, static_cast<std::uint32_t>(tests[k].expected.size()), tests[k].groups()};
  };
  auto line = [&](std::size_t k, bool flagged, bool test_wrong, const char* how) {
    out += fmt::format("M\t{}\t{}\t{}\t{}\t{}\n", first + k, flesh::to_string(mutations[k].kind), flagged ? 1 : 0,
                       test_wrong ? 1 : 0, how);
  };
  if (count == 1) {
    auto original = flesh::run_batch(**ctx, {job(0, false)});
    if (!original) return out + "H\t" + original.error() + "\n";
    const bool wrong = !original->outputs[0] || *original->outputs[0] != tests[0].expected;
    auto mutant = flesh::run_batch(**ctx, {job(0, true)});
    if (!mutant) line(0, true, wrong, "hang");
    else if (!mutant->outputs[0]) line(0, true, wrong, "error");
    else line(0, *mutant->outputs[0] != tests[0].expected, wrong, "mismatch");
    return out;
  }
  std::vector<flesh::BatchJob> jobs;
  for (std::size_t k = 0; k < tests.size(); ++k) {
    jobs.push_back(job(k, false));
    jobs.push_back(job(k, true));
  }
  auto r = flesh::run_batch(**ctx, jobs);
  if (!r) return out + "H\t" + r.error() + "\n";
  for (std::size_t k = 0; k < tests.size(); ++k) {
    const auto& original = r->outputs[2 * k];
    const auto& mutant = r->outputs[2 * k + 1];
    line(k, !mutant || *mutant != tests[k].expected, !original || *original != tests[k].expected,
         !mutant ? "error" : "mismatch");
  }
  return out;
}

// N mutants of basic-mode tests (flesh.h, Mutation): the fraction whose
// output differs from the unmutated test's prediction, a hang included
// (a swapped loop exit can make the exit-ward direction loop forever).
int run_mutants(const FleshArgs& args, const exec::DeviceChoice& device, const flesh::CampaignOptions& base) {
  struct Range {
    std::uint64_t first, count;
  };
  std::vector<Range> ranges;
  for (std::uint64_t first = 0; first < args.mutants; first += args.batch)
    ranges.push_back({first, std::min<std::uint64_t>(args.batch, args.mutants - first)});
  std::uint64_t done = 0, flagged = 0, swaps = 0, drops = 0, test_wrong = 0, hangs = 0;
  std::string device_name, error;
  while (!ranges.empty() && error.empty()) {
    std::vector<Range> hung;
    run_in_children(
        ranges.size(), args.jobs, std::chrono::seconds(120 + (args.timeout + 2) * 2 * args.batch),
        [&](std::size_t i) { return run_mutant_unit(args, device, base, ranges[i].first, ranges[i].count); },
        [&](std::size_t i, ChildResult r) {
          if (r.died || r.timed_out) {
            if (ranges[i].count == 1) error = fmt::format("mutant {}: the process died or timed out", ranges[i].first);
            hung.push_back(ranges[i]);
            return;
          }
          std::istringstream in(r.output);
          std::string l;
          while (std::getline(in, l)) {
            const auto tab = l.find('\t');
            const std::string tag = l.substr(0, tab), rest = tab == std::string::npos ? "" : l.substr(tab + 1);
            if (tag == "D") device_name = rest;
            else if (tag == "E") error = rest;
            else if (tag == "H") {
              if (ranges[i].count == 1) error = "an unmutated test hung: " + rest;
              else
                for (std::uint64_t k = 0; k < ranges[i].count; ++k) hung.push_back({ranges[i].first + k, 1});
            } else if (tag == "M") {
              std::istringstream f(rest);
              std::string index, kind, how;
              int is_flagged = 0, is_wrong = 0;
              f >> index >> kind >> is_flagged >> is_wrong >> how;
              ++done;
              flagged += is_flagged;
              test_wrong += is_wrong;
              hangs += how == "hang";
              (kind == "swap-targets" ? swaps : drops)++;
            }
          }
        });
    ranges = std::move(hung);
  }
  if (!error.empty()) {
    std::cerr << "sluice flesh: error: " << error << "\n";
    return kExitError;
  }
  std::cout << fmt::format(
      "sluice flesh: {} mutants (seed {}, {} swapped on-path branch targets, {} dropped on-path stores) on {}\n"
      "flagged: {} of {} ({:.2f}%; {} of them by hanging); unmutated tests wrong on this device: {}\n",
      done, args.seed, swaps, drops, device_name, flagged, done, done ? 100.0 * double(flagged) / double(done) : 0.0,
      hangs, test_wrong);
  return done == args.mutants && flagged * 100 >= 99 * done ? kExitOk : kExitError;
}

int run_campaign(const FleshArgs& args, const std::vector<flesh::Mode>& modes, const exec::DeviceChoice& device,
                 const flesh::CampaignOptions& base, const std::array<bool, kFleshVariantCount>& variants) {
  FleshRunConfig c;
  c.seed = args.seed;
  c.first = args.first;
  c.modes = modes;
  c.count = args.count;
  c.campaign = base;
  c.device = device;
  c.pipeline = args.pipeline;
  c.variants = variants;
  if (args.peer == "spirv-cross") c.variants[3] = true;
  c.batch = args.batch;
  c.bundle = args.bundle;
  c.jobs = args.jobs;
  c.timeout_seconds = args.timeout;
  c.findings_dir = args.findings;
  c.strict = args.strict;
  if (const std::string e = take_injected_failure(args, c); !e.empty()) return usage_error(e);
  const FleshRunSummary s = run_flesh_campaign(c);
  std::string mode_names;
  for (flesh::Mode m : modes) mode_names += (mode_names.empty() ? "" : ",") + std::string(flesh::to_string(m));
  std::cout << fmt::format("sluice flesh: seed {}, {} tests ({} per mode: {}), device {}\n", args.seed, s.tests,
                           args.count, mode_names, s.device.empty() ? "(none)" : s.device);
  for (std::size_t v = 0; v < kFleshVariantCount; ++v) {
    const auto& t = s.tally[v];
    if (t.pass + t.fail + t.error + t.hang + t.crash == 0) continue;
    std::cout << fmt::format("  {:<13} {} pass, {} mismatch, {} error, {} hang, {} crash{}\n", kFleshVariants[v], t.pass,
                             t.fail, t.error, t.hang, t.crash, v == 3 ? " (peer)" : "");
  }
  std::cout << fmt::format("  sluice failures (variant 2/3 wrong where 1 was right): {}; driver findings: {}; peer findings: {}\n",
                           s.sluice_failures, s.driver_findings, s.peer_findings);
  std::cout << "coverage: " << s.coverage.line() << "\n";
  std::cout << fmt::format("time: {:.1f} s, {:.1f} tests/s\n", s.seconds, s.seconds > 0 ? double(s.tests) / s.seconds : 0.0);
  for (const auto& f : s.findings) std::cout << f << "\n";
  for (const auto& b : s.bisections) std::cout << "FAILED BATCH " << b << "\n";
  if (!s.stopped.empty()) std::cout << "stopped: " << s.stopped << "\n";
  if (s.tests == 0) return kExitError;
  if (s.sluice_failures > 0) return kExitError;
  if (args.strict && (s.driver_findings > 0 || s.peer_findings > 0 || !s.stopped.empty())) return kExitError;
  return kExitOk;
}

int run_flesh(FleshArgs& args) {
  auto modes = parse_modes(args.modes);
  if (!modes) return usage_error(modes.error());
  auto device = parse_device(args.device);
  if (!device) return usage_error(device.error());
  auto variants = parse_variants(args.variants);
  if (!variants) return usage_error(variants.error());
  if (args.pipeline.fp_contract == "off" && (*variants)[2])
    return usage_error("--fp-contract=off: the sluice-glsl variant cannot forbid contraction (Sluice's GLSL output "
                       "refuses it); pick the others with --variants");
  if (!args.reduce.empty()) {
    if (auto e = finish_pipeline_options(args.pipeline, "", "", "", ""); !e.empty()) return usage_error(e);
    const DeviceProbe probe = probe_device(*device);
    if (device->kind == exec::DeviceChoice::Gpu && !probe.is_gpu)
      return usage_error("--device gpu: no GPU Vulkan device (" + probe.description + ")");
    if (auto e = resolve_auto_workarounds(args.pipeline, probe.identity); !e.empty()) return usage_error(e);
    FleshRunConfig c;
    c.device = *device;
    c.pipeline = args.pipeline;
    c.variants = *variants;
    if (args.peer == "spirv-cross") c.variants[3] = true;
    c.jobs = args.jobs;
    c.timeout_seconds = args.timeout;
    if (const std::string e = take_injected_failure(args, c); !e.empty()) return usage_error(e);
    return reduce_flesh_test(args.reduce, c, args.out);
  }
  if (args.count == 0 && args.mutants == 0) return usage_error("--count 0: nothing to do");
  if (args.blocks < 4 || args.blocks > 100000) return usage_error(fmt::format("--blocks {}: expected 4-100000", args.blocks));
  if (args.invocations == 0 || args.invocations > 65536)
    return usage_error(fmt::format("--invocations {}: expected 1-65536", args.invocations));
  if (args.batch == 0) return usage_error("--batch 0: expected at least one test per submission");
  if (args.bundle == 0 || args.bundle > 4096) return usage_error(fmt::format("--bundle {}: expected 1-4096", args.bundle));
  if (args.out.empty() && !args.run && args.mutants == 0) return usage_error("nothing to do: give --out DIR, --run or --mutants N");
  if (!args.peer.empty() && args.peer != "spirv-cross") return usage_error(fmt::format("--peer '{}': only spirv-cross", args.peer));
  if (args.peer == "spirv-cross" && !spirv_cross_available())
    return usage_error("--peer spirv-cross: the spirv-cross tool is not on PATH (Debian package spirv-cross)");
  if (auto e = finish_pipeline_options(args.pipeline, "", "", "", ""); !e.empty()) return usage_error(e);
  flesh::CampaignOptions base;
  if (args.source == "tree") base.source = flesh::Source::Tree;
  else if (args.source != "spirv")
    return usage_error(fmt::format("--source '{}': expected spirv (the direct generator) or tree (Sluice block trees)",
                                   args.source));
  if (!args.import.empty() && import_is_alloy(args.import)) {
    auto cfg = import_alloy(args.import);
    if (!cfg) return kExitError;
    base.imported = std::move(*cfg);
  } else if (!args.import.empty()) {
    // --import FILE: a SPIR-V module's CFG instead of generated ones.
    const auto parsed = spirv_in::parse_file(args.import);
    if (!parsed.ok()) {
      print_spirv_parse_error(args.import, parsed.error());
      return kExitError;
    }
    auto cfg = flesh::import_cfg(parsed.value());
    if (!cfg) {
      std::cerr << args.import << ": error: " << cfg.error() << "\n";
      return kExitError;
    }
    base.imported = std::move(*cfg);
  }
  base.max_blocks = args.blocks;
  base.flesh.walk_bound = args.walk;
  base.flesh.invocations = args.invocations;
  int code = kExitOk;
  if (!args.out.empty()) code = std::max(code, write_tests(args, *modes, base));
  if (args.run || args.mutants) {
    const DeviceProbe probe = probe_device(*device);
    if (device->kind == exec::DeviceChoice::Gpu && !probe.is_gpu)
      return usage_error("--device gpu: no GPU Vulkan device (" + probe.description + ")");
    if (auto e = resolve_auto_workarounds(args.pipeline, probe.identity); !e.empty()) return usage_error(e);
  }
  if (args.mutants) {
    flesh::CampaignOptions o = base;
    o.flesh.mode = flesh::Mode::Basic;
    code = std::max(code, run_mutants(args, *device, o));
  }
  if (args.run && args.count) code = std::max(code, run_campaign(args, *modes, *device, base, *variants));
  return code;
}

}  // namespace

CommandAction add_flesh_command(CLI::App& sub) {
  auto args = std::make_shared<FleshArgs>();
  args->pipeline.workarounds = "auto";
  sub.add_option("--seed", args->seed, "Campaign seed: test i is reproducible from (seed, i) alone (default 1)");
  sub.add_option("--first", args->first, "Index of the first test (default 0): tests FIRST to FIRST+COUNT-1 of each mode");
  sub.add_option("--count", args->count, "Tests per mode (default 100)");
  sub.add_option("--mode", args->modes, "basic, phi, threads, phi+threads, data, a comma-separated list, or all (default basic)");
  sub.add_option("--blocks", args->blocks, "Most blocks per generated CFG (default 40; each test draws 4 to this)");
  sub.add_option("--walk", args->walk, "Random steps of the path before it heads for an exit (default 48)");
  sub.add_option("--invocations", args->invocations, "Invocations per test in the threads modes (default 16)");
  sub.add_option("--source", args->source,
                 "Where CFGs come from: spirv (the direct SPIR-V generator, default) or tree (random Sluice block "
                 "trees through Sluice's SPIR-V output)");
  sub.add_option("--import", args->import,
                 "Flesh this CFG instead of generated ones: a SPIR-V module's (.spv or .spvasm; its entry point's "
                 "function) or an Alloy instance's (.xml, the POPL 2023 paper's model)");
  sub.add_option("--reduce", args->reduce,
                 "Shrink a failing test (NAME.cfg from --out or --findings, or NAME) to a minimal CFG that fails the "
                 "same way, and print it as SPIR-V assembly and as sluice cfg --dot (--out DIR: write it there)");
  sub.add_option("--out", args->out,
                 "Write each test (.spv, .spvasm, .amber, .directions, .expected, .cfg) under DIR/MODE/; with "
                 "--mutants N also the mutants under DIR/mutants/");
  sub.add_flag("--run", args->run, "Run each test: the fleshed SPIR-V, Sluice's SPIR-V and GLSL of it (and the peer's)");
  sub.add_option("--device", args->device, "lavapipe (default; also cpu) or gpu (a non-CPU Vulkan device)");
  sub.add_option("--peer", args->peer, "Also run SPIRV-Cross's GLSL of each test (spirv-cross), reported apart");
  sub.add_option("--variants", args->variants,
                 "Which ways to run each test (default fleshed,sluice-spirv,sluice-glsl; --peer adds spirv-cross)");
  sub.add_option("--batch", args->batch, "Tests per Vulkan submission (default 64)");
  sub.add_option("--bundle", args->bundle,
                 "Tests per module: K tests' CFGs as K functions of one module, one pipeline per K tests "
                 "(src/flesh/bundle.h; default 1, each test its own module)");
  sub.add_option("-j,--jobs", args->jobs, "Batches run at once, each in its own process (default 1)");
  sub.add_option("--timeout", args->timeout,
                 "Seconds a submission may take before it counts as a hang, per pipeline on lavapipe (which "
                 "compiles inside the submission), per submission on a GPU (default 10)");
  sub.add_option("--findings", args->findings, "Write every failing test (and each variant's SPIR-V) into this directory; a batch that crashed, "
                 "lost the device or hung goes whole into DIR/batch-MODE-FIRST/ and is bisected to its culprits");
  sub.add_flag("--strict", args->strict, "Exit 1 also for the driver's and the peer's mismatches");
  sub.add_option("--mutants", args->mutants,
                 "Run N mutants (swapped on-path branch targets, dropped on-path stores) and report the fraction "
                 "flagged; exit 1 below 99%");
  sub.add_option("-O", args->pipeline.opt_level, "Sluice's pass pipeline for variants 2 and 3: O0 or O1 (default)")
      ->transform([](std::string s) { return "O" + s; });
  add_pipeline_options(sub, args->pipeline);
  // For the tests of the failed-batch bisection only (flesh_bisect.h).
  sub.add_option("--inject-failure", args->inject)->group("");
  sub.footer("Example:\n  sluice flesh --seed 1 --count 1000 --mode all --run --peer spirv-cross --findings findings/\n"
             "  sluice flesh --seed 7 --count 20 --mode phi+threads --out tests/   # write the tests\n"
             "  sluice flesh --mutants 1000                                         # the oracle's teeth\n"
             "  sluice flesh --reduce findings/phi-12                               # a minimal failing CFG");
  return [args] { return run_flesh(*args); };
}

}  // namespace sluice::tools
