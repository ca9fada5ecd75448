// Malformed text gives a diagnostic pointing at the mistake, never a crash:
// exact messages for typical mistakes, then truncations and byte mutations
// of a golden dump, garbage, huge ids and long type chains.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <random>
#include <regex>

#include "all_constructs.h"
#include "ir/dump.h"
#include "ir/parse.h"

using namespace sluice;
using namespace sluice::ir;

namespace {

// The ANGLE example's dump with the first `from` replaced by `to`.
std::string angle_with(std::string_view from, std::string_view to) {
  std::string text = dump(testing::build_angle_example());
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  return text;
}

// The first line of the rendered diagnostic ("file:line:col: error: ...").
std::string first_error(const std::string& text) {
  const ParseResult r = parse_module(text, "bad.ir");
  CHECK_FALSE(r.ok());
  if (r.diagnostics.empty()) return "<no diagnostic>";
  CHECK(r.diagnostics.size() == 1);
  const std::string rendered = render(r.diagnostics, text);
  return rendered.substr(0, rendered.find('\n'));
}

std::size_t line_count(std::string_view text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
}

// Parsing `text` either succeeds, and then the dump of the result reads back
// to itself, or gives one error inside the text.
void check_parses_or_diagnoses(const std::string& text) {
  const ParseResult r = parse_module(text, "fuzz.ir");
  if (r.ok()) {
    REQUIRE(r.diagnostics.empty());
    const std::string again = dump(*r.module);
    const ParseResult second = parse_module(again, "fuzz2.ir");
    INFO(text);
    INFO(render(second.diagnostics, again));
    REQUIRE(second.ok());
    REQUIRE(dump(*second.module) == again);
    return;
  }
  REQUIRE(r.diagnostics.size() == 1);
  const Diagnostic& d = r.diagnostics.front();
  CHECK(d.severity == Severity::Error);
  CHECK(d.line >= 1);
  CHECK(d.line <= line_count(text) + 1);
  CHECK(d.column >= 1);
  CHECK_FALSE(d.message.empty());
  CHECK_FALSE(render(d, text).empty());
}

}  // namespace

TEST_CASE("an unknown opcode is reported at its column, with the line and a caret") {
  const std::string text = angle_with("Load v2 ", "Lood v2 ");
  const ParseResult r = parse_module(text, "bad.ir");
  REQUIRE_FALSE(r.ok());
  CHECK(render(r.diagnostics, text) ==
        "bad.ir:68:24: error: unknown opcode 'Lood'\n"
        "    |   r0   (t2) =    Lood v2                                       [mediump]\n"
        "                       ^\n");
}

TEST_CASE("malformed texts give exact diagnostics") {
  CHECK(first_error(angle_with("LessThan r0", "LessThan r99")) == "bad.ir:69:33: error: r99 is never defined");
  CHECK(first_error(angle_with("Load v2 ", "Load v7 ")) == "bad.ir:68:29: error: v7 does not exist");
  CHECK(first_error(angle_with("    |   r1   (t4)", "        r1   (t4)")) ==
        "bad.ir:69:5: error: wrong indentation: expected depth 1, found depth 0 (each level is '|   ')");
  CHECK(first_error(angle_with("  t29: Pointer to t1", "  t30: Pointer to t1")) ==
        "bad.ir:34:3: error: expected t29, not t30: ids are listed densely and in order");
  CHECK(first_error(angle_with("t3: uint", "t3: bool")) == "bad.ir:8:3: error: t3 must be the predefined type uint");
  CHECK(first_error(angle_with("t26: Pointer to t7", "t26: Pointer to t27")) ==
        "bad.ir:31:19: error: t27 is not listed before t26: a type refers to earlier types");
  CHECK(first_error(angle_with("t27: Pointer to t5", "t27: Pointer to t5 in Funky")) ==
        "bad.ir:32:25: error: expected a storage class such as Input, Output, Uniform or StorageBuffer");
  CHECK(first_error(angle_with("  c9 (t2): 10", "  c9 (t2): 1")) ==
        "bad.ir:46:3: error: c9 repeats c5: each constant is listed once");
  CHECK(first_error(angle_with("[mediump, output", "[mediump, input")) ==
        "bad.ir:51:33: error: 'input' does not match the storage class of t26");
  CHECK(first_error(angle_with("|   Loop Body:", "|   If True Block:")) ==
        "bad.ir:73:9: error: a sub-block of Loop cannot be titled 'If True Block:'");
  CHECK(first_error(angle_with("Add r10 r9 ", "Add r10 (r9)")) ==
        "bad.ir:82:32: error: Add takes no parenthesised operand list");
  CHECK(first_error(angle_with("Input: r17 (t7)", "Input: r16 (t7)")) ==
        "bad.ir:110:12: error: r16 is already defined differently on line 97");
  CHECK(first_error(angle_with("Types:", "Typez:")) == "bad.ir:4:1: error: expected 'Types:'");
  CHECK(first_error(angle_with("'_ucolor'", "'_ucolor")) == "bad.ir:51:14: error: unterminated name: expected a closing '");
  CHECK(first_error(angle_with("Globals: v0", "Globals: v0 v1")) == "bad.ir:55:12: error: expected ', '");
  CHECK(first_error(angle_with("LoopIf r1\n", "LoopIf r1\n    |   \n")) ==
        "bad.ir:71:9: error: expected an instruction: [rN (tT) =] Opcode operands");
  CHECK(first_error(angle_with("Declare: v1, v2\n", "Declare: v1, v2\n    Declare: v1\n")) ==
        "bad.ir:64:5: error: 'Declare:' comes first in a block, once");
  CHECK(first_error(angle_with("v1 (1, 0)", "v1")) ==
        "bad.ir:74:24: error: AccessVectorComponentMulti needs its parenthesised operand list, '()' if empty");
  CHECK(first_error(angle_with("Store r3 r11", "Store r3 r11 [mediump]")) ==
        "bad.ir:83:37: error: an instruction without a result has no precision");
  CHECK(first_error(angle_with("                   If r16", "                   NextBlock")) ==
        "bad.ir:100:5: error: NextBlock has no sub-blocks, only a merge block");
  CHECK(first_error(angle_with("\n    V___________\n", "\n    |   V___________\n")) ==
        "bad.ir:91:9: error: no If, Loop, DoLoop, Switch or NextBlock at this depth for this merge block to belong to");
  CHECK(first_error(angle_with("Fragment Shader", "Pixel Shader")) ==
        "bad.ir:1:1: error: expected a shader header: 'Vertex Shader', 'Fragment Shader', 'Compute Shader', "
        "'Geometry Shader', 'TessControl Shader' or 'TessEvaluation Shader'");
}

TEST_CASE("truncated texts end with a diagnostic at the end or parse as far as they go") {
  const std::string text = dump(testing::build_angle_example());
  CHECK(first_error("") == "bad.ir:1:1: error: unexpected end of file; expected a shader header such as 'Fragment Shader'");
  CHECK(first_error(text.substr(0, 300)) == "bad.ir:18:20: error: expected '['");
  CHECK(first_error(text.substr(0, text.find("Constants:"))) ==
        "bad.ir:36:1: error: unexpected end of file; expected 'Constants:'");
  // Cut just after a sub-block's connector: its title is missing.
  const std::size_t connector = text.find("+-> __________\n");
  REQUIRE(connector != std::string::npos);
  CHECK(first_error(text.substr(0, connector + 15)) ==
        "bad.ir:73:1: error: unexpected end of file; expected the title of the block begun on line 72");
}

TEST_CASE("ids too large for the text are rejected without allocating for them") {
  const std::string huge = angle_with("LessThan r0", "LessThan r4000000000");
  CHECK(first_error(huge) ==
        fmt::format("bad.ir:69:33: error: r4000000000 is too large an id for a text of {} bytes", huge.size()));
  CHECK(first_error(angle_with("Input: r17 ", "Input: r536870000 ")).find("is too large an id") != std::string::npos);
  CHECK(first_error(angle_with("LessThan r0", "LessThan r99999999999")) ==
        "bad.ir:69:33: error: number too large");
  CHECK(first_error(angle_with("(1, 0)", "(1, 536870912)")) ==
        "bad.ir:74:58: error: literal 536870912 is too large (at most 536870911)");
}

TEST_CASE("ten megabytes of garbage give one diagnostic on the first line") {
  std::mt19937 random(7);
  std::string garbage(10 << 20, '\0');
  for (char& ch : garbage) ch = static_cast<char>(random() & 0xff);
  const ParseResult r = parse_module(garbage, "garbage.ir");
  REQUIRE_FALSE(r.ok());
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].line == 1);
  // Ten megabytes of one valid-looking line: the header check stops it.
  const std::string spaces = "Fragment Shader" + std::string(10 << 20, ' ') + "x";
  CHECK(first_error(spaces).starts_with("bad.ir:1:"));
}

TEST_CASE("long chains of types read back without recursion and cycles cannot be written") {
  constexpr std::uint32_t kChain = 100000;
  Module m;
  TypeId t = predefined::kFloat;
  for (std::uint32_t i = 0; i < kChain; ++i) {
    t = i % 2 ? m.array_type(t, 2) : m.intern(Type::make_struct(fmt::format("S{}", i), {{"m", t, {}, {}, {}}}));
  }
  const std::string text = dump(m);
  const ParseResult r = parse_module(text, "types.ir");
  INFO(render(r.diagnostics, text));
  REQUIRE(r.ok());
  CHECK(r.module->type_count() == predefined::kTypeCount + kChain);
  CHECK(dump(*r.module) == text);
  // A type may only name earlier types, so no text describes a cycle.
  const std::string cycle = angle_with("t27: Pointer to t5", "t27: Array of t28[2]");
  CHECK(first_error(cycle) == "bad.ir:32:17: error: t28 is not listed before t27: a type refers to earlier types");
}

TEST_CASE("truncations and byte mutations of a golden dump never crash the parser") {
  const std::string text = dump(testing::build_all_constructs());
  // Every truncation point in the first and last kilobyte, then every 7th byte.
  for (std::size_t n = 0; n <= text.size(); n += (n < 1024 || n + 1024 > text.size()) ? 1 : 7)
    check_parses_or_diagnoses(text.substr(0, n));

  // Replace, insert or delete a byte, or duplicate or drop a line: bytes
  // chosen from the text form's alphabet and beyond.
  std::mt19937 random(20240611);
  const std::string alphabet = "0123456789rctvfV_|+-> ()[],:='\n\t\r\xff\x80" "abcdefghijklmnopqrstuvwxyz";
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(random() % n); };
  for (int i = 0; i < 3000; ++i) {
    std::string mutated = text;
    const std::size_t at = pick(mutated.size());
    switch (pick(5)) {
      case 0: mutated[at] = alphabet[pick(alphabet.size())]; break;
      case 1: mutated.insert(at, 1, alphabet[pick(alphabet.size())]); break;
      case 2: mutated.erase(at, 1); break;
      case 3: {
        const std::size_t begin = mutated.rfind('\n', at) + 1;
        const std::size_t end = mutated.find('\n', at);
        mutated.insert(begin, mutated.substr(begin, end - begin + 1));
        break;
      }
      default: {
        const std::size_t begin = mutated.rfind('\n', at) + 1;
        mutated.erase(begin, mutated.find('\n', at) - begin + 1);
        break;
      }
    }
    check_parses_or_diagnoses(mutated);
  }
}

TEST_CASE("the register id limit, at it and one past it") {
  // Limit: ids below the text's length + 65536 (docs/limits.md). Every r17
  // of the ANGLE example is renamed to a five-digit id, so the text's
  // length does not depend on which one.
  std::string text = dump(testing::build_angle_example());
  const std::regex r17("\\br17\\b");
  REQUIRE(std::regex_search(text, r17));
  const std::size_t length = std::regex_replace(text, r17, "r00000").size();
  const std::size_t at = length + 65535, past = length + 65536;
  REQUIRE(std::to_string(past).size() == 5);
  const std::string ok = std::regex_replace(text, r17, "r" + std::to_string(at));
  REQUIRE(ok.size() == length);
  const ParseResult r = parse_module(ok, "at.ir");
  INFO(render(r.diagnostics, ok));
  CHECK(r.ok());
  CHECK_THAT(first_error(std::regex_replace(text, r17, "r" + std::to_string(past))),
             Catch::Contains(fmt::format("r{} is too large an id for a text of {} bytes", past, length)));
}
