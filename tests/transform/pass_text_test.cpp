// Every pass of the registry on IR text: tests/transform/passes/<pass>/ holds
// small whole modules (README.md there says where each comes from); the
// pass runs on each, the validator before and after, and its dump must
// equal tests/golden/passes/<pass>/<case>.ir (SLUICE_UPDATE_GOLDEN=1 writes
// them; review each). A case named keeps-* is one the pass must leave alone:
// it reports no change and the golden equals the input. Every pass has at
// least one case it rewrites and one it keeps.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include <catch2/catch.hpp>

#include "golden_file.h"
#include "text_form_util.h"
#include "transform/pass_manager.h"

using namespace sluice;
namespace fs = std::filesystem;

namespace {

fs::path cases_dir() { return fs::path(SLUICE_GOLDEN_DIR).parent_path() / "transform" / "passes"; }

std::vector<fs::path> cases_of(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".ir") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

bool updating_goldens() {
  const char* update = std::getenv("SLUICE_UPDATE_GOLDEN");
  return update && std::string(update) == "1";
}

}  // namespace

TEST_CASE("every pass turns its IR text cases into their golden dumps and leaves its keeps-* cases alone") {
  transform::PassManager pm;
  for (const transform::PassInfo& pass : pm.passes()) {
    DYNAMIC_SECTION(pass.name) {
      const fs::path dir = cases_dir() / pass.name;
      INFO("cases of " << pass.name << ": " << dir.string());
      REQUIRE(fs::is_directory(dir));
      if (updating_goldens()) fs::create_directories(fs::path(testing::golden_path("passes")) / pass.name);
      int rewritten = 0, kept = 0;
      for (const fs::path& file : cases_of(dir)) {
        INFO(file.string());
        const std::string text = testing::read_file(file.string());
        const bool keeps = file.stem().string().starts_with("keeps-");
        const bool changed =
            testing::check_pass_on_text(pass.name, text, "passes/" + pass.name + "/" + file.filename().string());
        CHECK(changed == !keeps);
        if (keeps) CHECK(testing::read_file(testing::golden_path("passes/" + pass.name + "/" + file.filename().string())) ==
                         ir::dump(testing::parse_text(text)));
        ++(keeps ? kept : rewritten);
      }
      CHECK(rewritten >= 1);
      CHECK(kept >= 1);
    }
  }
}

TEST_CASE("the IR text cases name only registered passes") {
  transform::PassManager pm;
  for (const auto& e : fs::directory_iterator(cases_dir())) {
    if (!e.is_directory()) continue;
    INFO(e.path().string());
    CHECK(pm.find(e.path().filename().string()) != nullptr);
  }
}
