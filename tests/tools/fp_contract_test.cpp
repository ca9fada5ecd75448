// `--fp-contract=on|off` (spirv::Options::no_contraction, docs/ub-check.md
// "Contraction"): parsed by compile, render, xcheck and bench-run, it
// reaches Sluice's SPIR-V (NoContraction decorations in compile's output;
// bench-run's modules grow by them), the GLSL output refuses `off` (compile
// fails, xcheck and bench-run report the GLSL variants skipped), and render
// draws with it on lavapipe exactly the separately rounded products and sums
// (each decorated operation rounds on its own); and the script the lead runs
// on NVIDIA, tests/nvidia/ub_check_contraction.sh, runs end to end on
// lavapipe. That every float operation is decorated is
// tests/output/spirv/no_contraction_test.cpp's concern.
#include <catch2/catch.hpp>

#include <cstring>
#include <regex>
#include <string>

#include "tools/driver_run.h"

using namespace sluice::testing;

namespace {

// p = fragCoord * 0.37 + 0.11; R = p.x * p.y + p.x, G = p.y * p.y - p.x,
// B = p.x: products that are not exact, so a fused multiply-add would
// round differently.
constexpr const char* kShader =
    "// bench-run: draw 16 16\n"
    "#version 450\n"
    "layout(location = 0) out vec4 color;\n"
    "void main() {\n"
    "  vec2 p = gl_FragCoord.xy * 0.37 + 0.11;\n"
    "  color = vec4(p.x * p.y + p.x, p.y * p.y - p.x, p.x, 1.0);\n"
    "}\n";

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Each operation rounded on its own: volatile stores keep the compiler of
// this test from fusing them.
float separately(float a, float b, float c) {
  volatile float product = a * b;
  volatile float sum = product + c;
  return sum;
}

}  // namespace

TEST_CASE("fp-contract: compile decorates with off only, refuses a bad value and the GLSL output") {
  Scratch s;
  const std::string frag = quote(s.write("mad.frag", kShader).string());
  const Run off = run_sluice(s, "compile --emit spvasm --fp-contract=off " + frag);
  const Run on = run_sluice(s, "compile --emit spvasm --fp-contract on " + frag);
  const Run plain = run_sluice(s, "compile --emit spvasm " + frag);
  INFO(off.err << on.err << plain.err);
  REQUIRE(off.code == 0);
  REQUIRE(on.code == 0);
  REQUIRE(plain.code == 0);
  // p: OpVectorTimesScalar, OpFAdd (on vec2); R: OpFMul, OpFAdd; G: OpFMul, OpFSub.
  CHECK(count(off.out, "NoContraction") == 6);
  CHECK(count(on.out, "NoContraction") == 0);
  CHECK(on.out == plain.out);

  const Run bad = run_sluice(s, "compile --emit spvasm --fp-contract=fast " + frag);
  CHECK(bad.code == 2);
  CHECK(bad.err.find("--fp-contract") != std::string::npos);

  const Run glsl = run_sluice(s, "compile --emit glsl --fp-contract=off " + frag);
  CHECK(glsl.code == 1);
  CHECK(glsl.err.find("--fp-contract=off is for SPIR-V output only") != std::string::npos);
  CHECK(glsl.out.empty());
}

TEST_CASE("fp-contract=off: render draws the separately rounded values on lavapipe") {
  Scratch s;
  const std::string frag = quote(s.write("mad.frag", kShader).string());
  const std::string pfm = (s.dir / "off.pfm").string();
  const Run r = run_sluice(s, "render --fp-contract=off --size 16x16 --format pfm -o " + quote(pfm) + " " + frag);
  INFO(r.err);
  REQUIRE(r.code == 0);
  // PFM: "PF\n16 16\n-1.0\n", then three little-endian floats a pixel,
  // bottom row first (src/exec/image_io.h).
  const std::string data = read_file(pfm);
  std::size_t at = 0;
  for (int line = 0; line < 3; ++line) at = data.find('\n', at) + 1;
  REQUIRE(data.size() == at + 16 * 16 * 12);
  int checked = 0;
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x) {
      float rgb[3];
      std::memcpy(rgb, data.data() + at + ((15 - y) * 16 + x) * 12, sizeof rgb);
      const float px = separately(static_cast<float>(x) + 0.5f, 0.37f, 0.11f);
      const float py = separately(static_cast<float>(y) + 0.5f, 0.37f, 0.11f);
      INFO("pixel (" << x << ", " << y << ")");
      CHECK(rgb[2] == px);
      CHECK(rgb[0] == separately(px, py, px));
      CHECK(rgb[1] == separately(py, py, -px));
      ++checked;
    }
  CHECK(checked == 256);
}

TEST_CASE("fp-contract=off: xcheck and bench-run skip the variants made from Sluice's GLSL") {
  Scratch s;
  const std::string frag = quote(s.write("mad.frag", kShader).string());
  const Run x = run_sluice(s, "xcheck --fp-contract=off --json " + quote((s.dir / "x.json").string()) + " " + frag);
  INFO(x.out << x.err);
  CHECK(std::regex_search(x.out, std::regex(R"(sluice-glsl\s+0\s+0\s+0\s+1\n)")));
  const std::string json = read_file((s.dir / "x.json").string());
  CHECK(json.find(R"("sluice-glsl": {"status": "skip", "detail": "sluice: error: GLSL output: --fp-contract=off)") !=
        std::string::npos);

  // bench-run: Sluice's -O1 module carries one 3-word OpDecorate per float
  // operation more with off; the GLSL variant is skipped, not failed.
  auto words = [&](const char* contract) {
    const std::string tsv = (s.dir / (std::string(contract) + ".tsv")).string();
    const Run b = run_sluice(s, std::string("bench-run --repeats 1 --warmup 0 --warmup-ms 0 --max-ulps 0 --fp-contract=") + contract +
                                    " --variants sluice-O1,sluice-glsl --tsv " + quote(tsv) + " " + frag);
    INFO(b.out << b.err);
    CHECK(b.code == 0);
    std::smatch m;
    const std::string text = read_file(tsv);
    REQUIRE(std::regex_search(text, m, std::regex(R"(\tsluice-O1\t(\d+)\t)")));
    if (std::string(contract) == "off") {
      CHECK(b.out.find("| skipped |") != std::string::npos);
      CHECK(b.err.find("sluice-glsl: sluice: error: GLSL output: --fp-contract=off") != std::string::npos);
    }
    return std::stoul(m[1]);
  };
  CHECK(words("off") == words("on") + 3 * 6);
}

TEST_CASE("fp-contract: tests/nvidia/ub_check_contraction.sh runs end to end on lavapipe") {
  Scratch s;
  const std::string root = std::string(SLUICE_EXAMPLES_DIR) + "/..";
  const std::string out = (s.dir / "script.txt").string();
  const std::string cmd = "cd " + quote(root) + " && tests/nvidia/ub_check_contraction.sh --device cpu --sluice " +
                          quote(std::string(SLUICE_TOOLS_DIR) + "/sluice") + " >" + quote(out) + " 2>&1";
  const int status = std::system(cmd.c_str());
  const std::string text = read_file(out);
  INFO(text);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  // One summary row per shader and setting; lavapipe computes the
  // instrumented programs bit for bit as the plain ones (docs/ub-check.md).
  for (const char* row : {"| raymarch.frag | on | yes |", "| particles.comp | on | yes |",
                          "| raymarch.frag | off | yes |", "| particles.comp | off | yes |"})
    CHECK(text.find(row) != std::string::npos);
}
