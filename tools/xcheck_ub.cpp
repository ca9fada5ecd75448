#include "xcheck_ub.h"

#include <filesystem>

#include <fmt/format.h>

#include "exec/amber_executor.h"
#include "exec/compare.h"
#include "xcheck_variants.h"

namespace sluice::tools {
namespace {

struct Instrumented {
  std::vector<std::uint32_t> spirv;
  UbMap map;
};

Result<Instrumented> instrument(const std::string& source, const std::string& path, const PipelineOptions& options) {
  PipelineOptions o = options;
  o.ub_check = true;
  Instrumented out;
  auto module = compile_to_ir(source, path, o, nullptr, nullptr, &out.map);
  if (!module.ok()) return Error{first_line(module.failure.message)};
  auto words = emit_spirv(*module.value, o, path);
  if (!words.ok()) return Error{first_line(words.failure.message)};
  if (const auto messages = spirv::validate(*words.value, o.spirv.target); !messages.empty())
    return Error{"the instrumented SPIR-V fails spirv-val: " + messages.front()};
  out.spirv = std::move(*words.value);
  return out;
}

VariantOutcome error(const std::string& why) { return {kUbVariant, CheckStatus::Error, first_line(why)}; }

}  // namespace

VariantOutcome ub_check_shader(exec::Runner& runner, const std::string& source, const std::string& path,
                               const std::vector<std::uint32_t>& reference, const exec::ShaderRunSettings& settings,
                               const PipelineOptions& options) {
  auto made = instrument(source, path, options);
  if (!made) return error(made.error());
  exec::ShaderRunSettings with_buffer = settings;
  with_buffer.resources.buffers.push_back(ub_findings_buffer(made->map));
  auto checked = exec::run_shader(runner, made->spirv, with_buffer);
  if (!checked) return error(checked.error());
  auto findings = take_ub_findings(checked->storage_buffers, made->map);
  if (!findings) return error(findings.error());
  if (!findings->findings.empty()) return {kUbVariant, CheckStatus::Fail, encode_ub_findings(*findings)};
  auto plain = exec::run_shader(runner, reference, settings);
  if (!plain) return error("the plain program: " + plain.error());
  if (auto m = exec::compare_outputs(*plain, *checked))
    return {kUbVariant, CheckStatus::Fail, "nothing fired, yet it computes otherwise than the plain program: " + m->describe()};
  return {kUbVariant, CheckStatus::Pass, ""};
}

VariantOutcome ub_check_amber(exec::Runner& runner, const std::string& amber_path, bool reference_passed,
                              const PipelineOptions& options) {
  const std::string frag = std::filesystem::path(amber_path).replace_extension(".frag").string();
  const auto source = read_text_file(frag);
  if (!source) return error(fmt::format("cannot read '{}'", frag));
  auto made = instrument(*source, frag, options);
  if (!made) return error(made.error());
  exec::amber::ExecuteOptions run;
  run.replace_shader = [&](const exec::amber::ShaderDecl& decl, const std::vector<std::uint32_t>& original)
      -> Result<std::vector<std::uint32_t>> {
    return decl.stage == exec::ShaderStage::Fragment ? made->spirv : original;
  };
  run.extra_buffers.push_back(ub_findings_buffer(made->map));
  auto outcome = exec::amber::run_amber_file(runner, amber_path, run);
  if (!outcome) return error(outcome.error());
  auto findings = take_ub_findings(outcome->storage_buffers, made->map);
  if (!findings) return error(findings.error());
  if (!findings->findings.empty()) return {kUbVariant, CheckStatus::Fail, encode_ub_findings(*findings)};
  if (reference_passed && !outcome->passed())
    return {kUbVariant, CheckStatus::Fail,
            "nothing fired, yet the script's EXPECT fails with the instrumented shader: " + first_line(outcome->summary())};
  return {kUbVariant, CheckStatus::Pass, ""};
}

UbFindings collect_ub_findings(std::vector<FileOutcome>& outcomes) {
  UbFindings all;
  for (FileOutcome& o : outcomes)
    for (VariantOutcome& v : o.variants) {
      if (v.name != kUbVariant) continue;
      const auto found = decode_ub_findings_line(v.detail);
      if (!found) continue;
      all.append(*found);
      v.detail = found->findings.size() == 1
                     ? describe_ub_finding(found->findings.front())
                     : fmt::format("{} findings, first {}", found->findings.size(),
                                   found->findings.empty() ? "" : describe_ub_finding(found->findings.front()));
    }
  return all;
}

}  // namespace sluice::tools
