// The `sluice` driver, run as a process: `compile` with each --emit target,
// -o, stdin, diagnostics and exit codes, --version and --help.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "golden_file.h"

namespace fs = std::filesystem;
using sluice::testing::read_file;

namespace {

struct Run {
  int code = -1;
  std::string out;
  std::string err;
};

// A scratch directory per test, removed afterwards.
struct Scratch {
  fs::path dir;
  Scratch() {
    std::random_device rd;
    dir = fs::temp_directory_path() / ("sluice_driver_test_" + std::to_string(rd()));
    fs::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name, std::ios::binary) << text;
    return dir / name;
  }
};

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `sluice ARGS` (ARGS already quoted), stdin from `input` if given.
Run run_sluice(const Scratch& s, const std::string& args, const std::string& input = "") {
  const fs::path out = s.dir / "stdout.txt", err = s.dir / "stderr.txt";
  std::string cmd = quote(std::string(SLUICE_TOOLS_DIR) + "/sluice") + " " + args;
  cmd += input.empty() ? " </dev/null" : " <" + quote(input);
  cmd += " >" + quote(out.string()) + " 2>" + quote(err.string());
  const int status = std::system(cmd.c_str());
  Run r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(out.string());
  r.err = read_file(err.string());
  return r;
}

std::string example(const std::string& name) { return std::string(SLUICE_EXAMPLES_DIR) + "/" + name; }
std::string golden(const std::string& name) { return read_file(sluice::testing::golden_path(name)); }

}  // namespace

TEST_CASE("sluice compile --emit ir prints the IR dump") {
  Scratch s;
  const Run r = run_sluice(s, "compile " + quote(example("yellow.lv")) + " --emit ir");
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out == golden("lambdav_yellow.ir"));
  // ir is the default target.
  CHECK(run_sluice(s, "compile " + quote(example("yellow.lv"))).out == r.out);
}

TEST_CASE("sluice compile -o writes the file and nothing else") {
  Scratch s;
  const fs::path out = s.dir / "nat-fold.ir";
  const Run r = run_sluice(s, "compile " + quote(example("nat-fold.lv")) + " -o " + quote(out.string()));
  CHECK(r.code == 0);
  CHECK(r.out.empty());
  CHECK(r.err.empty());
  CHECK(read_file(out.string()) == golden("lambdav_nat-fold.ir"));
}

TEST_CASE("sluice compile - reads standard input") {
  Scratch s;
  const Run r = run_sluice(s, "compile -", example("gradient.lv"));
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

TEST_CASE("targets that do not exist yet say so and write nothing") {
  Scratch s;
  for (const char* target : {"spv", "spvasm", "glsl"}) {
    INFO(target);
    const fs::path out = s.dir / "out.bin";
    const Run r = run_sluice(s, "compile " + quote(example("yellow.lv")) + " --emit " + target + " -o " + quote(out.string()));
    CHECK(r.code == 1);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Contains(std::string("--emit ") + target));
    CHECK_THAT(r.err, Catch::Contains("not available yet"));
    CHECK_FALSE(fs::exists(out));
  }
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
  CHECK_THAT(version.out, Catch::Matches("sluice [0-9]+\\.[0-9]+\\.[0-9]+\\s*"));
  const Run help = run_sluice(s, "--help");
  CHECK(help.code == 0);
  CHECK_THAT(help.out, Catch::Contains("compile"));
  const Run compile_help = run_sluice(s, "compile --help");
  CHECK(compile_help.code == 0);
  CHECK_THAT(compile_help.out, Catch::Contains("--emit"));
  CHECK_THAT(compile_help.out, Catch::Contains("--output"));
}
