// Cross-checking: the same shader run several ways must give the same
// results. For an Amber script the reference is the script's own SPIR-V and
// each variant replaces its shaders (Sluice's SPIR-V, Sluice's GLSL compiled
// by glslang); for a bare shader the reference and variants are SPIR-V
// binaries run with identical resources. Comparison rules: compare.h.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "exec/amber_executor.h"
#include "exec/compare.h"
#include "exec/runner.h"

namespace sluice::exec {

struct XcheckVariantResult {
  std::string name;
  std::string error;              // non-empty when the variant could not run
  bool expects_passed = false;    // Amber only: all EXPECTs passed
  std::optional<Mismatch> mismatch;  // first difference from the reference
  bool agrees() const { return error.empty() && !mismatch; }
};

struct XcheckReport {
  bool reference_passed = true;  // Amber only: the script's own EXPECTs
  std::string reference_summary;
  std::vector<XcheckVariantResult> variants;
  bool ok() const;                // reference passed and every variant agrees
  std::string describe() const;   // one line per run
};

struct AmberVariant {
  std::string name;
  // Receives each shader and the script's SPIR-V for it; returns the
  // variant's SPIR-V.
  std::function<Result<std::vector<uint32_t>>(const amber::ShaderDecl&, const std::vector<uint32_t>&)> replace_shader;
};

// A Result error means the reference run itself failed.
Result<XcheckReport> xcheck_amber(Runner& runner, const std::string& amber_path, const std::vector<AmberVariant>& variants,
                                  const amber::ExecuteOptions& base = {}, const CompareOptions& compare = {});

// Settings for running a bare fragment or compute shader.
struct ShaderRunSettings {
  DrawOptions draw;          // fragment shaders
  DispatchSize dispatch;     // compute shaders
  ResourceSpec resources;
};

// Draws a fragment shader or dispatches a compute shader, whichever entry
// point the module has (fragment first).
Result<RunOutput> run_shader(Runner& runner, std::span<const uint32_t> spirv, const ShaderRunSettings& settings);

struct SpirvVariant {
  std::string name;
  std::vector<uint32_t> spirv;
};

Result<XcheckReport> xcheck_shader(Runner& runner, std::span<const uint32_t> reference,
                                   const std::vector<SpirvVariant>& variants, const ShaderRunSettings& settings = {},
                                   const CompareOptions& compare = {});

// A vertex, geometry or tessellation shader drawn between its partner
// stages (partner_shaders.h): `pipeline` holds every stage, the reference
// (glslang's SPIR-V) in slot `checked`, which each variant's SPIR-V takes
// in turn; the resources are the checked shader's.
Result<XcheckReport> xcheck_stages(Runner& runner, std::vector<PipelineStage> pipeline, std::size_t checked,
                                   const std::vector<SpirvVariant>& variants, const ShaderRunSettings& settings = {},
                                   const CompareOptions& compare = {});

// Reads a SPIR-V binary (.spv) or assembles SPIR-V text (any file that does
// not start with the magic number).
Result<std::vector<uint32_t>> read_spirv_file(const std::string& path);

}  // namespace sluice::exec
