// See flesh_reduce.h.
#include "flesh_reduce.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "flesh/amber.h"
#include "flesh/batch_run.h"
#include "flesh/check.h"
#include "flesh/reduce.h"
#include "frontend/spirv/cfg/analysis.h"
#include "frontend/spirv/cfg/dot.h"
#include "ir/diagnostic.h"
#include "process_pool.h"
#include "sluice_commands.h"
#include "xcheck_variants.h"

namespace sluice::tools {
namespace {

namespace fs = std::filesystem;

// A variant's verdict on one test: P(ass), F (mismatch), E(rror), H(ang), C(rash).
struct Verdict {
  char status = 'E';
  std::string message;
};

const char* status_name(char s) {
  switch (s) {
    case 'P': return "pass";
    case 'F': return "mismatch";
    case 'H': return "hang";
    case 'C': return "crash";
    default: return "error";
  }
}


// The test as it runs: its mutant's SPIR-V when it has a mutation (a
// mutation that does not assemble leaves the test as it is).
flesh::Test as_run(const flesh::Test& t, const flesh::Mutation& m) {
  auto r = flesh::mutated_test(t, m);
  return r ? std::move(*r) : t;
}

// In the child: `variant` of every test in one submission. Lines
// "R i status message", or "H message" (the submission failed) or
// "N message" (no device).
std::string run_in_child(const std::vector<flesh::Test>& tests, std::size_t variant, const FleshRunConfig& config) {
  const exec::GlslangSession glslang;
  FleshRunConfig only = config;
  only.variants = {};
  only.variants[variant] = true;
  std::string out;
  std::vector<std::vector<std::uint32_t>> spirv(tests.size());
  std::vector<flesh::BatchJob> jobs;
  std::vector<std::size_t> job_test;
  for (std::size_t i = 0; i < tests.size(); ++i) {
    auto v = flesh_variants(tests[i], only);
    if (!v[variant].ok()) {
      out += fmt::format("R\t{}\tE\t{}\n", i, field_text(first_line(v[variant].failure.message)));
      continue;
    }
    spirv[i] = std::move(*v[variant].value);
    jobs.push_back({spirv[i], tests[i].directions, static_cast<std::uint32_t>(tests[i].expected.size()), tests[i].groups()});
    job_test.push_back(i);
  }
  exec::ContextOptions co;
  co.device = config.device;
  const bool cpu = config.device.kind == exec::DeviceChoice::Cpu;
  co.timeout = std::chrono::seconds(config.timeout_seconds * (cpu ? std::max<std::size_t>(1, jobs.size()) : 1));
  auto ctx = exec::VulkanContext::create(co);
  if (!ctx) return "N\t" + field_text(ctx.error()) + "\n";
  if (injected_failure_fires(config.inject, tests)) return out + "H\tVK_ERROR_DEVICE_LOST (injected by --inject-failure)\n";
  auto result = flesh::run_batch(**ctx, jobs);
  if (!result) return out + "H\t" + field_text(result.error()) + "\n";
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const flesh::Test& t = tests[job_test[j]];
    const auto& got = result->outputs[j];
    if (!got) out += fmt::format("R\t{}\tE\t{}\n", job_test[j], field_text(got.error()));
    else if (*got == t.expected) out += fmt::format("R\t{}\tP\t\n", job_test[j]);
    else out += fmt::format("R\t{}\tF\t{}\n", job_test[j], field_text(describe_mismatch(t, *got)));
  }
  return out;
}

class Evaluator {
 public:
  explicit Evaluator(const FleshRunConfig& config) : config_(config) {}

  // `variant` of each test; with `alone`, each test in its own child.
  std::vector<Verdict> run(const std::vector<flesh::Test>& tests, std::size_t variant, bool alone) {
    std::vector<Verdict> verdicts(tests.size());
    if (!alone && tests.size() > 1) {
      bool failed = false;
      run_children({tests}, variant, [&](std::size_t, const std::vector<Verdict>& v, const Verdict* whole) {
        if (whole) failed = true;
        else verdicts = v;
      });
      if (!failed) return verdicts;
    }
    std::vector<std::vector<flesh::Test>> singles;
    for (const auto& t : tests) singles.push_back({t});
    run_children(singles, variant, [&](std::size_t i, const std::vector<Verdict>& v, const Verdict* whole) {
      verdicts[i] = whole ? *whole : v[0];
    });
    return verdicts;
  }

  unsigned children() const { return children_; }
  const std::string& fatal() const { return fatal_; }

 private:
  // done(i, verdicts, whole): `whole` is the verdict for all of group i
  // when its child failed as a whole (it died, timed out or lost the device).
  void run_children(const std::vector<std::vector<flesh::Test>>& groups, std::size_t variant,
                    const std::function<void(std::size_t, const std::vector<Verdict>&, const Verdict*)>& done) {
    std::size_t most = 1;
    for (const auto& g : groups) most = std::max(most, g.size());
    const auto limit = std::chrono::seconds(60 + (config_.timeout_seconds + 2) * static_cast<long>(most));
    children_ += static_cast<unsigned>(groups.size());
    run_in_children(
        groups.size(), config_.jobs, limit, [&](std::size_t i) { return run_in_child(groups[i], variant, config_); },
        [&](std::size_t i, ChildResult r) {
          std::vector<Verdict> v(groups[i].size());
          Verdict whole;
          bool failed = false;
          if (r.timed_out) {
            whole = {'H', fmt::format("the process did not finish within {} s", limit.count())};
            failed = true;
          } else if (r.died) {
            whole = {'C', fmt::format("the process died (signal {})", r.signal)};
            failed = true;
          }
          std::istringstream in(r.output);
          std::string line;
          while (std::getline(in, line)) {
            const std::vector<std::string> f = split_fields(line);
            if (f[0] == "R" && f.size() >= 4) {
              const std::size_t k = std::stoul(f[1]);
              if (k < v.size()) v[k] = {f[2].empty() ? 'E' : f[2][0], f[3]};
            } else if ((f[0] == "H" || f[0] == "N") && f.size() > 1) {
              whole = {f[1].find("timed out") != std::string::npos ? 'H' : 'C', f[1]};
              failed = true;
              if (f[0] == "N") fatal_ = f[1];
            }
          }
          done(i, v, failed ? &whole : nullptr);
        });
  }

  const FleshRunConfig& config_;
  unsigned children_ = 0;
  std::string fatal_;
};

// NAME.cfg for the ways a test may be named (flesh_reduce.h).
std::string description_path(const std::string& test, std::string& error) {
  const fs::path p(test);
  std::error_code ec;
  if (fs::is_directory(p, ec)) {
    std::vector<fs::path> found;
    for (const auto& e : fs::directory_iterator(p, ec))
      if (e.path().extension() == ".cfg") found.push_back(e.path());
    if (found.size() == 1) return found[0].string();
    error = fmt::format("{}: expected one .cfg test description in the directory, found {}", test, found.size());
    return "";
  }
  if (p.extension() == ".cfg" && fs::exists(p, ec)) return test;
  if (fs::exists(test + ".cfg", ec)) return test + ".cfg";
  // NAME.spv, NAME.amber, NAME.sluice-spirv.spv, ...
  for (fs::path q = p; q.has_extension();) {
    q = q.replace_extension();
    if (fs::exists(q.string() + ".cfg", ec)) return q.string() + ".cfg";
  }
  error = fmt::format("{}: no test description (NAME.cfg, written by --out and --findings) found for it", test);
  return "";
}

std::string dot_picture(const std::vector<std::uint32_t>& spirv) {
  auto parsed = spirv_in::parse_binary(spirv);
  if (!parsed.ok()) return "(the module does not parse: " + parsed.error().describe() + ")\n";
  std::string s;
  for (const auto& f : parsed.value().functions) s += spirv_in::cfg::to_dot(spirv_in::cfg::analyze(parsed.value(), f));
  return s;
}

}  // namespace

int reduce_flesh_test(const std::string& test, const FleshRunConfig& config, const std::string& out_dir) {
  std::string error;
  const std::string path = description_path(test, error);
  if (path.empty()) {
    std::cerr << "sluice flesh: error: " << error << "\n";
    return kExitError;
  }
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) {
    std::cerr << path << ": error: cannot read the file\n";
    return kExitError;
  }
  auto parsed = flesh::parse_test_description(text, path);
  if (!parsed) {
    const auto& e = parsed.failure();
    const ErrorLocation loc = e.location.value_or(ErrorLocation{path, 0, 0});
    std::cerr << render(Diagnostic{Severity::Error, loc.file, loc.line, loc.column, e.message}, text);
    return kExitError;
  }
  flesh::TestDescription current = std::move(*parsed);
  auto original = flesh::flesh(current.cfg, current.seed, current.options);
  if (!original) {
    std::cerr << path << ": error: " << original.error() << "\n";
    return kExitError;
  }
  if (const std::string problem = flesh::structure_problem(*original); !problem.empty()) {
    std::cerr << path << ": error: the CFG is no valid structured module: " << problem << "\n";
    return kExitError;
  }

  // Which variant fails, and how: each tried variant alone, in its own child.
  Evaluator eval(config);
  std::size_t variant = kFleshVariantCount;
  Verdict failure;
  for (std::size_t v = 0; v < kFleshVariantCount && variant == kFleshVariantCount; ++v) {
    if (!config.variants[v]) continue;
    const Verdict verdict = eval.run({as_run(*original, current.mutation)}, v, true)[0];
    if (!eval.fatal().empty()) {
      std::cerr << "sluice flesh: error: no usable device: " << eval.fatal() << "\n";
      return kExitError;
    }
    if (verdict.status != 'P') {
      variant = v;
      failure = verdict;
    }
  }
  if (variant == kFleshVariantCount) {
    std::cerr << path << ": error: the test does not fail (its variants pass): nothing to reduce\n";
    return kExitError;
  }
  std::cout << fmt::format("sluice flesh --reduce: {}: {} {}: {}\n", path, kFleshVariants[variant], status_name(failure.status),
                           failure.message);
  const std::uint32_t blocks_before = current.cfg.size(), walk_before = current.options.walk_bound;

  // Greedy: the first step (of the biggest first) that still fails the same way.
  const bool alone = failure.status == 'C' || failure.status == 'H';
  const std::size_t chunk = alone ? 1 : 24;
  unsigned rounds = 0;
  flesh::Test reduced = std::move(*original);
  for (bool progress = true; progress;) {
    progress = false;
    auto steps = flesh::reduction_steps(current);
    for (std::size_t at = 0; at < steps.size() && !progress; at += chunk) {
      std::vector<flesh::Test> batch;
      for (std::size_t i = at; i < std::min(steps.size(), at + chunk); ++i)
        batch.push_back(as_run(steps[i].test, steps[i].description.mutation));
      const auto verdicts = eval.run(batch, variant, alone);
      if (!eval.fatal().empty()) break;
      for (std::size_t i = 0; i < verdicts.size(); ++i)
        if (verdicts[i].status == failure.status) {
          current = std::move(steps[at + i].description);
          reduced = std::move(steps[at + i].test);
          failure = verdicts[i];
          progress = true;
          ++rounds;
          break;
        }
    }
  }
  const flesh::Test shown = as_run(reduced, current.mutation);
  std::cout << fmt::format("reduced in {} steps ({} children): {} blocks -> {}, walk {} -> {}; still {} {}: {}\n", rounds,
                           eval.children(), blocks_before, current.cfg.size(), walk_before, current.options.walk_bound,
                           kFleshVariants[variant], status_name(failure.status), failure.message);
  std::cout << "\nminimal test (" << path << " format):\n" << flesh::describe_test(reduced, current.options.walk_bound, current.mutation);
  std::cout << "expected path of invocation 0: " << flesh::path_text(reduced, 0) << "\n";
  std::cout << "\nSPIR-V assembly" << (current.mutation.kind != flesh::Mutation::Kind::None ? " (with the mutation)" : "")
            << ":\n" << shown.assembly;
  std::cout << "\nsluice cfg --dot:\n" << dot_picture(shown.spirv);
  if (!out_dir.empty()) {
    const std::string name = fs::path(path).stem().string() + "-reduced";
    auto w = flesh::write_test_files(out_dir, name, shown);
    if (w) w = flesh::write_test_description(out_dir, name, reduced, current.options.walk_bound, current.mutation);
    if (!w) {
      std::cerr << "sluice flesh: error: " << w.error() << "\n";
      return kExitError;
    }
    std::cout << fmt::format("\nwrote {}/{}.*\n", out_dir, name);
  }
  return kExitOk;
}

}  // namespace sluice::tools
