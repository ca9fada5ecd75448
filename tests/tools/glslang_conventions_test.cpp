// glslangValidator's command-line conventions in `sluice compile`: -D/-U in
// order, -I and #include (GL_GOOGLE_include_directive), diagnostics inside
// included files, include cycles and depth, --depfile, -e and
// --source-entrypoint; and batch outputs that do not depend on -j.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "corpus.h"
#include "tools/driver_run.h"

namespace fs = std::filesystem;
using namespace sluice::testing;

namespace {

// Each #error names what the command line got wrong; a clean compile means
// the macros arrived as intended.
const char* const kMacroShader = R"(#version 450
#ifdef FLAG
#error FLAG is defined
#endif
#if defined(LEVEL) && LEVEL != 3
#error LEVEL is not 3
#endif
layout(location = 0) out vec4 c;
void main() { c = vec4(0.5); }
)";

std::string compile_args(const fs::path& shader, const std::string& options) {
  return "compile " + quote(shader.string()) + " --emit spv -o " + quote((shader.string() + ".spv")) + " " + options;
}

std::string spvasm(const Scratch& s, const fs::path& shader, const std::string& options) {
  const Run r = run_sluice(s, "compile " + quote(shader.string()) + " --emit spvasm --validate " + options);
  INFO(r.err);
  REQUIRE(r.code == 0);
  return r.out;
}

std::vector<std::string> corpus_shaders() {
  const fs::path dir = sluice::testing::corpus_dir("glsl");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string ext = e.path().extension().string();
    if (e.is_regular_file() && (ext == ".frag" || ext == ".vert" || ext == ".comp")) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// name -> bytes of every file in `dir`.
std::vector<std::pair<std::string, std::string>> contents(const fs::path& dir) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e : fs::directory_iterator(dir)) out.emplace_back(e.path().filename().string(), read_file(e.path().string()));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("the -D and -U options define and undefine macros in command-line order") {
  Scratch s;
  const fs::path shader = s.write("m.frag", kMacroShader);
  CHECK(run_sluice(s, compile_args(shader, "")).code == 0);
  const Run flag = run_sluice(s, compile_args(shader, "-D FLAG"));
  CHECK(flag.code == 1);
  CHECK_THAT(flag.err, Catch::StartsWith(shader.string() + ":3:") && Catch::Contains("FLAG is defined"));
  CHECK(run_sluice(s, compile_args(shader, "--define-macro FLAG")).code == 1);
  CHECK(run_sluice(s, compile_args(shader, "-DLEVEL=3")).code == 0);
  const Run level = run_sluice(s, compile_args(shader, "-D LEVEL=4"));
  CHECK(level.code == 1);
  CHECK_THAT(level.err, Catch::Contains("LEVEL is not 3"));
  CHECK(run_sluice(s, compile_args(shader, "-D FLAG -U FLAG")).code == 0);
  CHECK(run_sluice(s, compile_args(shader, "-U FLAG -D FLAG")).code == 1);
  CHECK(run_sluice(s, compile_args(shader, "-DLEVEL=4 -ULEVEL -DLEVEL=3")).code == 0);
}

TEST_CASE("malformed -D and -U are usage errors") {
  Scratch s;
  const fs::path shader = s.write("m.frag", kMacroShader);
  for (const char* bad : {"-D 1X=2", "-D =3", "-D 'A B=1'", "-U A-B", "-U ''"}) {
    INFO(bad);
    const Run r = run_sluice(s, compile_args(shader, bad));
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("not a macro name"));
  }
  const Run line_break = run_sluice(s, compile_args(shader, "-D " + quote("A=1\n#define B")));
  CHECK(line_break.code == 2);
  CHECK_THAT(line_break.err, Catch::Contains("line break"));
}

TEST_CASE("include: beside the including file, then in the -I directories, and the depfile names every file read") {
  Scratch s;
  fs::create_directories(s.dir / "inc" / "detail");
  const fs::path shader = s.write("main.frag", R"(#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "lib.glsl"
layout(location = 0) out vec4 c;
void main() { c = tint(); }
)");
  s.write("common.glsl", "const float kHalf = 0.5;\n");
  s.write("inc/lib.glsl", "#include \"detail/d.glsl\"\nvec4 tint() { return vec4(kHalf * D); }\n");
  s.write("inc/detail/d.glsl", "const float D = 2.0;\n");
  const fs::path out = s.dir / "main.spv", dep = s.dir / "main.d";
  const std::string inc = (s.dir / "inc").string();
  const Run r = run_sluice(s, "compile " + quote(shader.string()) + " -I " + quote(inc) + " -o " +
                                  quote(out.string()) + " --depfile " + quote(dep.string()));
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(fs::file_size(out) > 20);
  // Names as found: the including file's directory or the -I directory
  // joined with the header name.
  CHECK(read_file(dep.string()) == out.string() + ": " + shader.string() + " " + (s.dir / "common.glsl").string() +
                                       " " + inc + "/lib.glsl " + inc + "/detail/d.glsl\n");

  // Without -I, lib.glsl is not found: the error is at the #include.
  const Run missing = run_sluice(s, compile_args(shader, ""));
  CHECK(missing.code == 1);
  CHECK_THAT(missing.err, Catch::StartsWith(shader.string() + ":4:") && Catch::Contains("lib.glsl") &&
                              Catch::Contains("not found"));

  // <...> looks only in the -I directories.
  const fs::path angled = s.write("angled.frag", R"(#version 450
#extension GL_GOOGLE_include_directive : require
#include <common.glsl>
layout(location = 0) out vec4 c;
void main() { c = vec4(kHalf); }
)");
  CHECK(run_sluice(s, compile_args(angled, "")).code == 1);
  CHECK(run_sluice(s, compile_args(angled, "-I " + quote(s.dir.string()))).code == 0);
}

TEST_CASE("an error inside an included file names that file, its line and column") {
  Scratch s;
  const fs::path shader = s.write("main.frag", R"(#version 450
#extension GL_GOOGLE_include_directive : require
#include "bad.glsl"
layout(location = 0) out vec4 c;
void main() { c = tint(); }
)");
  const fs::path bad = s.write("bad.glsl", "\nvec4 tint() { return undefined_thing; }\n");
  const Run r = run_sluice(s, compile_args(shader, ""));
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::StartsWith(bad.string() + ":2:22: error: 'undefined_thing' : undeclared identifier\n"
                                      "vec4 tint() { return undefined_thing; }\n"
                                      "                     ^\n"));
}

TEST_CASE("include cycles and deep nesting are errors, guarded cycles are fine") {
  Scratch s;
  const char* main_text = "#version 450\n#extension GL_GOOGLE_include_directive : require\n#include \"a.glsl\"\n"
                          "layout(location = 0) out vec4 c;\nvoid main() { c = vec4(1.0); }\n";
  const fs::path shader = s.write("main.frag", main_text);
  s.write("a.glsl", "#include \"b.glsl\"\n");
  s.write("b.glsl", "#include \"a.glsl\"\n");
  const Run cycle = run_sluice(s, compile_args(shader, ""));
  CHECK(cycle.code == 1);
  CHECK_THAT(cycle.err, Catch::Contains("include cycle: ") && Catch::Contains("a.glsl -> ") &&
                            Catch::Contains("b.glsl -> "));

  // With include guards the second visit is empty and the cycle ends.
  s.write("a.glsl", "#ifndef A_GLSL\n#define A_GLSL\n#include \"b.glsl\"\n#endif\n");
  s.write("b.glsl", "#ifndef B_GLSL\n#define B_GLSL\n#include \"a.glsl\"\n#endif\n");
  const Run guarded = run_sluice(s, compile_args(shader, ""));
  INFO(guarded.err);
  CHECK(guarded.code == 0);

  // 70 different files, each including the next: too deep, but no cycle.
  const int levels = 70;
  for (int i = 0; i < levels; ++i)
    s.write("l" + std::to_string(i) + ".glsl", i + 1 < levels ? "#include \"l" + std::to_string(i + 1) + ".glsl\"\n" : "\n");
  s.write("a.glsl", "#include \"l0.glsl\"\n");
  const Run deep = run_sluice(s, compile_args(shader, ""));
  CHECK(deep.code == 1);
  CHECK_THAT(deep.err, Catch::Contains("nested more than 64 levels deep"));
  CHECK_THAT(deep.err, !Catch::Contains("cycle"));
}

TEST_CASE("included text is bounded: a file that includes the next one twice, at the limit and past it") {
  // d0.glsl holds 1,000 bytes; d(i) includes d(i-1) twice, so including
  // d(n) serves 2^n copies of d0 and 2^n - 1 of the others (about 40 bytes
  // each), every file counting 64 bytes more (includer.h).
  Scratch s;
  s.write("d0.glsl", "// " + std::string(996, 'x') + "\n");
  for (int i = 1; i <= 30; ++i)
    s.write("d" + std::to_string(i) + ".glsl",
            "#include \"d" + std::to_string(i - 1) + ".glsl\"\n#include \"d" + std::to_string(i - 1) + ".glsl\"\n");
  const auto shader_including = [&](int level) {
    return s.write("main" + std::to_string(level) + ".frag",
                   "#version 450\n#extension GL_GOOGLE_include_directive : require\n#include \"d" + std::to_string(level) +
                       ".glsl\"\nlayout(location = 0) out vec4 c;\nvoid main() { c = vec4(1.0); }\n");
  };
  // d11: 2,048 × 1,064 + 2,047 × about 104 bytes, about 2.4 MB: under 4 MiB.
  const Run at = run_sluice(s, compile_args(shader_including(11), ""));
  INFO(at.err);
  CHECK(at.code == 0);
  // d12: about 4.8 MB, over 4 MiB.
  const Run past = run_sluice(s, compile_args(shader_including(12), ""));
  CHECK(past.code == 1);
  CHECK_THAT(past.err, Catch::Contains("the #include lines bring in more than 4194304 bytes of text"));
  // d30 would be 2^30 copies: refused as fast.
  const Run huge = run_sluice(s, compile_args(shader_including(30), ""));
  CHECK(huge.code == 1);
  CHECK_THAT(huge.err, Catch::Contains("more than 4194304 bytes"));
}

TEST_CASE("the depfile option: batch rules, Make escapes, and it needs -o") {
  Scratch s;
  const fs::path a = s.write("a shader.frag", "#version 450\nlayout(location = 0) out vec4 c;\nvoid main() { c = vec4(1.0); }\n");
  const fs::path b = s.write("b.comp", "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n");
  const fs::path out = s.dir / "out", dep = s.dir / "all.d";
  const Run r = run_sluice(s, "compile " + quote(a.string()) + " " + quote(b.string()) + " --emit spv -o " +
                                  quote(out.string()) + " --depfile " + quote(dep.string()));
  INFO(r.err);
  REQUIRE(r.code == 0);
  auto escaped = [](std::string p) {
    for (std::size_t at = p.find(' '); at != std::string::npos; at = p.find(' ', at + 2)) p.insert(at, "\\");
    return p;
  };
  CHECK(read_file(dep.string()) == escaped((out / "a shader.frag.spv").string()) + " " +
                                       escaped((out / "b.comp.spv").string()) + ": " + escaped(a.string()) + " " +
                                       escaped(b.string()) + "\n");
  const Run no_output = run_sluice(s, "compile " + quote(b.string()) + " --depfile " + quote(dep.string()));
  CHECK(no_output.code == 2);
  CHECK_THAT(no_output.err, Catch::Contains("--depfile needs -o"));
}

TEST_CASE("the -e option names the SPIR-V entry point, --source-entrypoint takes main only as glslang does") {
  Scratch s;
  const fs::path shader = s.write("e.frag", "#version 450\nlayout(location = 0) out vec4 c;\nvoid main() { c = vec4(1.0); }\n");
  const std::string renamed = spvasm(s, shader, "-e bar");
  CHECK_THAT(renamed, Catch::Contains("OpEntryPoint Fragment %bar \"bar\"") && Catch::Contains("OpName %bar \"bar\""));
  CHECK_THAT(renamed, !Catch::Contains("\"main\""));
  CHECK_THAT(spvasm(s, shader, "--entry-point main2"), Catch::Contains("OpEntryPoint Fragment %main2 \"main2\""));
  CHECK_THAT(spvasm(s, shader, "-e bar --source-entrypoint main"), Catch::Contains("OpEntryPoint Fragment %bar \"bar\""));
  const Run other = run_sluice(s, compile_args(shader, "--source-entrypoint foo"));
  CHECK(other.code == 1);
  CHECK_THAT(other.err, Catch::Contains("Source entry point must be \"main\""));
}

TEST_CASE("batch outputs are byte-identical whatever the number of threads") {
  const std::vector<std::string> shaders = corpus_shaders();
  REQUIRE(shaders.size() > 50);
  std::string inputs;
  for (const std::string& f : shaders) inputs += " " + quote(f);
  Scratch s;
  for (const char* emit : {"spv", "glsl"}) {
    INFO(emit);
    std::vector<std::pair<std::string, std::string>> first;
    for (const char* jobs : {"1", "3"}) {
      const fs::path dir = s.dir / (std::string(emit) + jobs);
      const Run r = run_sluice(s, "compile" + inputs + " --emit " + emit + " -j " + jobs + " -o " + quote(dir.string()));
      // docs/glsl.md's few refused shaders make the exit code 1; the rest
      // are written.
      CHECK(r.code <= 1);
      auto outputs = contents(dir);
      CHECK(outputs.size() + 10 > shaders.size());
      if (first.empty()) {
        first = std::move(outputs);
        continue;
      }
      REQUIRE(outputs.size() == first.size());
      for (std::size_t i = 0; i < first.size(); ++i) {
        INFO(first[i].first << " with -j " << jobs);
        CHECK(outputs[i].first == first[i].first);
        CHECK((outputs[i].second == first[i].second));
      }
    }
  }
}

// glslang's preprocessed-output writer throws std::length_error on a macro
// name right before a line continuation (src/frontend/glsl/block_names.h);
// Sluice's block-name guard preprocesses a spaced copy, in the shader and in
// what it includes, and the error positions stay the source's.
TEST_CASE("a macro name before a line continuation, in the shader and in an included file") {
  Scratch s;
  const fs::path shader = s.write("main.frag", "#version 450\n#extension GL_GOOGLE_include_directive : require\n"
                                               "#include \"half.glsl\"\n#define ONE 1.0\n"
                                               "layout(location = 0) out vec4 c;\n"
                                               "void main() { c = vec4(ONE\\\n) * HALF\\\n; }\n");
  s.write("half.glsl", "#define HALF 0.5\nconst float kHalf = HALF\\\n;\n");
  const Run ok = run_sluice(s, compile_args(shader, ""));
  INFO(ok.err);
  CHECK(ok.code == 0);
  CHECK(ok.err.empty());
  // An error after the continuation keeps the source's line numbers.
  const fs::path bad = s.write("bad.frag", "#version 450\n#define ONE 1.0\nlayout(location = 0) out vec4 c;\n"
                                           "void main() { c = vec4(ONE\\\n) * missing; }\n");
  const Run r = run_sluice(s, compile_args(bad, ""));
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::StartsWith(bad.string() + ":5:") && Catch::Contains("'missing' : undeclared identifier"));
}
