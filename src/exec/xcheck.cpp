// Reference-versus-variant runs for `sluice xcheck`.
#include "exec/xcheck.h"

#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "exec/shader_interface.h"
#include "exec/spirv_module.h"
#include "exec/vertex_shader.h"

namespace sluice::exec {

bool XcheckReport::ok() const {
  if (!reference_passed) return false;
  for (const auto& v : variants)
    if (!v.agrees()) return false;
  return true;
}

std::string XcheckReport::describe() const {
  std::string text = fmt::format("reference: {}\n", reference_summary);
  for (const auto& v : variants) {
    if (!v.error.empty())
      text += fmt::format("{}: error: {}\n", v.name, v.error);
    else if (v.mismatch)
      text += fmt::format("{}: MISMATCH: {}\n", v.name, v.mismatch->describe());
    else
      text += fmt::format("{}: agrees\n", v.name);
  }
  return text;
}

Result<XcheckReport> xcheck_amber(Runner& runner, const std::string& amber_path, const std::vector<AmberVariant>& variants,
                                  const amber::ExecuteOptions& base, const CompareOptions& compare) {
  auto reference = amber::run_amber_file(runner, amber_path, base);
  if (!reference) return reference.failure();
  XcheckReport report;
  report.reference_passed = reference->passed();
  report.reference_summary = reference->summary();
  for (const auto& variant : variants) {
    XcheckVariantResult result;
    result.name = variant.name;
    amber::ExecuteOptions options = base;
    options.replace_shader = variant.replace_shader;
    auto outcome = amber::run_amber_file(runner, amber_path, options);
    if (!outcome) {
      result.error = outcome.error();
    } else {
      result.expects_passed = outcome->passed();
      result.mismatch = amber::compare_outcomes(*reference, *outcome, compare);
    }
    report.variants.push_back(std::move(result));
  }
  return report;
}

Result<RunOutput> run_shader(Runner& runner, std::span<const uint32_t> spirv, const ShaderRunSettings& settings) {
  auto module = SpirvModule::parse(spirv);
  if (!module) return module.failure();
  for (const auto& e : module->entry_points())
    if (e.model == spv::Fragment) return runner.draw_fragment(spirv, settings.draw, settings.resources);
  for (const auto& e : module->entry_points())
    if (e.model == spv::GLCompute) return runner.dispatch_compute(spirv, settings.dispatch, settings.resources);
  return Error{"the module has no fragment or compute entry point (only those stages can be run)"};
}

Result<XcheckReport> xcheck_shader(Runner& runner, std::span<const uint32_t> reference,
                                   const std::vector<SpirvVariant>& variants, const ShaderRunSettings& settings,
                                   const CompareOptions& compare) {
  auto expected = run_shader(runner, reference, settings);
  if (!expected) return expected.failure();
  XcheckReport report;
  report.reference_summary = fmt::format("{} image(s), {} storage buffer(s)", expected->images.size(),
                                         expected->storage_buffers.size());
  for (const auto& variant : variants) {
    XcheckVariantResult result;
    result.name = variant.name;
    auto actual = run_shader(runner, variant.spirv, settings);
    if (!actual)
      result.error = actual.error();
    else
      result.mismatch = compare_outputs(*expected, *actual, compare);
    report.variants.push_back(std::move(result));
  }
  return report;
}

Result<XcheckReport> xcheck_stages(Runner& runner, std::vector<PipelineStage> pipeline, std::size_t checked,
                                   const std::vector<SpirvVariant>& variants, const ShaderRunSettings& settings,
                                   const CompareOptions& compare) {
  if (checked >= pipeline.size()) return Error{"the checked stage is not in the pipeline"};
  auto expected = runner.draw_stages(pipeline, checked, settings.draw, settings.resources);
  if (!expected) return expected.failure();
  XcheckReport report;
  report.reference_summary = fmt::format("{} image(s), {} storage buffer(s)", expected->images.size(),
                                         expected->storage_buffers.size());
  for (const auto& variant : variants) {
    XcheckVariantResult result;
    result.name = variant.name;
    pipeline[checked].spirv = variant.spirv;
    auto actual = runner.draw_stages(pipeline, checked, settings.draw, settings.resources);
    if (!actual)
      result.error = actual.error();
    else
      result.mismatch = compare_outputs(*expected, *actual, compare);
    report.variants.push_back(std::move(result));
  }
  return report;
}

Result<std::vector<uint32_t>> read_spirv_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{fmt::format("cannot open '{}'", path), ErrorCode::Environment};
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string bytes = buffer.str();
  uint32_t magic = 0;
  if (bytes.size() >= 4) std::memcpy(&magic, bytes.data(), 4);
  if (magic == 0x07230203u) {
    if (bytes.size() % 4 != 0) return Error{fmt::format("'{}': SPIR-V size is not a multiple of 4", path)};
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), bytes.size());
    return words;
  }
  auto words = assemble_spirv(bytes, 0x00010000);
  if (!words) return words.failure().prefixed(fmt::format("'{}': ", path));
  return words;
}

}  // namespace sluice::exec
