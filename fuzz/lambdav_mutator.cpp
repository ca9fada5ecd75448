// A structure-aware mutator for λV (libFuzzer's LLVMFuzzerCustomMutator):
// byte-level mutations rarely keep parentheses balanced, so most inputs
// would stop at the parser. This one reads the input as s-expressions and
// edits whole subtrees — swap two, copy one over another, nest one inside a
// new form, retype one (replace it by an atom or constructor of another
// type), delete one — then prints the text back. One call in four, or when
// the text does not read as s-expressions, it leaves the work to
// libFuzzer's own byte mutations (LLVMFuzzerMutate).
//
// The tree is a token list with each '(' matched to its ')' (an explicit
// stack, no recursion on nesting depth); a subtree is a token range.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace {

struct Tokens {
  std::vector<std::string> items;
  std::vector<std::size_t> close;  // for '(' its ')'; for anything else itself
};

bool tokenize(std::string_view text, Tokens& out) {
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ';') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (c == '(' || c == ')') {
      out.items.emplace_back(1, c);
      ++i;
    } else {
      const std::size_t start = i;
      // Not strchr: it finds a NUL byte (the terminator), which would stop
      // this loop without consuming anything (found by the fuzzer: an
      // endless run of empty tokens).
      while (i < text.size() && std::string_view(" \t\r\n();").find(text[i]) == std::string_view::npos) ++i;
      out.items.emplace_back(text.substr(start, i - start));
    }
  }
  out.close.resize(out.items.size());
  std::vector<std::size_t> open;
  for (std::size_t k = 0; k < out.items.size(); ++k) {
    out.close[k] = k;
    if (out.items[k] == "(") open.push_back(k);
    else if (out.items[k] == ")") {
      if (open.empty()) return false;
      out.close[open.back()] = k;
      open.pop_back();
    }
  }
  return open.empty() && !out.items.empty();
}

// A random subtree: [first, last] over tokens, never a lone ')'.
struct Range {
  std::size_t first, last;
};

Range pick(const Tokens& t, std::mt19937& rng) {
  for (int tries = 0; tries < 16; ++tries) {
    const std::size_t k = rng() % t.items.size();
    if (t.items[k] != ")") return {k, t.close[k]};
  }
  return {0, t.close[0]};
}

std::vector<std::string> slice(const Tokens& t, Range r) {
  return {t.items.begin() + static_cast<std::ptrdiff_t>(r.first),
          t.items.begin() + static_cast<std::ptrdiff_t>(r.last + 1)};
}

// Replaces `r` by `with`.
std::vector<std::string> replaced(const Tokens& t, Range r, const std::vector<std::string>& with) {
  std::vector<std::string> out(t.items.begin(), t.items.begin() + static_cast<std::ptrdiff_t>(r.first));
  out.insert(out.end(), with.begin(), with.end());
  out.insert(out.end(), t.items.begin() + static_cast<std::ptrdiff_t>(r.last + 1), t.items.end());
  return out;
}

// Values of every λV type and kind, for retyping a subtree.
constexpr const char* kAtoms[] = {
    "0", "1", "-1", "0.5", "1e30", "-0", "true", "false", "(vec2 1 2)", "(vec3 1 2 3)", "(vec4 1 2 3 4)",
    "(bvec2 true false)", "(mat2 1)", "(mat3 2)", "(mat4 1)", "(frag-coord)", "(.x (frag-coord))", "sin", "+",
    ".xy", "(func (x) x)", "(func (f x) (f x))", "(rec-func (n) (if (< n 1) n (rec (- n 1))))", "x", "f", "rec"};

// Forms that nest a subtree; "@" is where it goes.
constexpr const char* kNests[] = {
    "(sin @)", "(+ @ @)", "(* @ 2)", "(func (x) @)", "(let ((x @)) x)", "(let ((f @)) (f 1))", "(if true @ @)",
    "(if (< (.x (frag-coord)) 1) @ @)", "((func (f) f) @)", "(@ 1)", "(@ @)", "(vec4 @ 0 0 1)", "(.xy @)",
    "((rec-func (n a) (if (< n 1) a (rec (- n 1) @))) 3 @)", "(define g @)", "(output 0 @)"};

std::vector<std::string> parse_template(std::string_view t, const std::vector<std::string>& hole) {
  Tokens tk;
  tokenize(t, tk);
  std::vector<std::string> out;
  for (const auto& s : tk.items) {
    if (s == "@") out.insert(out.end(), hole.begin(), hole.end());
    else out.push_back(s);
  }
  return out;
}

std::string print(const std::vector<std::string>& items) {
  std::string s;
  for (std::size_t k = 0; k < items.size(); ++k) {
    const bool tight = k > 0 && (items[k - 1] == "(" || items[k] == ")");
    if (k > 0 && !tight) s += ' ';
    s += items[k];
  }
  s += '\n';
  return s;
}

std::vector<std::string> mutate(const Tokens& t, std::mt19937& rng) {
  const Range a = pick(t, rng);
  switch (rng() % 5) {
    case 0: {  // swap two disjoint subtrees
      Range b = pick(t, rng);
      Range x = a, y = b;
      if (y.first < x.first) std::swap(x, y);
      if (x.last >= y.first) return t.items;  // nested or equal
      std::vector<std::string> out(t.items.begin(), t.items.begin() + static_cast<std::ptrdiff_t>(x.first));
      auto sy = slice(t, y), sx = slice(t, x);
      out.insert(out.end(), sy.begin(), sy.end());
      out.insert(out.end(), t.items.begin() + static_cast<std::ptrdiff_t>(x.last + 1),
                 t.items.begin() + static_cast<std::ptrdiff_t>(y.first));
      out.insert(out.end(), sx.begin(), sx.end());
      out.insert(out.end(), t.items.begin() + static_cast<std::ptrdiff_t>(y.last + 1), t.items.end());
      return out;
    }
    case 1: return replaced(t, pick(t, rng), slice(t, a));  // duplicate a over another
    case 2: return replaced(t, a, parse_template(kNests[rng() % std::size(kNests)], slice(t, a)));
    case 3: return replaced(t, a, parse_template(kAtoms[rng() % std::size(kAtoms)], {}));
    default: return replaced(t, a, {});
  }
}

}  // namespace

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                              unsigned int seed) {
  std::mt19937 rng(seed);
  Tokens t;
  if (rng() % 4 == 0 || !tokenize(std::string_view(reinterpret_cast<const char*>(data), size), t))
    return LLVMFuzzerMutate(data, size, max_size);
  const std::string text = print(mutate(t, rng));
  if (text.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data, text.data(), text.size());
  return text.size();
}
