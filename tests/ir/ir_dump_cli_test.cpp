// The ir-dump tool, run as a separate process: it prints the example back,
// draws it with --dot, and rejects bad files with a diagnostic and exit 1.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "golden_file.h"
#include "ir/dot.h"
#include "ir/parse.h"

using namespace sluice;

namespace {

struct Run {
  int exit_code = -1;
  std::string output;
};

// Runs ir-dump with `arguments` (shell syntax) and collects its stdout,
// and its stderr too when `with_stderr`.
Run run_ir_dump(const std::string& arguments, bool with_stderr = true) {
  const std::string command =
      std::string(SLUICE_TOOLS_DIR) + "/ir-dump " + arguments + (with_stderr ? " 2>&1" : " 2>/dev/null");
  Run run;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  std::size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) run.output.append(buffer, n);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

// A file under the temp directory, removed at the end of the test.
struct TempFile {
  std::filesystem::path path;
  explicit TempFile(const std::string& contents) {
    path = std::filesystem::temp_directory_path() /
           ("sluice_ir_dump_test_" + std::to_string(getpid()) + "_" + std::to_string(counter()++) + ".ir");
    std::ofstream(path, std::ios::binary) << contents;
  }
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  }
  static int& counter() {
    static int n = 0;
    return n;
  }
};

const std::string kExample = std::string(SLUICE_EXAMPLES_DIR) + "/angle_example.ir";

}  // namespace

TEST_CASE("ir-dump prints the example back byte for byte") {
  const Run run = run_ir_dump(kExample, false);
  CHECK(run.exit_code == 0);
  CHECK(run.output == testing::read_file(kExample));
}

TEST_CASE("ir-dump reads stdin and draws graphs with --dot") {
  const Run run = run_ir_dump("--dot - < " + kExample, false);
  CHECK(run.exit_code == 0);
  const std::string text = testing::read_file(kExample);
  const ir::ParseResult parsed = ir::parse_module(text, "example");
  REQUIRE(parsed.ok());
  CHECK(run.output == ir::dot(*parsed.module));
}

TEST_CASE("ir-dump rejects a bad file with a diagnostic and exit status 1") {
  std::string text = testing::read_file(kExample);
  text.replace(text.find("Load v2 "), 8, "Lood v2 ");
  const TempFile bad(text);
  const Run run = run_ir_dump(bad.path.string());
  CHECK(run.exit_code == 1);
  CHECK(run.output == bad.path.string() +
                          ":68:24: error: unknown opcode 'Lood'\n"
                          "    |   r0   (t2) =    Lood v2                                       [mediump]\n"
                          "                       ^\n");

  const Run missing = run_ir_dump("/nonexistent/file.ir");
  CHECK(missing.exit_code == 1);
  CHECK(missing.output == "ir-dump: cannot read /nonexistent/file.ir\n");
}

TEST_CASE("ir-dump answers --version and --help, and refuses unknown options") {
  const Run version = run_ir_dump("--version");
  CHECK(version.exit_code == 0);
  CHECK(version.output == "ir-dump 0.1.0\n");
  const Run help = run_ir_dump("--help");
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.output, Catch::Contains("--validate") && Catch::Contains("--dot") && Catch::Contains("FILE"));
  CHECK(run_ir_dump("--frobnicate " + kExample).exit_code != 0);
  CHECK(run_ir_dump("").exit_code != 0);
}

TEST_CASE("ir-dump --validate passes valid modules and reports problems with exit status 1") {
  // Builds without the validator say so and exit 1 whatever the module.
  const Run valid = run_ir_dump("--validate " + kExample);
  if (valid.output.find("this build has no validator") != std::string::npos) {
    CHECK(valid.exit_code == 1);
    return;
  }
  CHECK(valid.exit_code == 0);
  CHECK(valid.output == testing::read_file(kExample));

  // Break outside any loop or switch: it parses, but is not valid IR.
  std::string text = testing::read_file(kExample);
  text.replace(text.find("Merge c10[mediump]"), 18, "Break");
  const TempFile invalid(text);
  const Run run = run_ir_dump("--validate " + invalid.path.string());
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.output, Catch::Contains(invalid.path.string() + ": f0 'main'"));
}
