// See flesh_run.h.
#include "flesh_run.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "flesh/amber.h"
#include "flesh/batch_run.h"
#include "flesh_jobs.h"
#include "flesh/test_file.h"
#include "process_pool.h"
#include "spirv_cross_peer.h"
#include "xcheck_variants.h"

namespace sluice::tools {
namespace {

using Unit = FleshUnit;


flesh::CampaignOptions options_for(const FleshRunConfig& config, flesh::Mode mode) {
  flesh::CampaignOptions o = config.campaign;
  o.flesh.mode = mode;
  return o;
}

// Runs one unit in the (child) process; the lines parse_unit_output reads:
//   D <device>      T <mode> <index> <variant> <P|F|E> <message>
//   H <message>     C <coverage counts>     N <message> (no device)
std::string run_unit(const Unit& u, const FleshRunConfig& config) {
  std::string out;
  const exec::GlslangSession glslang;  // built-in tables kept across the batch's compilations
  flesh::Coverage coverage;
  const flesh::CampaignOptions options = options_for(config, u.mode);
  std::vector<flesh::Test> tests;
  for (std::uint64_t i = 0; i < u.count; ++i) {
    auto t = flesh::campaign_test(config.seed, u.first + i, options, coverage);
    if (!t) {
      out += fmt::format("T\t{}\t{}\t0\tE\t{}\n", flesh::to_string(u.mode), u.first + i, field_text(t.error()));
      continue;
    }
    tests.push_back(std::move(*t));
  }
  const FleshJobPlan plan = plan_flesh_jobs(tests, config, u.variant);
  // On the CPU device the submission's time limit is --timeout per
  // pipeline: lavapipe compiles each pipeline's code when the submission
  // first runs it. A GPU driver compiles at pipeline creation, so there the
  // limit is --timeout for the whole submission, and a hang shows soon.
  exec::ContextOptions co;
  co.device = config.device;
  const bool cpu = config.device.kind == exec::DeviceChoice::Cpu;
  co.timeout = std::chrono::seconds(config.timeout_seconds * (cpu ? std::max<std::size_t>(1, plan.pairs) : 1));
  auto ctx = exec::VulkanContext::create(co);
  if (!ctx) return "N\tno device: " + field_text(ctx.error()) + "\n";
  if (config.device.kind == exec::DeviceChoice::Gpu &&
      (*ctx)->properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
    return "N\t--device gpu found only a CPU device: " + field_text((*ctx)->description()) + "\n";
  out += "D\t" + field_text((*ctx)->description()) + "\n";
  std::vector<std::pair<std::uint64_t, std::size_t>> job_tests;  // every (test, variant) in the jobs
  for (std::size_t k = 0; k < tests.size(); ++k)
    for (std::size_t v = 0; v < kFleshVariantCount; ++v)
      if (plan.places[k][v].run && plan.places[k][v].error.empty()) job_tests.emplace_back(u.first + k, v);
  if (injected_failure_fires(config.inject, u, job_tests))
    return out + "H\tVK_ERROR_DEVICE_LOST (injected by --inject-failure)\n";
  auto result = flesh::run_batch(**ctx, plan.jobs);
  if (!result) return out + "H\t" + field_text(result.error()) + "\n";
  for (std::size_t k = 0; k < tests.size(); ++k)
    for (std::size_t v = 0; v < kFleshVariantCount; ++v) {
      const auto& place = plan.places[k][v];
      if (!place.run) continue;
      const std::string head = fmt::format("T\t{}\t{}\t{}\t", flesh::to_string(u.mode), u.first + k, v);
      if (!place.error.empty()) {
        out += head + "E\t" + field_text(place.error) + "\n";
        continue;
      }
      const auto& got = result->outputs[place.job];
      if (!got) {
        out += head + "E\t" + field_text(got.error()) + "\n";
        continue;
      }
      const auto first = got->begin() + place.out_offset;
      const std::vector<std::uint32_t> words(first, first + std::ptrdiff_t(tests[k].expected.size()));
      if (words == tests[k].expected) out += head + "P\t\n";
      else out += head + "F\t" + field_text(describe_mismatch(tests[k], words)) + "\n";
    }
  out += "C\t";
  for (std::uint64_t c : coverage.counts) out += fmt::format("{} ", c);
  return out + "\n";
}

struct UnitOutcome {
  struct Line {
    std::string mode;
    std::uint64_t index = 0;
    std::size_t variant = 0;
    char status = 'E';
    std::string message;
  };
  std::vector<Line> lines;
  std::string hang;  // non-empty: the batch hung (or the child died)
  bool timeout = false;
  bool fatal = false;  // no device
  std::string device;
  flesh::Coverage coverage;
};

UnitOutcome parse_unit_output(const ChildResult& r, unsigned limit) {
  UnitOutcome o;
  if (r.timed_out) o.hang = fmt::format("the batch did not finish within {} s", limit);
  else if (r.died) o.hang = fmt::format("the batch's process died (signal {}{})", r.signal, r.signal == SIGSEGV ? ", SIGSEGV"
                                                                                          : r.signal == SIGABRT ? ", SIGABRT"
                                                                                                                : "");
  o.timeout = r.timed_out;
  std::istringstream in(r.output);
  std::string line;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = split_fields(line);
    if (f[0] == "D" && f.size() > 1) o.device = f[1];
    else if ((f[0] == "H" || f[0] == "N") && f.size() > 1) {
      o.hang = f[1];
      o.fatal = f[0] == "N";
      o.timeout = f[1].find("timed out") != std::string::npos;
    }
    else if (f[0] == "T" && f.size() >= 6)
      o.lines.push_back({f[1], std::stoull(f[2]), std::stoul(f[3]), f[4].empty() ? 'E' : f[4][0], f[5]});
    else if (f[0] == "C" && f.size() > 1) {
      std::istringstream counts(f[1]);
      for (auto& c : o.coverage.counts) counts >> c;
    }
  }
  return o;
}

}  // namespace

std::string field_text(std::string s) {
  for (char& c : s)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return s;
}

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> f;
  for (std::size_t at = 0;;) {
    const auto tab = line.find('\t', at);
    f.push_back(line.substr(at, tab == std::string::npos ? std::string::npos : tab - at));
    if (tab == std::string::npos) return f;
    at = tab + 1;
  }
}

// "invocation 0: expected path 1 2 5 3, got 1 2 4 3" (block numbers), or
// the first differing value in data mode.
std::string describe_mismatch(const flesh::Test& t, const std::vector<std::uint32_t>& got) {
  const std::uint32_t slots = t.slots();
  for (std::uint32_t inv = 0; inv < t.invocations; ++inv) {
    const std::uint32_t* e = t.expected.data() + std::size_t(inv) * slots;
    const std::uint32_t* g = got.data() + std::size_t(inv) * slots;
    auto path = [&](const std::uint32_t* o) {
      std::string s;
      for (std::uint32_t i = 0; i <= t.capacity && o[i] != 0; ++i) s += fmt::format("{}{}", i ? " " : "", o[i]);
      return s.empty() ? std::string("(nothing)") : s;
    };
    if (!std::equal(e, e + t.capacity + 1, g))
      return fmt::format("invocation {}: expected path {}, got {}", inv, path(e), path(g));
    for (std::uint32_t i = t.capacity + 1; i < slots; ++i)
      if (e[i] != g[i])
        return fmt::format("invocation {}: path right, value after block {} (step {}): expected {}, got {}", inv,
                           e[i - t.capacity - 1], i - t.capacity - 1, e[i], g[i]);
  }
  return "the output differs";
}

std::array<StepResult<std::vector<std::uint32_t>>, kFleshVariantCount> flesh_variants(const flesh::Test& test,
                                                                                     const FleshRunConfig& config) {
  return flesh_module_variants(test.spirv, config);
}

std::array<StepResult<std::vector<std::uint32_t>>, kFleshVariantCount> flesh_module_variants(
    const std::vector<std::uint32_t>& spirv, const FleshRunConfig& config) {
  std::array<StepResult<std::vector<std::uint32_t>>, kFleshVariantCount> v;
  v[0].value = spirv;
  if (config.variants[1] || config.variants[2]) {
    PipelineOptions options = config.pipeline;
    options.language = "spirv";
    const std::string bytes(reinterpret_cast<const char*>(spirv.data()), spirv.size() * 4);
    SluiceVariants s = compile_variants(bytes, "flesh.spv", exec::ShaderStage::Compute, options);
    v[1] = std::move(s.spirv);
    v[2] = std::move(s.via_glsl);
  }
  if (config.variants[3]) v[3] = spirv_cross_variant(spirv, exec::ShaderStage::Compute, config.pipeline);
  for (std::size_t i = 0; i < kFleshVariantCount; ++i)
    if (!config.variants[i]) {
      v[i].value.reset();
      v[i].failure.message = "skip";
    }
  return v;
}

namespace {

// A test's name under --findings ("phi-12", "phi-threads-3").
std::string finding_name(const std::string& mode, std::uint64_t index) {
  return fmt::format("{}-{}", mode == "phi+threads" ? "phi-threads" : mode, index);
}

// Writes test `index` of `mode` (its files and each variant's SPIR-V) into
// `dir` under finding_name.
void save_test(const FleshRunConfig& config, const std::string& dir, flesh::Mode mode, std::uint64_t index) {
  flesh::Coverage unused;
  auto t = flesh::campaign_test(config.seed, index, options_for(config, mode), unused);
  if (!t) return;
  const std::string name = finding_name(flesh::to_string(mode), index);
  (void)flesh::write_test_files(dir, name, *t);
  (void)flesh::write_test_description(dir, name, *t, config.campaign.flesh.walk_bound);
  const auto vs = flesh_variants(*t, config);
  for (std::size_t v = 1; v < kFleshVariantCount; ++v)
    if (vs[v].ok()) {
      std::ofstream f(dir + "/" + name + "." + kFleshVariants[v] + ".spv", std::ios::binary);
      f.write(reinterpret_cast<const char*>(vs[v].value->data()), std::streamsize(vs[v].value->size() * 4));
    }
}

// "phi tests 3840-4095", "phi test 3901 (fleshed)".
std::string describe_unit(const Unit& u) {
  std::string s = u.count == 1 ? fmt::format("{} test {}", flesh::to_string(u.mode), u.first)
                               : fmt::format("{} tests {}-{}", flesh::to_string(u.mode), u.first, u.first + u.count - 1);
  if (u.variant >= 0) s += fmt::format(" ({})", kFleshVariants[static_cast<std::size_t>(u.variant)]);
  return s;
}

// The command that runs exactly the tests of `u` again, one batch.
std::string replay_command(const FleshRunConfig& config, const Unit& u) {
  std::string variants;
  for (std::size_t v = 0; v < kFleshVariantCount; ++v)
    if (u.variant >= 0 ? static_cast<std::size_t>(u.variant) == v : config.variants[v])
      variants += (variants.empty() ? "" : ",") + std::string(kFleshVariants[v]);
  return fmt::format("sluice flesh --seed {} --mode {} --first {} --count {} --batch {} --blocks {} --walk {} "
                     "--invocations {} --run --device {} --timeout {} --variants {}{}{}",
                     config.seed, flesh::to_string(u.mode), u.first, u.count, u.count, config.campaign.max_blocks,
                     config.campaign.flesh.walk_bound, config.campaign.flesh.invocations,
                     config.device.kind == exec::DeviceChoice::Cpu ? "lavapipe" : "gpu", config.timeout_seconds, variants,
                     config.campaign.source == flesh::Source::Tree ? " --source tree" : "",
                     config.bundle > 1 ? fmt::format(" --bundle {}", config.bundle) : "");
}

}  // namespace

FleshRunSummary run_flesh_campaign(const FleshRunConfig& config) {
  FleshRunSummary summary;
  const auto start = std::chrono::steady_clock::now();
  std::vector<Unit> units;
  for (flesh::Mode m : config.modes)
    for (std::uint64_t i = 0; i < config.count; i += config.batch)
      units.push_back({m, config.first + i, std::min<std::uint64_t>(config.batch, config.count - i)});
  const bool gpu = config.device.kind != exec::DeviceChoice::Cpu;
  // A child may compile a whole batch (lavapipe compiles each pipeline with
  // LLVM) before its submission's own time limit starts.
  auto limit_for = [&](const Unit& u) {
    return std::chrono::seconds(60 + (config.timeout_seconds + 2) * kFleshVariantCount * static_cast<long>(u.count));
  };

  // Results by (mode, index): each variant's status and message.
  struct TestResult {
    std::array<char, kFleshVariantCount> status{};
    std::array<std::string, kFleshVariantCount> message;
  };
  std::map<std::pair<std::string, std::uint64_t>, TestResult> results;
  auto absorb = [&](const UnitOutcome& o) {
    if (!o.device.empty()) summary.device = o.device;
    summary.coverage.add(o.coverage);
    for (const auto& l : o.lines) {
      auto& r = results[{l.mode, l.index}];
      if (l.variant < kFleshVariantCount) {
        r.status[l.variant] = l.status;
        r.message[l.variant] = l.message;
      }
    }
  };
  // Runs `list` in children, `jobs` at once; absorbs the verdicts of those
  // that ran and returns the failures.
  auto run_units = [&](const std::vector<Unit>& list, unsigned jobs) {
    std::vector<std::optional<UnitFailure>> failures(list.size());
    std::chrono::seconds limit{0};
    for (const Unit& u : list) limit = std::max(limit, limit_for(u));
    run_in_children(
        list.size(), jobs, limit, [&](std::size_t i) { return run_unit(list[i], config); },
        [&](std::size_t i, ChildResult r) {
          UnitOutcome o = parse_unit_output(r, static_cast<unsigned>(limit.count()));
          if (o.hang.empty()) return absorb(o);
          if (!o.device.empty()) summary.device = o.device;
          failures[i] = UnitFailure{o.hang, o.timeout, o.fatal};
          if (o.fatal && summary.stopped.empty()) summary.stopped = "no usable device: " + o.hang;
        },
        [&] { return summary.stopped.empty(); });
    return failures;
  };
  const auto first_failures = run_units(units, config.jobs);

  // Each failed batch: saved whole, then bisected in fresh children (one
  // at a time on a GPU, so that a failure is not blamed on a batch that
  // merely ran beside it). Failed batches not reached (the device became
  // unusable) are left out of the tally.
  std::vector<std::pair<Unit, UnitFailure>> culprits;
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (!first_failures[i] || first_failures[i]->fatal || !summary.stopped.empty()) continue;
    const Unit& u = units[i];
    std::string line = fmt::format("{}: {}", describe_unit(u), first_failures[i]->reason);
    // A canary first: one test that passed before, alone. If it fails now,
    // the device itself is unusable (a GPU left wedged), and bisecting
    // would blame every test.
    const auto canary = std::find_if(results.begin(), results.end(), [&](const auto& r) {
      for (std::size_t v = 0; v < kFleshVariantCount; ++v)
        if (config.variants[v] && r.second.status[v] != 'P') return false;
      return true;
    });
    if (canary != results.end()) {
      const Unit c{*flesh::mode_from_string(canary->first.first), canary->first.second, 1, -1};
      if (const auto f = run_units({c}, 1)[0]) {
        summary.stopped = fmt::format("after {} failed, {}, which passed before, failed too ({}): the device is unusable",
                                      describe_unit(u), describe_unit(c), f->reason);
        break;
      }
    }
    if (!config.findings_dir.empty()) {
      const std::string dir = fmt::format("{}/batch-{}", config.findings_dir, finding_name(flesh::to_string(u.mode), u.first));
      for (std::uint64_t k = 0; k < u.count; ++k) save_test(config, dir, u.mode, u.first + k);
      std::ofstream why(dir + "/why.txt");
      why << line << "\nreplay: " << replay_command(config, u) << "\n";
      line += "; saved in " + dir;
    }
    const BisectResult b = bisect_failure(u, *first_failures[i], config.variants, [&](const std::vector<Unit>& list) {
      return run_units(list, gpu ? 1 : config.jobs);
    });
    line += fmt::format("; bisected in {} runs:", b.runs);
    for (const Culprit& c : b.culprits) {
      line += fmt::format(" {}{} ({});", describe_unit(c.unit), c.together ? " together" : "", c.failure.reason);
      culprits.emplace_back(c.unit, c.failure);
      // A set that fails only as a whole: every test (and variant) of it
      // is a finding.
      for (std::uint64_t k = 0; k < c.unit.count; ++k)
        for (std::size_t v = 0; v < kFleshVariantCount; ++v) {
          if (!config.variants[v] || (c.unit.variant >= 0 && static_cast<std::size_t>(c.unit.variant) != v)) continue;
          auto& r = results[{flesh::to_string(c.unit.mode), c.unit.first + k}];
          r.status[v] = c.failure.timeout ? 'H' : 'C';
          r.message[v] = c.failure.reason + (c.together ? fmt::format(" (only together with {})", describe_unit(c.unit)) : "");
        }
    }
    for (const Unit& n : b.not_reproduced) line += fmt::format(" not reproduced alone: {};", describe_unit(n));
    if (b.culprits.empty() && b.not_reproduced.empty()) line += " nothing";
    if (!b.stopped.empty()) line += " stopped: " + b.stopped;
    summary.bisections.push_back(line);
  }
  for (const auto& [u, f] : culprits)
    summary.bisections.push_back(fmt::format("replay {}: {}", describe_unit(u), replay_command(config, u)));
  // Also on disk, for a run whose output is lost with the machine.
  if (!config.findings_dir.empty() && !summary.bisections.empty()) {
    std::ofstream f(config.findings_dir + "/failed-batches.txt", std::ios::app);
    for (const auto& line : summary.bisections) f << line << "\n";
  }

  for (const auto& [key, r] : results) {
    ++summary.tests;
    bool save = false;
    for (std::size_t v = 0; v < kFleshVariantCount; ++v) {
      auto& t = summary.tally[v];
      switch (r.status[v]) {
        case 'P': ++t.pass; break;
        case 'F': ++t.fail; break;
        case 'E': ++t.error; break;
        case 'H': ++t.hang; break;
        case 'C': ++t.crash; break;
        default: continue;  // not run
      }
      if (r.status[v] == 'P') continue;
      const bool sluice_variant = v == 1 || v == 2;
      const std::string line = fmt::format("{} test {} ({}): {} {}: {}", key.first, key.second,
                                           fmt::format("seed {}", config.seed), kFleshVariants[v],
                                           r.status[v] == 'F'   ? "mismatch"
                                           : r.status[v] == 'H' ? "hang"
                                           : r.status[v] == 'C' ? "crash"
                                                                : "error",
                                           r.message[v]);
      if (sluice_variant && r.status[0] == 'P') {
        ++summary.sluice_failures;
        summary.findings.push_back("SLUICE " + line);
        save = true;
      } else if (v == 0) {
        ++summary.driver_findings;
        summary.findings.push_back("DRIVER " + line);
        save = true;
      } else if (v == 3) {
        ++summary.peer_findings;
        summary.findings.push_back("PEER " + line);
        save = true;
      } else {
        summary.findings.push_back("ALSO " + line);  // a Sluice variant failing where the driver failed too
      }
    }
    if (save && !config.findings_dir.empty())
      save_test(config, config.findings_dir, *flesh::mode_from_string(key.first), key.second);
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace sluice::tools
