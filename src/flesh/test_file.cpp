// See test_file.h. The parser reads one line at a time, splits it into
// blank-separated words with their columns, and checks every reference
// once all block lines are read.
#include "flesh/test_file.h"

#include <filesystem>
#include <fstream>
#include <set>

#include <fmt/format.h>

namespace sluice::flesh {

std::string describe_test(const Test& t, std::uint32_t walk_bound, const Mutation& m) {
  std::string s = "; sluice flesh test (docs/flesh.md): `sluice flesh --reduce` reads it\n";
  s += fmt::format("mode {}\nseed {:#x}\nwalk {}\ninvocations {}\nlocal-size {}\n", to_string(t.mode), t.seed, walk_bound,
                   t.invocations, t.local_size);
  if (m.kind != Mutation::Kind::None) s += fmt::format("mutation {} %{}\n", to_string(m.kind), m.block + 1);
  return s + describe(t.cfg);
}

Result<bool> write_test_description(const std::string& dir, const std::string& name, const Test& t,
                                    std::uint32_t walk_bound, const Mutation& m) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::ofstream out(dir + "/" + name + ".cfg", std::ios::binary);
  out << describe_test(t, walk_bound, m);
  if (!out) return Error{fmt::format("cannot write '{}/{}.cfg'", dir, name), ErrorCode::Environment};
  return true;
}

Result<Test> mutated_test(const Test& t, const Mutation& m) {
  Test r = t;
  if (m.kind == Mutation::Kind::None) return r;
  auto words = mutant_spirv(t, m);
  if (!words) return words.failure();
  r.assembly = emit_assembly(t, m);
  r.spirv = std::move(*words);
  return r;
}

namespace {

struct Word {
  std::string text;
  std::uint32_t column;  // 1-based
};

std::vector<Word> split_words(std::string_view line) {
  std::vector<Word> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) words.push_back({std::string(line.substr(start, i - start)), static_cast<std::uint32_t>(start + 1)});
  }
  return words;
}

// Unsigned decimal (or 0x hexadecimal) of at most 64 bits, the whole text.
std::optional<std::uint64_t> number(std::string_view s) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  if (s.empty() || s.size() > 20) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return std::nullopt;
    if (v > (~std::uint64_t{0} - static_cast<std::uint64_t>(d)) / static_cast<std::uint64_t>(base)) return std::nullopt;
    v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
  }
  return v;
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  Result<TestDescription> run() {
    std::size_t at = 0;
    while (at <= text_.size() && error_.empty()) {
      const auto nl = text_.find('\n', at);
      const std::string_view line = text_.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
      ++line_;
      parse_line(split_words(line));
      if (nl == std::string_view::npos) break;
      at = nl + 1;
    }
    if (error_.empty()) finish();
    if (!error_.empty()) return Error{error_, ErrorCode::Rejected, ErrorLocation{file_, error_line_, error_column_}};
    return std::move(d_);
  }

 private:
  struct Ref {
    std::uint32_t number, line, column;
  };

  void fail(std::uint32_t column, std::string message) {
    if (!error_.empty()) return;
    error_ = std::move(message);
    error_line_ = line_;
    error_column_ = column;
  }

  // "%N" followed by exactly `suffix` ("", ":" or ";").
  std::optional<std::uint32_t> block_number(const Word& w, std::string_view suffix) {
    std::string_view s = w.text;
    if (s.size() < 2 + suffix.size() || s[0] != '%' || s.substr(s.size() - suffix.size()) != suffix) {
      fail(w.column, fmt::format("expected a block '%N{}', found '{}'", suffix, w.text));
      return std::nullopt;
    }
    const auto n = number(s.substr(1, s.size() - 1 - suffix.size()));
    if (!n || *n == 0 || *n > 100000) {
      fail(w.column + 1, fmt::format("'{}': a block number is 1 to 100000", w.text));
      return std::nullopt;
    }
    return static_cast<std::uint32_t>(*n);
  }

  // A word that must be `expected`; false after reporting otherwise.
  bool keyword(const std::vector<Word>& w, std::size_t i, std::string_view expected) {
    if (i < w.size() && w[i].text == expected) return true;
    fail(i < w.size() ? w[i].column : end_column(w), fmt::format("expected '{}'", expected));
    return false;
  }

  static std::uint32_t end_column(const std::vector<Word>& w) {
    return w.empty() ? 1 : w.back().column + static_cast<std::uint32_t>(w.back().text.size());
  }

  // Stores N - 1 now; whether block N exists is known only at the end.
  void reference(BlockIndex& slot, const Word& w, std::string_view suffix) {
    if (auto n = block_number(w, suffix)) {
      slot = *n - 1;
      refs_.push_back({*n, line_, w.column});
    }
  }

  void parse_line(const std::vector<Word>& w) {
    if (w.empty() || w[0].text[0] == ';') return;
    const std::string& key = w[0].text;
    if (key[0] == '%') return parse_block(w);
    if (!blocks_seen_.empty()) return fail(w[0].column, "settings come before the first block");
    auto value = [&](std::uint64_t max) -> std::optional<std::uint64_t> {
      if (w.size() != 2) {
        fail(w.size() < 2 ? end_column(w) : w[2].column, fmt::format("'{}' takes one number", key));
        return std::nullopt;
      }
      auto n = number(w[1].text);
      if (!n || *n > max) fail(w[1].column, fmt::format("'{}': expected a number up to {}", w[1].text, max));
      return n && *n <= max ? n : std::nullopt;
    };
    if (key == "mode") {
      auto m = w.size() == 2 ? mode_from_string(w[1].text) : std::nullopt;
      if (!m) return fail(w.size() > 1 ? w[1].column : end_column(w), "expected a mode: basic, phi, threads, phi+threads or data");
      d_.options.mode = *m;
    } else if (key == "seed") {
      if (auto n = value(~std::uint64_t{0})) d_.seed = *n;
    } else if (key == "walk") {
      if (auto n = value(1000000)) d_.options.walk_bound = static_cast<std::uint32_t>(*n);
    } else if (key == "invocations") {
      if (auto n = value(65536)) d_.options.invocations = static_cast<std::uint32_t>(*n);
    } else if (key == "local-size") {
      if (auto n = value(1024)) d_.options.local_size = static_cast<std::uint32_t>(*n);
    } else if (key == "mutation") {
      if (w.size() != 3 || (w[1].text != "swap-targets" && w[1].text != "drop-store"))
        return fail(w.size() > 1 ? w[1].column : end_column(w), "expected 'mutation swap-targets %N' or 'mutation drop-store %N'");
      d_.mutation.kind = w[1].text == "swap-targets" ? Mutation::Kind::SwapTargets : Mutation::Kind::DropStore;
      reference(d_.mutation.block, w[2], "");
    } else {
      fail(w[0].column, fmt::format("unknown setting '{}' (mode, seed, walk, invocations, local-size, mutation)", key));
    }
  }

  void parse_block(const std::vector<Word>& w) {
    const auto n = block_number(w[0], ":");
    if (!n) return;
    if (!blocks_seen_.insert(*n).second) return fail(w[0].column, fmt::format("block %{} is defined twice", *n));
    if (*n > d_.cfg.blocks.size()) d_.cfg.blocks.resize(*n);
    d_.cfg.layout.push_back(*n - 1);
    if (!first_block_line_) first_block_line_ = line_;
    Block& b = d_.cfg.blocks[*n - 1];
    std::size_t i = 1;
    if (i < w.size() && (w[i].text == "selection" || w[i].text == "loop")) {
      const bool loop = w[i].text == "loop";
      if (!keyword(w, i + 1, "merge")) return;
      if (i + 2 >= w.size()) return fail(end_column(w), "expected the merge block");
      b.merge_kind = loop ? MergeKind::Loop : MergeKind::Selection;
      if (loop) {
        reference(b.merge, w[i + 2], "");
        if (!keyword(w, i + 3, "continue")) return;
        if (i + 4 >= w.size()) return fail(end_column(w), "expected the continue target");
        reference(b.continue_target, w[i + 4], ";");
        i += 5;
      } else {
        reference(b.merge, w[i + 2], ";");
        i += 3;
      }
    }
    if (i >= w.size()) return fail(end_column(w), "expected a terminator: br, br_cond, switch, return or unreachable");
    const std::string& op = w[i].text;
    auto targets = [&](std::size_t count) {
      if (w.size() != i + 1 + count)
        return fail(w.size() < i + 1 + count ? end_column(w) : w[i + 1 + count].column,
                    fmt::format("'{}' takes {} target{}", op, count, count == 1 ? "" : "s"));
      b.targets.resize(count);
      for (std::size_t k = 0; k < count; ++k) reference(b.targets[k], w[i + 1 + k], "");
    };
    if (op == "br") {
      b.terminator = Terminator::Branch;
      targets(1);
    } else if (op == "br_cond") {
      b.terminator = Terminator::Conditional;
      targets(2);
    } else if (op == "return" || op == "unreachable") {
      b.terminator = op == "return" ? Terminator::Return : Terminator::Unreachable;
      if (w.size() != i + 1) fail(w[i + 1].column, fmt::format("'{}' takes no operand", op));
    } else if (op == "switch") {
      b.terminator = Terminator::Switch;
      if (!keyword(w, i + 1, "default")) return;
      if (i + 2 >= w.size()) return fail(end_column(w), "expected the default target");
      const std::size_t cases = w.size() - (i + 3);
      b.targets.resize(1 + cases);
      // "%D" or "%D=SELECTOR".
      Word target = w[i + 2];
      std::optional<std::uint64_t> selector;
      if (const auto eq = target.text.find('='); eq != std::string::npos) {
        selector = number(target.text.substr(eq + 1));
        if (!selector || *selector > 0xffffffffu)
          return fail(target.column + static_cast<std::uint32_t>(eq) + 1, "expected the default's selector value after '='");
        target.text.resize(eq);
      }
      reference(b.targets[0], target, "");
      std::set<std::uint32_t> used;
      for (std::size_t k = 0; k < cases && error_.empty(); ++k) {
        const Word& c = w[i + 3 + k];
        const auto colon = c.text.find(':');
        const auto literal = colon == std::string::npos ? std::nullopt : number(c.text.substr(0, colon));
        if (!literal || *literal > 0xffffffffu) return fail(c.column, fmt::format("expected a case 'LITERAL:%N', found '{}'", c.text));
        if (!used.insert(static_cast<std::uint32_t>(*literal)).second)
          return fail(c.column, fmt::format("case literal {} appears twice", *literal));
        b.case_literals.push_back(static_cast<std::uint32_t>(*literal));
        reference(b.targets[1 + k], Word{c.text.substr(colon + 1), c.column + static_cast<std::uint32_t>(colon) + 1}, "");
      }
      while (used.count(b.default_selector)) ++b.default_selector;
      if (selector) {
        if (used.count(static_cast<std::uint32_t>(*selector)))
          return fail(w[i + 2].column, fmt::format("the default's selector {} is a case literal", *selector));
        b.default_selector = static_cast<std::uint32_t>(*selector);
      }
    } else {
      fail(w[i].column, fmt::format("unknown terminator '{}' (br, br_cond, switch, return, unreachable)", op));
    }
  }

  void finish() {
    line_ = first_block_line_ ? first_block_line_ : 1;
    if (d_.cfg.blocks.empty()) return fail(1, "no blocks: expected lines '%N: ... terminator'");
    const auto size = d_.cfg.size();
    for (std::uint32_t n = 1; n <= size; ++n)
      if (!blocks_seen_.count(n)) return fail(1, fmt::format("block %{} is missing: blocks are numbered 1 to {}", n, size));
    for (const Ref& r : refs_)
      if (r.number > size) {
        line_ = r.line;
        return fail(r.column, fmt::format("block %{} does not exist (the last block is %{})", r.number, size));
      }
  }

  std::string_view text_;
  std::string file_;
  std::uint32_t line_ = 0;
  std::string error_;
  std::uint32_t error_line_ = 0, error_column_ = 0;
  TestDescription d_;
  std::set<std::uint32_t> blocks_seen_;
  std::vector<Ref> refs_;
  std::uint32_t first_block_line_ = 0;
};

}  // namespace

Result<TestDescription> parse_test_description(std::string_view text, const std::string& file) {
  return Parser(text, file).run();
}

}  // namespace sluice::flesh
