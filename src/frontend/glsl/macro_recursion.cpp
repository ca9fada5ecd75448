// The test of macro_recursion.h, linear in the source's size: one pass
// that tokenises the text (comments skipped, backslash-newlines joined, as
// glslang's scanner does) and collects each `#define`'s name and body; then
// the body of each definition is searched for a `(` that it does not
// close; then the graph "macro A's body
// names macro B" is split into strongly connected components (Tarjan's
// algorithm, R. Tarjan, "Depth-first search and linear graph algorithms",
// SIAM J. Comput. 1(2), 1972; iterative here, with an explicit stack) to
// tell which macros lie on a cycle, and two breadth-first searches from
// those tell which macros are reached from a cycle or reach one.
#include "frontend/glsl/macro_recursion.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

namespace sluice::glsl_in::detail {
// A named namespace inside the anonymous one: block_names.cpp has its own
// Token and identifier helpers, and the unity build puts both files in one
// translation unit.
namespace {
namespace macro_scan {

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

struct Token {
  std::string_view text;
  std::size_t offset = 0;
  std::uint32_t line = 1, column = 1;
  bool first_on_line = false;  // a newline (not a backslash-newline) comes before it
  bool identifier = false;
};

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> tokens;
  std::size_t pos = 0, line_start = 0;
  std::uint32_t line = 1;
  bool first = true;
  auto newline_at = [&](std::size_t at) {
    ++line;
    line_start = at + 1;
  };
  while (pos < s.size()) {
    const char c = s[pos];
    if (c == '\\' && pos + 1 < s.size() && (s[pos + 1] == '\n' || (s[pos + 1] == '\r' && pos + 2 < s.size() && s[pos + 2] == '\n'))) {
      pos += s[pos + 1] == '\n' ? 1 : 2;
      newline_at(pos++);
      continue;
    }
    if (c == '\n') {
      newline_at(pos++);
      first = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++pos;
      continue;
    }
    if (c == '/' && pos + 1 < s.size() && s[pos + 1] == '/') {
      while (pos < s.size() && s[pos] != '\n') ++pos;
      continue;
    }
    if (c == '/' && pos + 1 < s.size() && s[pos + 1] == '*') {
      // A comment is one space, even across lines (the directive goes on).
      const std::size_t end = s.find("*/", pos + 2);
      const std::size_t stop = end == std::string_view::npos ? s.size() : end + 2;
      for (; pos < stop; ++pos)
        if (s[pos] == '\n') newline_at(pos);
      continue;
    }
    Token t;
    t.offset = pos;
    t.line = line;
    t.column = static_cast<std::uint32_t>(pos - line_start + 1);
    t.first_on_line = first;
    first = false;
    if (is_identifier_start(c)) {
      while (pos < s.size() && is_identifier_char(s[pos])) ++pos;
      t.identifier = true;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (pos < s.size() && (is_identifier_char(s[pos]) || s[pos] == '.')) ++pos;
    } else {
      ++pos;
    }
    t.text = s.substr(t.offset, pos - t.offset);
    tokens.push_back(t);
  }
  return tokens;
}

struct Definition {
  const Token* name = nullptr;
  bool function_like = false;
  std::size_t body_begin = 0, body_end = 0;  // token indices
};

// Every `#define NAME[(params)] body`, in order.
std::vector<Definition> definitions(const std::vector<Token>& t) {
  std::vector<Definition> defs;
  std::size_t i = 0;
  const auto same_line = [&](std::size_t k) { return k < t.size() && !t[k].first_on_line; };
  while (i < t.size()) {
    if (!(t[i].first_on_line && t[i].text == "#" && same_line(i + 1) && t[i + 1].text == "define" && same_line(i + 2) &&
          t[i + 2].identifier)) {
      ++i;
      continue;
    }
    Definition d;
    d.name = &t[i + 2];
    i += 3;
    // Function-like only with `(` right after the name (GLSL 4.60 §3.3, as C).
    if (same_line(i) && t[i].text == "(" && t[i].offset == d.name->offset + d.name->text.size()) {
      d.function_like = true;
      while (same_line(i) && t[i].text != ")") ++i;
      if (same_line(i)) ++i;
    }
    d.body_begin = i;
    while (same_line(i)) ++i;
    d.body_end = i;
    defs.push_back(d);
  }
  return defs;
}

// Whether the body leaves a `(` open.
bool leaves_parenthesis_open(const std::vector<Token>& t, const Definition& d) {
  std::size_t open = 0;
  for (std::size_t k = d.body_begin; k < d.body_end; ++k) {
    if (t[k].text == "(") ++open;
    else if (t[k].text == ")" && open > 0) --open;
  }
  return open > 0;
}

// Which nodes of the graph lie on a cycle (a strongly connected component
// of more than one node, or a node with an edge to itself).
std::vector<bool> on_cycle(const std::vector<std::vector<std::size_t>>& succ) {
  const std::size_t n = succ.size();
  constexpr std::size_t kUnvisited = static_cast<std::size_t>(-1);
  std::vector<std::size_t> index(n, kUnvisited), low(n, 0);
  std::vector<bool> on_stack(n, false), cyclic(n, false);
  std::vector<std::size_t> stack;
  std::vector<std::pair<std::size_t, std::size_t>> calls;  // node, next successor to visit
  std::size_t counter = 0;
  const auto visit = [&](std::size_t v) {
    index[v] = low[v] = counter++;
    stack.push_back(v);
    on_stack[v] = true;
    calls.emplace_back(v, 0);
  };
  for (std::size_t root = 0; root < n; ++root) {
    if (index[root] != kUnvisited) continue;
    visit(root);
    while (!calls.empty()) {
      const std::size_t v = calls.back().first;
      if (calls.back().second < succ[v].size()) {
        const std::size_t w = succ[v][calls.back().second++];
        if (w == v) cyclic[v] = true;
        if (index[w] == kUnvisited) visit(w);
        else if (on_stack[w]) low[v] = std::min(low[v], index[w]);
        continue;
      }
      calls.pop_back();
      if (!calls.empty()) low[calls.back().first] = std::min(low[calls.back().first], low[v]);
      if (low[v] != index[v]) continue;
      // v roots a component: the nodes above it on the stack.
      const bool several = stack.back() != v;
      for (std::size_t w = kUnvisited; w != v;) {
        w = stack.back();
        stack.pop_back();
        on_stack[w] = false;
        if (several) cyclic[w] = true;
      }
    }
  }
  return cyclic;
}

// For each node, a node on a cycle that reaches it or that it reaches
// (itself when it is on one), or kNone: breadth-first from the cycles,
// forward along `succ`, then backward.
constexpr std::size_t kNone = static_cast<std::size_t>(-1);

std::vector<std::size_t> cycle_near(const std::vector<std::vector<std::size_t>>& succ, const std::vector<bool>& cyclic) {
  const std::size_t n = succ.size();
  std::vector<std::vector<std::size_t>> pred(n);
  for (std::size_t v = 0; v < n; ++v)
    for (std::size_t w : succ[v]) pred[w].push_back(v);
  std::vector<std::size_t> near(n, kNone);
  const std::vector<std::vector<std::size_t>>* graphs[] = {&succ, &pred};
  for (const auto* edges : graphs) {
    std::vector<std::size_t> forward(n, kNone), queue;
    for (std::size_t v = 0; v < n; ++v)
      if (cyclic[v]) {
        forward[v] = v;
        queue.push_back(v);
      }
    for (std::size_t head = 0; head < queue.size(); ++head)
      for (std::size_t w : (*edges)[queue[head]])
        if (forward[w] == kNone) {
          forward[w] = forward[queue[head]];
          queue.push_back(w);
        }
    for (std::size_t v = 0; v < n; ++v)
      if (near[v] == kNone) near[v] = forward[v];
  }
  return near;
}

}  // namespace macro_scan
}  // namespace

std::optional<RunawayMacro> find_runaway_macro(std::string_view source) {
  const std::vector<macro_scan::Token> tokens = macro_scan::tokenize(source);
  const std::vector<macro_scan::Definition> defs = macro_scan::definitions(tokens);
  if (defs.empty()) return std::nullopt;
  // Node per macro name; a name is function-like if any definition is.
  std::map<std::string_view, std::size_t> node;
  std::vector<std::string_view> names;
  for (const macro_scan::Definition& d : defs)
    if (node.emplace(d.name->text, names.size()).second) names.push_back(d.name->text);
  // A body that pastes tokens (`##`) can make any macro's name: it has an
  // edge to a node that has an edge to every macro.
  const std::size_t any = names.size();
  std::vector<std::vector<std::size_t>> succ(any + 1);
  for (std::size_t v = 0; v < any; ++v) succ[any].push_back(v);
  for (const macro_scan::Definition& d : defs) {
    auto& out = succ[node.at(d.name->text)];
    for (std::size_t k = d.body_begin; k < d.body_end; ++k) {
      if (const auto w = node.find(tokens[k].text); tokens[k].identifier && w != node.end()) out.push_back(w->second);
      if (tokens[k].text == "#" && k + 1 < d.body_end && tokens[k + 1].text == "#") out.push_back(any);
    }
  }
  for (auto& out : succ) {
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
  const std::vector<std::size_t> near = macro_scan::cycle_near(succ, macro_scan::on_cycle(succ));
  // A macro on a cycle first (the one that recurses), then one near a cycle.
  for (const bool on_it : {true, false})
    for (const macro_scan::Definition& d : defs) {
      const std::size_t v = node.at(d.name->text), cycle = near[v];
      if (cycle != macro_scan::kNone && (cycle == v) == on_it && macro_scan::leaves_parenthesis_open(tokens, d))
        return RunawayMacro{std::string(d.name->text), cycle == any ? std::string() : std::string(names[cycle]),
                            d.name->line, d.name->column};
    }
  return std::nullopt;
}

}  // namespace sluice::glsl_in::detail
