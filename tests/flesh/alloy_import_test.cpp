// --import of an Alloy instance (src/flesh/alloy_import.h): the POPL 2023
// paper's own instance from the shared corpus, a hand-written one, and
// malformed XML and model errors with their file, line and column.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "corpus.h"
#include "flesh/alloy_import.h"
#include "flesh/check.h"
#include "flesh/flesh.h"

namespace fl = sluice::flesh;

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string kHandWritten = std::string(SLUICE_FLESH_TEST_DATA) + "/diamond-loop.alloy-instance.xml";

}  // namespace

TEST_CASE("the paper's Alloy instance imports and fleshes in every mode") {
  const std::string file = sluice::testing::corpus_file("cfg/model/test_0.alloy-instance.xml");
  auto cfg = fl::import_alloy_instance(read(file), file);
  REQUIRE(cfg.ok());
  // 12 Block, 1 LoopHeader and 5 SelectionHeader atoms; Block$11 is the entry.
  CHECK(cfg->size() == 18);
  int loops = 0, switches = 0, conditionals = 0, returns = 0;
  for (const auto& b : cfg->blocks) {
    loops += b.merge_kind == fl::MergeKind::Loop;
    conditionals += b.terminator == fl::Terminator::Conditional;
    returns += b.terminator == fl::Terminator::Return;
    if (b.terminator == fl::Terminator::Switch) {
      ++switches;
      CHECK(b.case_literals.size() == 10);  // indices 1-10 of SelectionHeader$2, index 0 the default
      CHECK(b.default_selector == 0);
    }
  }
  CHECK(loops == 1);
  CHECK(switches == 1);
  CHECK(conditionals == 5);  // Block$3 and SelectionHeader$0, 1, 3 and 4
  CHECK(returns == 1);       // Block$4
  const auto& entry = cfg->blocks[0];
  CHECK(entry.terminator == fl::Terminator::Branch);
  CHECK(cfg->blocks[entry.targets[0]].merge_kind == fl::MergeKind::Loop);  // Block$11 → LoopHeader$0
  for (fl::Mode mode : {fl::Mode::Basic, fl::Mode::Phi, fl::Mode::Threads, fl::Mode::PhiThreads, fl::Mode::Data}) {
    fl::FleshOptions o;
    o.mode = mode;
    auto t = fl::flesh(*cfg, 7, o);
    REQUIRE(t.ok());
    INFO(fl::to_string(mode));
    CHECK(fl::structure_problem(*t).empty());
  }
}

TEST_CASE("a hand-written Alloy instance gives its CFG, block for block") {
  auto cfg = fl::import_alloy_instance(read(kHandWritten), kHandWritten);
  REQUIRE(cfg.ok());
  // Entry first, then the atoms in the order the sigs list them:
  // Block$0, LoopHeader$0, SelectionHeader$0, Block$1 .. Block$4.
  CHECK(fl::describe(*cfg) ==
        "%1: br %2\n"
        "%2: loop merge %7 continue %6; br %3\n"
        "%3: selection merge %5; br_cond %4 %5\n"
        "%4: br %5\n"
        "%5: br %6\n"
        "%6: br_cond %2 %7\n"
        "%7: return\n");
  // A path with directions {1, 1, 0, 0}: the then-arm, around the loop,
  // the join, out.
  fl::Test t;
  t.cfg = *cfg;
  t.directions = {1, 1, 0, 0};
  t.directions_per_invocation = 4;
  t.capacity = 12;
  t.expected.clear();
  const auto out = fl::predict(t);
  CHECK(std::vector<std::uint32_t>(out.begin(), out.begin() + 10) ==
        std::vector<std::uint32_t>{1, 2, 3, 4, 5, 6, 2, 3, 5, 6});
}

TEST_CASE("malformed XML and instances the model forbids are errors at file:line:col") {
  struct Case {
    const char* xml;
    const char* text;  // Error::text(): "f.xml:line:col: message"
  };
  const Case cases[] = {
      {"<alloy><instance>\n<sig label=\"Block\">\n  <atom label=\"Block$0\">\n</sig>", "f.xml:4:3: malformed XML: mismatched tag"},
      {"<alloy><instance>\n<sig label=\"x\" label=\"y\"/>", "f.xml:2:16: malformed XML: duplicate attribute"},
      {"<alloy><instance/></alloy>\n<more/>", "f.xml:2:1: malformed XML: junk after document element"},
      {"<alloy></alloy>", "f.xml:1:1: not an Alloy instance: no <instance> element"},
      {"<alloy><instance><sig label=\"this/Block\"><atom label=\"B$0\"/></sig></instance></alloy>",
       "f.xml:1:1: the instance has 0 EntryBlock atoms; the model has exactly one"},
      {"<alloy><instance>\n<sig label=\"this/Block\"><atom label=\"B$0\"/></sig>\n"
       "<sig label=\"this/EntryBlock\"><atom label=\"B$0\"/></sig>\n"
       "<field label=\"branch\">\n  <tuple><atom label=\"B$0\"/><atom label=\"B$0\"/></tuple>\n</field></instance></alloy>",
       "f.xml:5:3: a branch tuple has 2 atoms, not 3"},
      {"<alloy><instance>\n<sig label=\"this/Block\"><atom label=\"B$0\"/><atom label=\"B$1\"/></sig>\n"
       "<sig label=\"this/EntryBlock\"><atom label=\"B$0\"/></sig>\n"
       "<field label=\"branch\">\n  <tuple><atom label=\"B$0\"/><atom label=\"1\"/><atom label=\"B$1\"/></tuple>\n"
       "</field></instance></alloy>",
       "f.xml:2:25: B$0's branch targets skip index 0 (they must be 0, 1, ...)"},
  };
  for (const Case& c : cases) {
    INFO(c.xml);
    auto r = fl::import_alloy_instance(c.xml, "f.xml");
    REQUIRE_FALSE(r.ok());
    CHECK(r.failure().text() == c.text);
  }
  // Well-formed and allowed by the sigs, but no structured CFG: the header
  // has no merge.
  auto r = fl::import_alloy_instance(
      "<alloy><instance><sig label=\"this/SelectionHeader\"><atom label=\"S$0\"/></sig>"
      "<sig label=\"this/EntryBlock\"><atom label=\"S$0\"/></sig></instance></alloy>",
      "f.xml");
  REQUIRE_FALSE(r.ok());
  CHECK(r.failure().text() == "f.xml:1:52: header S$0 has no merge block");
}
