// The shared corpus through the GLSL front end (../shared/corpus, INDEX.md
// there): glslang's test shaders (glsl/, and glsl/automap/ with automatic
// locations and bindings, as glslangValidator --aml --amb) and GraphicsFuzz's
// fragment shaders (exec/). Every shader either builds IR the validator
// accepts, or is refused with an "is not supported" diagnostic that names a
// source position; the test prints the counts docs/glsl.md reports.
#include <algorithm>
#include <filesystem>
#include <map>
#include <string>

#include "corpus.h"
#include "glsl_test_util.h"
#include "golden_file.h"

using namespace sluice;
namespace fs = std::filesystem;

namespace {

struct Tally {
  std::size_t total = 0;
  std::size_t built = 0;
  std::map<std::string, std::size_t> refusals;  // first message -> count
};

std::vector<std::string> shaders_in(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string p = e.path().string();
    if (e.is_regular_file() && glsl_in::stage_from_path(p)) files.push_back(p);
  }
  std::sort(files.begin(), files.end());
  return files;
}

void run(const std::string& dir, const glsl_in::Options& options, Tally& tally) {
  for (const std::string& path : shaders_in(dir)) {
    const std::string source = testing::read_file(path);
    glsl_in::Result r = glsl_in::compile(source, path, options);
    INFO(path << "\n" << render(r.diagnostics, source));
    ++tally.total;
    if (r.module) {
      const auto problems = validator::validate(*r.module);
      INFO(testing::problems_text(*r.module, problems));
      CHECK(problems.empty());
      if (problems.empty()) ++tally.built;
      continue;
    }
    REQUIRE_FALSE(r.diagnostics.empty());
    const Diagnostic& first = r.diagnostics.front();
    // Refused by name, or rejected as invalid: two outputs at one location
    // (automap/spv.430.vert, whose SPIR-V from glslang fails spirv-val the
    // same way).
    // Or a constant index past gl_SampleMask's size
    // (index_outside_sample_mask_range.frag; docs/ub-check.md).
    CHECK((first.message.find("is not supported") != std::string::npos ||
           first.message.find("overlapping use of location") != std::string::npos ||
           first.message.find("gl_SampleMask array index out of range") != std::string::npos));
    CHECK(first.line > 0);
    ++tally.refusals[first.message];
  }
}

void report(const char* name, const Tally& t) {
  WARN(name << ": " << t.built << " of " << t.total << " build valid IR ("
            << (t.total ? 100.0 * static_cast<double>(t.built) / static_cast<double>(t.total) : 0.0) << "%)");
  for (const auto& [message, n] : t.refusals) WARN(name << " refused " << n << "x: " << message);
}

}  // namespace

TEST_CASE("corpus: glslang's test shaders build valid IR or are refused by name", "[corpus]") {
  // glsl/ compiles with plain -V; auto-mapping changes nothing there, and
  // glsl/automap/ needs it.
  Tally plain, automap;
  run(testing::corpus_dir("glsl"), glsl_in::Options{}, plain);
  run(testing::corpus_dir("glsl/automap"), testing::automap(), automap);
  report("glsl/", plain);
  report("glsl/automap/", automap);
  Tally tally{plain.total + automap.total, plain.built + automap.built, {}};
  WARN("glsl/ + glsl/automap/: " << tally.built << " of " << tally.total << " build valid IR ("
                                   << 100.0 * static_cast<double>(tally.built) / static_cast<double>(tally.total)
                                   << "%)");
  REQUIRE(tally.total == 151);
  // docs/glsl.md, "Coverage", explains each of the 4 refusals (147 of 151
  // build): a change in either direction updates that table and this count.
  CHECK(plain.built == 99);
  CHECK(automap.built == 48);
}

TEST_CASE("corpus: GraphicsFuzz fragment shaders build valid IR", "[corpus]") {
  Tally tally;
  run(testing::corpus_dir("exec"), glsl_in::Options{}, tally);
  report("exec/", tally);
  REQUIRE(tally.total == 652);
  CHECK(tally.built == 652);  // docs/glsl.md, "Coverage"
}
