// The `sluice` driver, run as a process: `compile` with each --emit target,
// -o, stdin, diagnostics and exit codes, --version and --help.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <glslang/build_info.h>

#include "golden_file.h"
#include "tools/driver_run.h"

namespace fs = std::filesystem;
using namespace sluice::testing;


TEST_CASE("sluice compile --emit ir prints the IR dump") {
  Scratch s;
  // -O0 runs no optimisation, so the IR is the front end's.
  const Run r = run_sluice(s, "compile " + quote(example("yellow.lv")) + " --emit ir -O0");
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out == golden("lambdav_yellow.ir"));
  // ir is the default target.
  CHECK(run_sluice(s, "compile -O0 " + quote(example("yellow.lv"))).out == r.out);
}

TEST_CASE("sluice compile -o writes the file and nothing else") {
  Scratch s;
  const fs::path out = s.dir / "nat-fold.ir";
  const Run r = run_sluice(s, "compile -O0 " + quote(example("nat-fold.lv")) + " -o " + quote(out.string()));
  CHECK(r.code == 0);
  CHECK(r.out.empty());
  CHECK(r.err.empty());
  CHECK(read_file(out.string()) == golden("lambdav_nat-fold.ir"));
}

TEST_CASE("sluice compile - reads standard input") {
  Scratch s;
  const Run r = run_sluice(s, "compile -O0 -", example("gradient.lv"));
  CHECK(r.code == 0);
  CHECK(r.out == golden("lambdav_gradient.ir"));
}

TEST_CASE("compile errors: diagnostics on stderr, exit code 1, no output file") {
  Scratch s;
  const fs::path bad = s.write("bad.lv", "(define c (vec2 1 2))\n(vec4 c 1)\n");
  const fs::path out = s.dir / "bad.ir";
  const Run r = run_sluice(s, "compile " + quote(bad.string()) + " -o " + quote(out.string()));
  CHECK(r.code == 1);
  CHECK(r.out.empty());
  CHECK(r.err == bad.string() +
                     ":2:1: error: vector constructor size mismatch: 'vec4' needs 4 components (or one scalar to "
                     "repeat), the arguments give 3 (Vec(2, f), Num)\n(vec4 c 1)\n^\n");
  CHECK_FALSE(fs::exists(out));
  // From standard input the file is called <stdin>.
  const Run piped = run_sluice(s, "compile -", bad.string());
  CHECK(piped.code == 1);
  CHECK_THAT(piped.err, Catch::StartsWith("<stdin>:2:1: error: vector constructor size mismatch"));
}

TEST_CASE("every target: spv, spvasm and glsl") {
  Scratch s;
  const fs::path spv = s.dir / "nat-fold.spv";
  // -o x.spv implies --emit spv.
  const Run bin = run_sluice(s, "compile " + quote(example("nat-fold.lv")) + " --validate -o " + quote(spv.string()));
  CHECK(bin.code == 0);
  CHECK(bin.err.empty());
  const std::string words = read_file(spv.string());
  REQUIRE(words.size() >= 20);
  CHECK(words.size() % 4 == 0);
  CHECK(static_cast<unsigned char>(words[0]) == 0x03);  // 0x07230203, little-endian
  CHECK(static_cast<unsigned char>(words[3]) == 0x07);

  const Run text = run_sluice(s, "compile " + quote(example("nat-fold.lv")) + " --emit spvasm");
  CHECK(text.code == 0);
  CHECK_THAT(text.out, Catch::Contains("OpEntryPoint Fragment %main \"main\""));
  CHECK_THAT(text.out, Catch::Contains("OpLoopMerge"));
  CHECK_THAT(text.out, Catch::Contains("OpPhi"));
  // SSA promotion removes the loop variables; -O0 keeps them.
  CHECK_THAT(text.out, !Catch::Contains("OpVariable %_ptr_Function"));
  const Run o0 = run_sluice(s, "compile -O0 " + quote(example("nat-fold.lv")) + " --emit spvasm");
  CHECK_THAT(o0.out, Catch::Contains("OpVariable %_ptr_Function"));

  const Run glsl = run_sluice(s, "compile " + quote(example("gradient.lv")) + " --emit glsl --glsl-version 310es");
  CHECK(glsl.code == 0);
  CHECK_THAT(glsl.out, Catch::StartsWith("#version 310 es"));

  const Run env = run_sluice(s, "compile " + quote(example("yellow.lv")) + " --emit spvasm --target-env vulkan1.3");
  CHECK_THAT(env.out, Catch::Contains("Version: 1.6"));
  const Run bad_env = run_sluice(s, "compile " + quote(example("yellow.lv")) + " --emit spv --target-env vulkan9");
  CHECK(bad_env.code == 2);
}

TEST_CASE("GLSL input, passes and --print-after-all") {
  Scratch s;
  const fs::path frag = s.write("t.frag",
                                "#version 450\nlayout(location = 0) out vec4 c;\n"
                                "void main() { float x = 2.0 * 3.0; c = vec4(x); }\n");
  const Run ir = run_sluice(s, "compile " + quote(frag.string()) + " --emit ir --print-after-all");
  CHECK(ir.code == 0);
  CHECK_THAT(ir.err, Catch::Contains("; IR after fold-constants"));
  // fold and dce: the names docs/ir.md gave before, still accepted.
  const Run only = run_sluice(s, "compile " + quote(frag.string()) + " --passes=fold,dce --validate-each-pass");
  CHECK(only.code == 0);
  const Run unknown = run_sluice(s, "compile " + quote(frag.string()) + " --passes=fold-constants,nonsense");
  CHECK(unknown.code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("nonsense"));
}

// Compiles `source` (named `name`) to validated SPIR-V assembly, and its
// GLSL output back through glslang to validated SPIR-V assembly: both must
// contain every one of `expected`.
void check_spirv_and_glsl_round_trip(const Scratch& s, const std::string& name, const std::string& source,
                                     const std::vector<std::string>& expected) {
  const fs::path in = s.write(name, source);
  const Run asm_text = run_sluice(s, "compile " + quote(in.string()) + " --validate --emit spvasm");
  INFO(asm_text.err << asm_text.out);
  REQUIRE(asm_text.code == 0);
  const fs::path glsl = s.dir / ("out_" + name);
  const Run to_glsl = run_sluice(s, "compile " + quote(in.string()) + " --emit glsl -o " + quote(glsl.string()));
  REQUIRE(to_glsl.code == 0);
  const std::string glsl_text = read_file(glsl.string());
  INFO(glsl_text);
  const Run again = run_sluice(s, "compile " + quote(glsl.string()) + " --validate --emit spvasm");
  INFO(again.err);
  REQUIRE(again.code == 0);
  for (const std::string& e : expected) {
    CHECK_THAT(asm_text.out, Catch::Contains(e));
    CHECK_THAT(again.out, Catch::Contains(e));
  }
}

TEST_CASE("a workgroup size from specialization constants: SPIR-V as glslang's, GLSL that glslang reads back") {
  Scratch s;
  check_spirv_and_glsl_round_trip(s, "wg.comp",
                                  "#version 450\n"
                                  "layout(local_size_x_id = 18, local_size_z_id = 19) in;\n"
                                  "layout(local_size_x = 2, local_size_y = 5) in;\n"
                                  "shared uint keys[gl_WorkGroupSize.x * gl_WorkGroupSize.y];\n"
                                  "layout(binding = 0) buffer B { uvec3 size; uint k; };\n"
                                  "void main() { keys[gl_LocalInvocationIndex] = 1u; barrier();\n"
                                  "  size = gl_WorkGroupSize; k = keys[0]; }\n",
                                  {"BuiltIn WorkgroupSize", "SpecId 18", "SpecId 19", "OpSpecConstantComposite",
                                   "OpSpecConstantOp %uint IMul", "LocalSize 2 5 1"});
}

TEST_CASE("transform feedback: Xfb mode, buffers, strides and offsets in SPIR-V and GLSL") {
  Scratch s;
  check_spirv_and_glsl_round_trip(s, "xfb.vert",
                                  "#version 450\n"
                                  "layout(xfb_buffer = 1, xfb_stride = 32, xfb_offset = 4, location = 0) out float a;\n"
                                  "layout(xfb_buffer = 2, location = 1) out Block { layout(xfb_offset = 8) vec4 b; };\n"
                                  "layout(xfb_buffer = 3, xfb_offset = 16) out gl_PerVertex { vec4 gl_Position; };\n"
                                  "void main() { a = 1.0; b = vec4(2.0); gl_Position = vec4(0.0); }\n",
                                  {"OpCapability TransformFeedback", "OpExecutionMode %main Xfb", "XfbBuffer 1",
                                   "XfbStride 32", "OpDecorate %a Offset 4", "XfbBuffer 2",
                                   "OpMemberDecorate %Block 0 Offset 8",
                                   "XfbBuffer 3", "BuiltIn Position"});
}

TEST_CASE("batch mode compiles several files into a directory") {
  Scratch s;
  const fs::path dir = s.dir / "out";
  const Run r = run_sluice(s, "compile " + quote(example("yellow.lv")) + " " + quote(example("nat-fold.lv")) + " " +
                                  quote(example("gradient.lv")) + " --emit spv -o " + quote(dir.string()));
  CHECK(r.code == 0);
  for (const char* name : {"yellow.lv.spv", "nat-fold.lv.spv", "gradient.lv.spv"}) {
    INFO(name);
    CHECK(fs::file_size(dir / name) > 20);
  }
  const fs::path bad = s.write("bad.lv", "(vec4 1 2)\n");
  const Run mixed = run_sluice(s, "compile " + quote(bad.string()) + " " + quote(example("yellow.lv")) + " -o " +
                                      quote((s.dir / "out2").string()) + " --emit spv");
  CHECK(mixed.code == 1);
  CHECK(fs::exists(s.dir / "out2" / "yellow.lv.spv"));
  CHECK_FALSE(fs::exists(s.dir / "out2" / "bad.lv.spv"));
}

TEST_CASE("render writes a PNG and a PFM") {
  Scratch s;
  const fs::path png = s.dir / "y.png", pfm = s.dir / "y.pfm";
  const Run r = run_sluice(s, "render " + quote(example("yellow.lv")) + " --size 8x4 -o " + quote(png.string()));
  CHECK(r.code == 0);
  CHECK(read_file(png.string()).substr(1, 3) == "PNG");
  const Run f = run_sluice(s, "render " + quote(example("yellow.lv")) + " --size 8x4 -o " + quote(pfm.string()));
  CHECK(f.code == 0);
  const std::string pf = read_file(pfm.string());
  CHECK(pf.substr(0, 2) == "PF");
  // Header "PF\n8 4\n-1.0\n" then 8*4 RGB float triples, every one yellow.
  const std::size_t header = pf.size() - 8 * 4 * 3 * 4;
  float rgb[3];
  std::memcpy(rgb, pf.data() + header, sizeof rgb);
  CHECK(rgb[0] == 1.0f);
  CHECK(rgb[1] == 1.0f);
  CHECK(rgb[2] == 0.0f);
  CHECK(run_sluice(s, "render " + quote(example("yellow.lv")) + " --size 0x4 -o x.png").code == 2);
}

TEST_CASE("xcheck runs the examples three ways and catches a wrong expectation") {
  Scratch s;
  const fs::path json = s.dir / "r.json";
  const Run r = run_sluice(s, "xcheck " + quote(SLUICE_EXAMPLES_DIR) + " --json " + quote(json.string()));
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("3 passed, 0 failed"));
  const std::string report = read_file(json.string());
  CHECK_THAT(report, Catch::Contains("\"summary\": {\"files\": 3, \"pass\": 3"));

  const fs::path wrong = s.write("wrong.lv", "; expect: 1 0 0 1\n(vec4 0 1 0 1)\n");
  const Run w = run_sluice(s, "xcheck " + quote(wrong.string()));
  CHECK(w.code == 1);
  CHECK_THAT(w.out, Catch::Contains("channel R: expected 1, got 0"));

  // Without `; expect` lines nothing independent checks the file.
  const fs::path bare = s.write("bare.lv", "(vec4 0 1 0 1)\n");
  const Run b = run_sluice(s, "xcheck " + quote(bare.string()) + " --json " + quote(json.string()));
  CHECK(b.code == 0);
  CHECK_THAT(read_file(json.string()), Catch::Contains("unchecked: no `; expect` line"));
}

TEST_CASE("bad command lines") {
  Scratch s;
  const Run missing = run_sluice(s, "compile " + quote((s.dir / "nope.lv").string()));
  CHECK(missing.code == 1);
  CHECK_THAT(missing.err, Catch::Contains("cannot read"));
  const fs::path odd = s.write("shader.txt", "(vec4 1)");
  const Run unknown_language = run_sluice(s, "compile " + quote(odd.string()));
  CHECK(unknown_language.code == 2);
  CHECK_THAT(unknown_language.err, Catch::Contains("cannot tell the language"));
  const Run named = run_sluice(s, "compile --language lv " + quote(odd.string()));
  CHECK(named.code == 0);
  CHECK(run_sluice(s, "compile " + quote(example("yellow.lv")) + " --emit nonsense").code == 2);
  CHECK(run_sluice(s, "").code == 2);
  CHECK(run_sluice(s, "frobnicate").code == 2);
}

TEST_CASE("sluice --version and --help") {
  Scratch s;
  const Run version = run_sluice(s, "--version");
  CHECK(version.code == 0);
  // The glslang line comes from glslang's headers, as here.
  const std::string glslang = "glslang " + std::to_string(GLSLANG_VERSION_MAJOR) + "." +
                              std::to_string(GLSLANG_VERSION_MINOR) + "." + std::to_string(GLSLANG_VERSION_PATCH);
  CHECK_THAT(version.out, Catch::Matches("sluice [0-9]+\\.[0-9]+\\.[0-9]+\n" + glslang +
                                         "\nSPIRV-Tools .*v[0-9]{4}\\.[0-9].*\\s*"));
  const Run help = run_sluice(s, "--help");
  CHECK(help.code == 0);
  CHECK_THAT(help.out, Catch::Contains("compile"));
  const Run compile_help = run_sluice(s, "compile --help");
  CHECK(compile_help.code == 0);
  CHECK_THAT(compile_help.out, Catch::Contains("--emit"));
  CHECK_THAT(compile_help.out, Catch::Contains("--output"));
  // Every subcommand's help ends with an example of its use.
  for (const char* command : {"compile", "render", "xcheck"}) {
    INFO(command);
    const Run sub = run_sluice(s, std::string(command) + " --help");
    CHECK(sub.code == 0);
    CHECK_THAT(sub.out, Catch::Contains("Example") && Catch::Contains(std::string("sluice ") + command + " "));
  }
}

// A reported bug: `a = b = u` through `--emit glsl -O0` was said to lose a
// Store. The text must keep both assignments, and the IR read back from it
// store as often as the source's IR, for each place of the chain.
TEST_CASE("a chained assignment keeps every store through --emit glsl -O0") {
  Scratch s;
  for (const std::string body : {"int a; int b; a = b = u;", "int a = 1; int b; a = b = u;",
                                 "int a; int b; if (u > 0) { a = b = u; } else { a = b = 2; }",
                                 "int a; int b; int c; a = b = c = u; a += c;"}) {
    const std::string source = "#version 450\nlayout(binding = 0) uniform U { int u; };\n"
                               "layout(location = 0) out vec4 color;\nvoid main() {\n    " +
                               body + "\n    color = vec4(a, b, 0, 1);\n}\n";
    INFO(source);
    const fs::path in = s.write("chain.frag", source);
    const fs::path glsl = s.dir / "chain_out.frag";
    const Run to_glsl = run_sluice(s, "compile " + quote(in.string()) + " --emit glsl -O0 -o " + quote(glsl.string()));
    INFO(to_glsl.err);
    REQUIRE(to_glsl.code == 0);
    const std::string text = read_file(glsl.string());
    INFO(text);
    CHECK_THAT(text, Catch::Contains("a = b = "));
    const Run first = run_sluice(s, "compile " + quote(in.string()) + " --emit ir -O0");
    const Run second = run_sluice(s, "compile " + quote(glsl.string()) + " --emit ir -O0");
    REQUIRE(first.code == 0);
    REQUIRE(second.code == 0);
    const auto stores = [](const std::string& dump) {
      std::size_t n = 0;
      for (std::size_t at = dump.find("Store "); at != std::string::npos; at = dump.find("Store ", at + 1)) ++n;
      return n;
    };
    CHECK(stores(first.out) >= 3);
    CHECK(stores(second.out) == stores(first.out));
  }
}

// Issue 16: closed functions each applying the previous one twice become
// IR functions (small at -O0); -O1's inliner must not copy 2^40 bodies.
// Its budgets bound the output; timings are in bench/ (BM_DoublingO1).
TEST_CASE("the doubling program compiles to bounded output at every -O level") {
  Scratch s;
  std::string src = "(define f0 (func (x) (* x 2)))\n";
  for (int k = 1; k <= 40; ++k)
    src += "(define f" + std::to_string(k) + " (func (x) (f" + std::to_string(k - 1) + " (f" + std::to_string(k - 1) +
           " x))))\n";
  src += "(output 0 (vec4 (f40 (.x (frag-coord))) 0 0 1))\n";
  const fs::path file = s.write("doubling.lv", src);
  for (const char* level : {"-O0", "-O1"}) {
    INFO(level);
    const Run spv = run_sluice(s, "compile " + quote(file.string()) + " " + level + " --emit spv --validate -o " +
                                      quote((s.dir / "out.spv").string()));
    CHECK(spv.code == 0);
    CHECK(spv.err == "");
    // 40 levels of 2 calls each; inlined completely that is 2^40 multiplies.
    CHECK(fs::file_size(s.dir / "out.spv") < 4'000'000);
    const Run glsl = run_sluice(s, "compile " + quote(file.string()) + " " + level + " --emit glsl");
    CHECK(glsl.code == 0);
    CHECK(glsl.out.size() < 4'000'000);
  }
}

TEST_CASE("a known-failures line with a name and trailing blanks but no reason") {
  // It made `sluice xcheck` throw std::out_of_range out of main (issue 16).
  Scratch s;
  const fs::path shader = s.write("skipped.lv", "; expect: 1 0 0 1\n(vec4 0 1 0 1)\n");
  const fs::path known = s.write("known.txt", "# comment\nskipped.lv   \nother.lv\t\n");
  const Run r = run_sluice(s, "xcheck " + quote(shader.string()) + " --known-failures " + quote(known.string()));
  CHECK(r.code == 0);
  CHECK_THAT(r.err, !Catch::Contains("internal"));
  CHECK_THAT(r.out, Catch::Contains("known-failure"));
  CHECK_THAT(r.out, Catch::Contains("0 passed, 0 failed"));
}

// `sluice cfg`: constructs and rule violations of SPIR-V (docs/spirv-cfg.md).
std::string cfg_case(const std::string& rel) {
  return (fs::path(SLUICE_GOLDEN_DIR).parent_path() / "frontend" / "spirv" / rel).string();
}

TEST_CASE("sluice cfg prints constructs, old and new, and exits 0 on valid control flow") {
  Scratch s;
  const Run r = run_sluice(s, "cfg " + quote(cfg_case("cfg_figures/fig3.spvasm")));
  CHECK(r.code == 0);
  CHECK(r.out.find("selection %3: %3 %4\n") != std::string::npos);
  CHECK(r.err.empty());
  const Run legacy = run_sluice(s, "cfg --legacy " + quote(cfg_case("cfg_figures/fig3.spvasm")));
  CHECK(legacy.code == 0);
  CHECK(legacy.out.find("legacy selection %3: %3 %4 %7\n") != std::string::npos);
  const Run dot = run_sluice(s, "cfg --dot " + quote(cfg_case("cfg_figures/fig3.spvasm")));
  CHECK(dot.code == 0);
  CHECK(dot.out.find("subgraph cluster_") != std::string::npos);
  CHECK(dot.out.find("style=dotted") != std::string::npos);
}

TEST_CASE("sluice cfg reports each violation with its rule id and exits 1: 2 when unreadable") {
  Scratch s;
  const std::string file = cfg_case("cfg_rules/exit.spvasm");
  const Run r = run_sluice(s, "cfg " + quote(file));
  CHECK(r.code == 1);
  CHECK(r.err.find(file + ": error: [exit] the branch from block %3 to block %8") != std::string::npos);
  CHECK(run_sluice(s, "cfg " + quote((s.dir / "missing.spv").string())).code == 2);
  const fs::path bad = s.write("bad.spvasm", "OpCapability Shader\n%x = OpBogus\n");
  const Run b = run_sluice(s, "cfg " + quote(bad.string()));
  CHECK(b.code == 2);
  CHECK(b.err.find("bad.spvasm:2:6: error:") != std::string::npos);
  CHECK(b.err.find("     ^") != std::string::npos);
}
