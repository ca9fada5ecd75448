// The shared corpus through GLSL → IR → GLSL → IR. Every shader the front end
// translates must emit, except those whose own SPIR-V from glslang fails
// spirv-val (INDEX.md lists them; the output refuses what makes them
// invalid); every text must compile with glslang and pass spirv-val; and the
// IR the front end builds from our text should dump like the first IR up to
// names and the numbering of types, constants and variables
// (canonical_dump.h). Sources in GLSL ES are emitted as 310 es, the others
// as 450 (Vulkan flavour). The counts are printed; every shader whose IR
// differs must be on round_trip_exceptions.h's list, with its reason.

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include <catch2/catch.hpp>

#include "frontend/glsl/glsl_frontend.h"
#include "canonical_dump.h"
#include "corpus.h"
#include "glsl_test_util.h"
#include "golden_file.h"
#include "round_trip_exceptions.h"
#include "stages_corpus.h"

using namespace sluice;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> shaders_in(const std::string& dir) {
  std::vector<std::string> files;
  if (!fs::is_directory(dir)) return files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string p = e.path().string();
    if (e.is_regular_file() && glsl_in::stage_from_path(p)) files.push_back(p);
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool is_es(const std::string& source) {
  static const std::regex version("#version\\s+\\d+\\s+es");
  return std::regex_search(source, version);
}

// INDEX.md: "... N invalid (invalid ones: a.frag, b.vert, ...)".
std::set<std::string> invalid_in_glslang() {
  static const std::regex list("invalid ones: ([^)]*)\\)");
  std::smatch match;
  const std::string index = testing::read_file(testing::corpus_file("INDEX.md"));
  std::set<std::string> names;
  if (!std::regex_search(index, match, list)) return names;
  static const std::regex name("[^ ,]+");
  const std::string text = match[1].str();
  for (auto it = std::sregex_iterator(text.begin(), text.end(), name); it != std::sregex_iterator(); ++it)
    names.insert(it->str());
  return names;
}

struct Tally {
  std::size_t total = 0, translated = 0, emitted = 0, compiled = 0, same_ir = 0, refused = 0;
  std::map<std::string, std::size_t> emit_errors;
  std::vector<std::string> different;
  std::vector<std::string> same;
};

// SLUICE_ROUND_TRIP_DIR=dir keeps the dumps and the text of every shader
// that fails a step, for inspection.
void keep(const std::string& path, const std::string& suffix, const std::string& content) {
  if (const char* dir = std::getenv("SLUICE_ROUND_TRIP_DIR"))
    std::ofstream(std::string(dir) + "/" + fs::path(path).filename().string() + suffix) << content;
}

void run_one(const std::string& path, const glsl_in::Options& options, Tally& t) {
  ++t.total;
  const std::string source = testing::read_file(path);
  glsl_in::Result first = glsl_in::compile(source, path, options);
  if (!first.module) return;  // the front end's refusals are its own test's business
  ++t.translated;
  const glsl_out::Options out{is_es(source) ? glsl_out::GlslVersion::V310es : glsl_out::GlslVersion::V450,
                              glsl_out::Flavour::Vulkan};
  auto text = glsl_out::emit(*first.module, out);
  INFO(path << " as " << testing::options_name(out));
  keep(path, ".1.ir", ir::dump(*first.module));
  if (!text.ok()) {
    ++t.emit_errors[text.error()];
    ++t.refused;
    INFO(text.error());
    CHECK(invalid_in_glslang().contains(fs::path(path).filename().string()));
    return;
  }
  ++t.emitted;
  keep(path, ".glsl", *text);
  const testing::GlslCheck check =
      testing::compile_glsl_text(*text, first.module->shader().stage, out, options.spirv_version);
  INFO(*text << "\n" << check.log);
  CHECK(check.ok);
  if (!check.ok) return;
  ++t.compiled;
  glsl_in::Result second = glsl_in::compile(*text, path, options);
  INFO(render(second.diagnostics, *text));
  CHECK(second.module.has_value());
  if (!second.module) return;
  const std::string a = testing::canonical_dump(ir::dump(*first.module)),
                    b = testing::canonical_dump(ir::dump(*second.module));
  if (a == b) {
    ++t.same_ir;
    t.same.push_back(fs::path(path).filename().string());
    return;
  }
  t.different.push_back(fs::path(path).filename().string());
  keep(path, ".2.ir", ir::dump(*second.module));
  keep(path, ".1.canonical", a);
  keep(path, ".2.canonical", b);
}

void run(const std::string& dir, const glsl_in::Options& options, Tally& t) {
  for (const std::string& path : shaders_in(dir)) run_one(path, options, t);
}

void report(const char* name, const Tally& t) {
  WARN(name << ": " << t.total << " shaders, " << t.translated << " translated by the front end, " << t.emitted
            << " emitted (" << t.refused << " refused), " << t.compiled << " compiled by glslang and valid, "
            << t.same_ir << " give the same IR again");
  for (const auto& [message, n] : t.emit_errors) WARN(name << " emit error " << n << "x: " << message);
  std::string list;
  for (const auto& f : t.different) list += " " + f;
  if (!list.empty()) WARN(name << " IR differs after the round trip:" << list);
}

// Every shader whose IR differs is a listed exception; a listed one that
// round-trips now is reported, to be taken off the list.
void check_exceptions(const Tally& t) {
  const auto& exceptions = testing::round_trip_exceptions();
  for (const auto& f : t.different) {
    INFO(f << ": its IR differs after the round trip (SLUICE_ROUND_TRIP_DIR=dir keeps both dumps)");
    CHECK(exceptions.contains(f));
  }
  for (const auto& f : t.same)
    if (exceptions.contains(f)) WARN(f << " round-trips now; take it off round_trip_exceptions.h");
}

}  // namespace

TEST_CASE("corpus round trip: glslang's test shaders", "[corpus]") {
  Tally t;
  run(testing::corpus_dir("glsl"), glsl_in::Options{}, t);
  glsl_in::Options automap;
  automap.auto_map_locations = automap.auto_map_bindings = true;
  run(testing::corpus_dir("glsl/automap"), automap, t);
  report("glsl/ + glsl/automap/", t);
  CHECK(t.emitted + t.refused == t.translated);
  CHECK(t.compiled == t.emitted);
  check_exceptions(t);
  // docs/testing.md's table: a change in either direction updates it.
  CHECK(t.translated == 147);
  CHECK(t.emitted == 143);
  CHECK(t.same_ir == 139);
}

TEST_CASE("corpus round trip: GraphicsFuzz fragment shaders", "[corpus]") {
  Tally t;
  run(testing::corpus_dir("exec"), glsl_in::Options{}, t);
  report("exec/", t);
  CHECK(t.emitted == t.translated);
  CHECK(t.compiled == t.emitted);
  check_exceptions(t);
  // docs/testing.md's table: all 652 translate, emit, compile and round-trip.
  CHECK(t.translated == 652);
  CHECK(t.same_ir == 652);
}

TEST_CASE("corpus round trip: geometry and tessellation shaders", "[corpus][stages]") {
  // Each with the glslang options INDEX.md section (d) gives it; the
  // subgroup shaders need Vulkan 1.1 (SPIR-V 1.3) for the text too.
  const auto shaders = testing::stage_shaders();
  REQUIRE(shaders.size() == 38);
  Tally t;
  for (const testing::StageShader& s : shaders) {
    glsl_in::Options options;
    options.auto_map_locations = options.auto_map_bindings = s.automap;
    options.spirv_version = s.target_env == "vulkan1.1" ? 0x00010300 : s.target_env == "vulkan1.2" ? 0x00010500 : 0x00010000;
    run_one(s.path, options, t);
  }
  report("glsl-stages/", t);
  CHECK(t.emitted == t.translated);
  CHECK(t.compiled == t.emitted);
  check_exceptions(t);
  // The ratchet: every shader the front end translates (all but
  // stages_corpus.h's refused ones) emits and compiles, and all but
  // iomap.crossStage.vk.geom (round_trip_exceptions.h) give their IR again.
  CHECK(t.translated == shaders.size() - testing::refused_stage_shaders().size());
  CHECK(t.same_ir == 37);
}

