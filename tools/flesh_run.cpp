// See flesh_run.h.
#include "flesh_run.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "flesh/amber.h"
#include "flesh/batch_run.h"
#include "flesh_jobs.h"
#include "process_pool.h"
#include "spirv_cross_peer.h"
#include "xcheck_variants.h"

namespace sluice::tools {
namespace {

// One child's work: tests [first, first + count) of one mode; `variant`
// restricts it to one variant (a hang being pinned), -1 for all.
struct Unit {
  flesh::Mode mode;
  std::uint64_t first;
  std::uint64_t count;
  int variant = -1;
};

std::string clean(std::string s) {
  for (char& c : s)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return s;
}

flesh::CampaignOptions options_for(const FleshRunConfig& config, flesh::Mode mode) {
  flesh::CampaignOptions o = config.campaign;
  o.flesh.mode = mode;
  return o;
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

// Runs one unit in the (child) process; the lines parse_unit_output reads:
//   D <device>      T <mode> <index> <variant> <P|F|E> <message>
//   H <message>     C <coverage counts>
std::string run_unit(const Unit& u, const FleshRunConfig& config) {
  std::string out;
  const exec::GlslangSession glslang;  // built-in tables kept across the batch's compilations
  flesh::Coverage coverage;
  const flesh::CampaignOptions options = options_for(config, u.mode);
  std::vector<flesh::Test> tests;
  for (std::uint64_t i = 0; i < u.count; ++i) {
    auto t = flesh::campaign_test(config.seed, u.first + i, options, coverage);
    if (!t) {
      out += fmt::format("T\t{}\t{}\t0\tE\t{}\n", flesh::to_string(u.mode), u.first + i, clean(t.error()));
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
  if (!ctx) return "H\tno device: " + clean(ctx.error()) + "\n";
  if (config.device.kind == exec::DeviceChoice::Gpu &&
      (*ctx)->properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
    return "H\t--device gpu found only a CPU device: " + clean((*ctx)->description()) + "\n";
  out += "D\t" + clean((*ctx)->description()) + "\n";
  auto result = flesh::run_batch(**ctx, plan.jobs);
  if (!result) return out + "H\t" + clean(result.error()) + "\n";
  for (std::size_t k = 0; k < tests.size(); ++k)
    for (std::size_t v = 0; v < kFleshVariantCount; ++v) {
      const auto& place = plan.places[k][v];
      if (!place.run) continue;
      const std::string head = fmt::format("T\t{}\t{}\t{}\t", flesh::to_string(u.mode), u.first + k, v);
      if (!place.error.empty()) {
        out += head + "E\t" + clean(place.error) + "\n";
        continue;
      }
      const auto& got = result->outputs[place.job];
      if (!got) {
        out += head + "E\t" + clean(got.error()) + "\n";
        continue;
      }
      const auto first = got->begin() + place.out_offset;
      const std::vector<std::uint32_t> words(first, first + std::ptrdiff_t(tests[k].expected.size()));
      if (words == tests[k].expected) out += head + "P\t\n";
      else out += head + "F\t" + clean(describe_mismatch(tests[k], words)) + "\n";
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
  std::string device;
  flesh::Coverage coverage;
};

UnitOutcome parse_unit_output(const ChildResult& r, unsigned limit) {
  UnitOutcome o;
  if (r.timed_out) o.hang = fmt::format("the batch did not finish within {} s", limit);
  else if (r.died) o.hang = fmt::format("the batch's process died (signal {})", r.signal);
  std::istringstream in(r.output);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::size_t at = 0;
    while (true) {
      const auto tab = line.find('\t', at);
      f.push_back(line.substr(at, tab == std::string::npos ? std::string::npos : tab - at));
      if (tab == std::string::npos) break;
      at = tab + 1;
    }
    if (f[0] == "D" && f.size() > 1) o.device = f[1];
    else if (f[0] == "H" && f.size() > 1) o.hang = f[1];
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

FleshRunSummary run_flesh_campaign(const FleshRunConfig& config) {
  FleshRunSummary summary;
  const auto start = std::chrono::steady_clock::now();
  std::vector<Unit> units;
  for (flesh::Mode m : config.modes)
    for (std::uint64_t first = 0; first < config.count; first += config.batch)
      units.push_back({m, first, std::min<std::uint64_t>(config.batch, config.count - first)});
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
  std::vector<Unit> hung;  // batches to split
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
  auto run_units = [&](const std::vector<Unit>& list, std::vector<Unit>& hangs) {
    std::chrono::seconds limit{0};
    for (const Unit& u : list) limit = std::max(limit, limit_for(u));
    run_in_children(
        list.size(), config.jobs, limit, [&](std::size_t i) { return run_unit(list[i], config); },
        [&](std::size_t i, ChildResult r) {
          UnitOutcome o = parse_unit_output(r, static_cast<unsigned>(limit.count()));
          if (!o.hang.empty()) {
            if (gpu) {
              if (summary.stopped.empty())
                summary.stopped = fmt::format("a batch of {} tests hung the GPU ({}): the run stopped", list[i].count, o.hang);
            } else {
              hangs.push_back(list[i]);
            }
            if (list[i].count == 1 && list[i].variant >= 0) {
              auto& res = results[{flesh::to_string(list[i].mode), list[i].first}];
              res.status[static_cast<std::size_t>(list[i].variant)] = 'H';
              res.message[static_cast<std::size_t>(list[i].variant)] = o.hang;
            }
            return;
          }
          absorb(o);
        },
        [&] { return summary.stopped.empty(); });
  };
  run_units(units, hung);
  // On the CPU device: split hung batches into single tests, then single
  // variants, to pin each hang.
  while (!hung.empty()) {
    std::vector<Unit> split, next;
    for (const Unit& u : hung) {
      if (u.count > 1)
        for (std::uint64_t i = 0; i < u.count; ++i) split.push_back({u.mode, u.first + i, 1, -1});
      else if (u.variant < 0)
        for (int v = 0; v < static_cast<int>(kFleshVariantCount); ++v) split.push_back({u.mode, u.first, 1, v});
    }
    run_units(split, next);
    hung = std::move(next);
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
        default: continue;  // not run
      }
      if (r.status[v] == 'P') continue;
      const bool sluice_variant = v == 1 || v == 2;
      const std::string line = fmt::format("{} test {} ({}): {} {}: {}", key.first, key.second,
                                           fmt::format("seed {}", config.seed), kFleshVariants[v],
                                           r.status[v] == 'F'   ? "mismatch"
                                           : r.status[v] == 'H' ? "hang"
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
    if (save && !config.findings_dir.empty()) {
      const auto mode = flesh::mode_from_string(key.first);
      flesh::Coverage unused;
      auto t = flesh::campaign_test(config.seed, key.second, options_for(config, *mode), unused);
      if (!t) continue;
      const std::string name = fmt::format("{}-{}", key.first == "phi+threads" ? "phi-threads" : key.first, key.second);
      (void)flesh::write_test_files(config.findings_dir, name, *t);
      const auto vs = flesh_variants(*t, config);
      for (std::size_t v = 1; v < kFleshVariantCount; ++v)
        if (vs[v].ok()) {
          std::ofstream f(config.findings_dir + "/" + name + "." + kFleshVariants[v] + ".spv", std::ios::binary);
          f.write(reinterpret_cast<const char*>(vs[v].value->data()), std::streamsize(vs[v].value->size() * 4));
        }
    }
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace sluice::tools
