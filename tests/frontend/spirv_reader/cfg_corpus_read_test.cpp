// The SPIR-V reader on ../shared/corpus/cfg/valid (control-flow shapes that
// spirv-val 2023.1 accepts, from SPIRV-Tools, SPIRV-Cross, Tint's reader
// samples, the CTS and the POPL 2023 paper's artefact): every module is read
// as the library reads it without `validate_for` (the assembler's SPIR-V 1.6
// header, no input check), the IR validator passes on what it reads, and
// Sluice's SPIR-V of it passes spirv-val. No file may be refused for a
// control-flow reason of the reader (unstructured branch, a block reached
// twice, a branch that is no structured exit); the count read clean is a
// ratchet (docs/spirv-input.md, "On the control-flow corpus", gives the CLI
// figure and why the rest are not read).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "corpus.h"
#include "frontend/spirv/reader.h"
#include "output/spirv/spirv_output.h"
#include "validator/validator.h"

namespace fs = std::filesystem;
using namespace sluice;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool control_flow_refusal(const std::string& message) {
  for (const char* s : {"unstructured branch", "reached a second time", "not a structured exit",
                        "continue target is the merge block", "OpSwitch without OpSelectionMerge"})
    if (message.find(s) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("the valid control-flow corpus reads without a control-flow refusal") {
  const fs::path dir = testing::corpus_dir("cfg/valid");
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".spvasm") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::size_t clean = 0;
  std::vector<std::string> failures;
  for (const fs::path& f : files) {
    auto m = spirv_in::read_bytes(slurp(f), {f.filename().string()});
    if (!m) {
      if (control_flow_refusal(m.error())) failures.push_back(m.error());
      continue;
    }
    const auto problems = validator::validate(*m);
    if (!problems.empty()) {
      failures.push_back(f.filename().string() + ": invalid IR: " + validator::describe(*m, problems));
      continue;
    }
    auto out = spirv::emit(*m);
    if (!out) {
      failures.push_back(f.filename().string() + ": SPIR-V output: " + out.error());
      continue;
    }
    const auto val = spirv::validate(*out, spirv::TargetEnv::Vulkan1_0);
    if (val.empty()) ++clean;
    else failures.push_back(f.filename().string() + ": Sluice's SPIR-V: " + val.front());
  }
  for (const std::string& s : failures) UNSCOPED_INFO(s);
  INFO(files.size() << " files, " << clean << " read into spirv-val-clean SPIR-V");
  CHECK(files.size() == 344);
  CHECK(failures.empty());
  CHECK(clean >= 304);  // measured 2026-11-26
}
