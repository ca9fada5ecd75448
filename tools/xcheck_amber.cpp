// See xcheck_amber.h.
#include "xcheck_amber.h"
#include "xcheck_ub.h"

#include <filesystem>
#include <functional>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "exec/xcheck.h"
#include "xcheck_variants.h"

namespace sluice::tools {
namespace {

namespace fs = std::filesystem;
using Words = std::vector<std::uint32_t>;
using exec::amber::ShaderDecl;

// Translations of the script's own SPIR-V shaders, made on first use (the
// variants run one after another, each asking for every shader) and kept
// for the next variant that needs the same shader.
class ScriptTranslations {
 public:
  ScriptTranslations(std::string path, const PipelineOptions& options) : path_(std::move(path)), options_(options) {
    options_.language = "spirv";
  }

  // Sluice's SPIR-V front end, passes and outputs.
  const SluiceVariants& sluice(const ShaderDecl& decl, const Words& original) {
    auto it = sluice_.find(decl.name);
    if (it == sluice_.end()) {
      const std::string bytes(reinterpret_cast<const char*>(original.data()), original.size() * sizeof(std::uint32_t));
      it = sluice_.emplace(decl.name, compile_variants(bytes, fmt::format("{}:{}", path_, decl.name), decl.stage, options_))
               .first;
    }
    return it->second;
  }

  // SPIRV-Cross's GLSL, compiled by glslang.
  const StepResult<Words>& spirv_cross(const ShaderDecl& decl, const Words& original) {
    auto it = cross_.find(decl.name);
    if (it == cross_.end()) {
      it = cross_.emplace(decl.name, spirv_cross_variant(original, decl.stage, options_)).first;
    }
    return it->second;
  }

 private:
  std::string path_;
  PipelineOptions options_;
  std::map<std::string, SluiceVariants> sluice_;
  std::map<std::string, StepResult<Words>> cross_;
};

using StepFor = std::function<const StepResult<Words>&(const ShaderDecl&, const Words&)>;

// A variant's replace_shader from the step that makes its SPIR-V; shaders
// for which `step` is not given keep the script's SPIR-V.
exec::AmberVariant variant(std::string name, StepFor step) {
  return {std::move(name), [step = std::move(step)](const ShaderDecl& decl, const Words& original) -> Result<Words> {
            const auto& made = step(decl, original);
            if (!made.ok()) return Error{first_line(made.failure.message)};
            return *made.value;
          }};
}

}  // namespace

FileOutcome check_amber(exec::Runner& runner, const std::string& path, const PipelineOptions& options,
                        const AmberCheckOptions& checks) {
  FileOutcome out{path, {}, {}};
  // The .frag beside the script, through the GLSL front end: the fragment
  // shader only.
  const std::string frag = fs::path(path).replace_extension(".frag").string();
  auto from_glsl = std::make_shared<SluiceVariants>();
  if (const auto source = read_text_file(frag))
    *from_glsl = compile_variants(*source, frag, exec::ShaderStage::Fragment, options);
  else
    from_glsl->spirv.failure.message = from_glsl->via_glsl.failure.message = fmt::format("cannot read '{}'", frag);
  auto fragment_only = [from_glsl](bool via_glsl) {
    return [from_glsl, via_glsl](const ShaderDecl& decl, const Words& original) -> Result<Words> {
      if (decl.stage != exec::ShaderStage::Fragment) return original;
      const auto& step = via_glsl ? from_glsl->via_glsl : from_glsl->spirv;
      if (!step.ok()) return Error{first_line(step.failure.message)};
      return *step.value;
    };
  };
  // Sluice's GLSL refuses --fp-contract=off (emit_glsl()): its variants
  // are reported skipped, not run.
  const bool glsl_refused = options.spirv.no_contraction;
  std::vector<exec::AmberVariant> variants = {{"sluice-spirv", fragment_only(false)}};
  if (!glsl_refused) variants.push_back({"sluice-glsl", fragment_only(true)});
  auto script = std::make_shared<ScriptTranslations>(path, options);
  if (checks.spirv_input) {
    variants.push_back(variant("spirv-in-spirv", [script](const ShaderDecl& d, const Words& w) -> const StepResult<Words>& {
      return script->sluice(d, w).spirv;
    }));
    if (!glsl_refused)
      variants.push_back(variant("spirv-in-glsl", [script](const ShaderDecl& d, const Words& w) -> const StepResult<Words>& {
        return script->sluice(d, w).via_glsl;
      }));
  }
  const std::size_t first_peer = variants.size();
  if (checks.peer_spirv_cross)
    variants.push_back(variant("spirv-cross", [script](const ShaderDecl& d, const Words& w) -> const StepResult<Words>& {
      return script->spirv_cross(d, w);
    }));

  auto report = exec::xcheck_amber(runner, path, variants);
  if (!report) {
    out.variants.push_back({"amber-spirv", CheckStatus::Error, first_line(report.error())});
    return out;
  }
  out.variants.push_back({"amber-spirv", report->reference_passed ? CheckStatus::Pass : CheckStatus::Fail,
                          report->reference_passed ? "" : first_line(report->reference_summary)});
  for (std::size_t i = 0; i < report->variants.size(); ++i) {
    const auto& v = report->variants[i];
    VariantOutcome o = from_result(v);
    if (o.status == CheckStatus::Pass && !v.expects_passed) {
      o.status = CheckStatus::Fail;
      o.detail = "the script's EXPECT failed";
    }
    o.peer = i >= first_peer;
    out.variants.push_back(std::move(o));
  }
  if (glsl_refused) {
    const std::string why = "--fp-contract=off: Sluice's GLSL output refuses it";
    out.variants.push_back({"sluice-glsl", CheckStatus::Skip, why});
    if (checks.spirv_input) out.variants.push_back({"spirv-in-glsl", CheckStatus::Skip, why});
  }
  if (checks.ub_check) out.variants.push_back(ub_check_amber(runner, path, report->reference_passed, options));
  return out;
}

}  // namespace sluice::tools
