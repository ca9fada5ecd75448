// The estimate of macro_expansion.h.
//
// Model. An expansion has two sizes: what it makes (`out`, the tokens the
// parser then reads) and the work of making it (`work`, the tokens the
// preprocessor reads: the macro's name, its arguments, the copies it
// rescans). For an object-like macro both are numbers. For a function-like
// macro F each is linear in the sizes of a call's arguments:
// c + Σ k_i·X_i, where X_i is what argument i makes and k_i counts the
// copies of parameter i in the body (through the calls the body makes).
// glslang, as C99 §6.10.3.1 says, expands each argument once, substitutes
// the result for every copy of the parameter and rescans it, so a call
// F(A_1, …, A_n) makes c_out + Σ k_out,i·out(A_i) and costs
// c_work + Σ (work(A_i) + k_work,i·out(A_i)).
//
// A token range (a body, or the shader's text) is sized left to right with
// a stack of the calls still open (one size per argument), so nested calls
// need no native recursion:
//   - parameter i of the macro being sized adds X_i (sparse: only the
//     parameters that occur have a coefficient);
//   - an object-like macro's name adds its sizes; a function-like macro's
//     name followed by `(` opens a call, which the matching `)` closes;
//   - `##` adds the sizes of the largest macro sized so far (the pasted token
//     is rescanned and may name any macro); every other token adds 1.
// A call left open at the end of a body reads the caller's tokens; it is
// sized as its own tokens (a call that reads past a body without end is
// macro_recursion.h's business).
//
// Order. The graph "the body of A names B" (macro_graph.h) is split into
// strongly connected components, sized successors first, so a macro on no
// cycle is sized once from its bodies (the largest, if it has several). In
// a cycle S, a macro is not expanded again while its own expansion is being
// read (C99 §6.10.3.4; glslang's busy flag), so an expansion nests at most
// |S| levels of S's macros: the members share one size, with one
// coefficient k for every parameter, starting from a busy name's 1 token
// (and, for a call, its arguments once: k = 1, since a busy call stays in
// the text as it is) and recomputed from the bodies |S| times (or until it
// stops changing).
//
// Bounds on the estimate's own work: the rounds of all cycles together read
// at most kRoundBudget body tokens and the sizing does at most kStepBudget
// coefficient operations; past either, the sizes saturate (the shader is
// refused as too large). All sizes saturate at kCap.
#include "frontend/glsl/macro_expansion.h"

#include <algorithm>
#include <unordered_map>
#include <utility>
#include <vector>

#include "frontend/glsl/macro_graph.h"
#include "frontend/glsl/source_tokens.h"

namespace sluice::glsl_in::detail {
namespace {
namespace expansion {

constexpr std::uint64_t kCap = std::uint64_t{1} << 60;
constexpr std::uint64_t kRoundBudget = std::uint64_t{1} << 22;  // a 1 MB shader has fewer than 2^20 tokens
constexpr std::uint64_t kStepBudget = std::uint64_t{1} << 26;

std::uint64_t add(std::uint64_t a, std::uint64_t b) { return std::min(kCap, a + b); }  // a, b <= kCap: no overflow
std::uint64_t mul(std::uint64_t a, std::uint64_t b) { return a != 0 && b > kCap / a ? kCap : std::min(kCap, a * b); }

// c + Σ k_i·X_i, the k_i sparse and sorted by parameter.
struct Linear {
  std::uint64_t c = 0;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> k;
  bool operator==(const Linear&) const = default;
};

struct Size {
  Linear out, work;
  bool operator==(const Size&) const = default;
};

Size tokens(std::uint64_t n) { return {{n, {}}, {n, {}}}; }

// Counts the coefficient operations (kStepBudget).
class Arithmetic {
 public:
  bool exhausted() const { return steps_ > kStepBudget; }

  // a += factor · b
  void add_scaled(Linear& a, const Linear& b, std::uint64_t factor) {
    a.c = add(a.c, mul(b.c, factor));
    if (b.k.empty() || factor == 0) return;
    steps_ += a.k.size() + b.k.size();
    std::vector<std::pair<std::uint32_t, std::uint64_t>> merged;
    merged.reserve(a.k.size() + b.k.size());
    auto x = a.k.cbegin();
    auto y = b.k.cbegin();
    while (x != a.k.cend() || y != b.k.cend()) {
      if (y == b.k.cend() || (x != a.k.cend() && x->first < y->first)) merged.push_back(*x++);
      else if (x == a.k.cend() || y->first < x->first) merged.emplace_back(y->first, mul(y->second, factor)), ++y;
      else merged.emplace_back(x->first, add(x->second, mul(y->second, factor))), ++x, ++y;
    }
    a.k = std::move(merged);
  }
  void add_size(Size& a, const Size& b) {
    add_scaled(a.out, b.out, 1);
    add_scaled(a.work, b.work, 1);
  }

 private:
  std::uint64_t steps_ = 0;
};

// The size of a call of a function-like macro: per parameter, or one
// coefficient for all (the members of a cycle).
struct CallSize {
  std::uint64_t out_c = 1, work_c = 1;
  std::vector<std::uint64_t> out_k, work_k;  // per parameter
  std::uint64_t all_out_k = 0, all_work_k = 0;  // for every parameter, added to the above
  std::uint64_t out_k_of(std::size_t i) const { return add(i < out_k.size() ? out_k[i] : 0, all_out_k); }
  std::uint64_t work_k_of(std::size_t i) const { return add(i < work_k.size() ? work_k[i] : 0, all_work_k); }
};

// Per node of the graph: the size of a use as an object-like name, and of a
// call.
struct NodeSize {
  std::uint64_t object_out = 1, object_work = 1;  // a function-like macro's name without `(` is itself
  CallSize call;
  bool function_like = false;
};

using Params = std::unordered_map<std::string_view, std::uint32_t>;

class Sizer {
 public:
  Sizer(const std::vector<SourceToken>& tokens, const MacroGraph& graph, const std::vector<NodeSize>& sizes)
      : t_(tokens), graph_(graph), sizes_(sizes) {}

  static constexpr bool kSkipDirectives = true;
  bool exhausted() const { return math_.exhausted(); }

  // The size of tokens [begin, end), leaving out preprocessor lines if
  // `skip_directives`; `params` are the parameters of the macro whose body
  // it is, `paste` what a `##` may make. `on_use(token, size)` is called for
  // each complete use of a macro (and each other token) at the range's top
  // level.
  template <typename OnUse>
  Size size_of(std::size_t begin, std::size_t end, const Params& params, const Size& paste, OnUse&& on_use,
               bool skip_directives = false) {
    struct Open {
      std::size_t name;  // token index
      std::size_t node;
      std::vector<Size> args;
      std::size_t depth = 0;  // parentheses open inside the arguments
    };
    std::vector<Open> open;
    Size top;
    const auto add_here = [&](const Size& s, std::size_t token) {
      if (open.empty()) {
        math_.add_size(top, s);
        on_use(token, s);
      } else {
        math_.add_size(open.back().args.back(), s);
      }
    };
    for (std::size_t i = begin; i < end; ++i) {
      const SourceToken& tok = t_[i];
      if (skip_directives && tok.first_on_line && tok.text == "#") {
        i = end_of_line(t_, i) - 1;
        continue;
      }
      if (!open.empty() && open.back().depth == 0 && (tok.text == "," || tok.text == ")")) {
        if (tok.text == ",") {
          open.back().args.emplace_back();
          continue;
        }
        Open call = std::move(open.back());
        open.pop_back();
        add_here(call_size(sizes_[call.node].call, call.args), call.name);
        continue;
      }
      if (!open.empty() && tok.text == "(") ++open.back().depth;
      if (!open.empty() && tok.text == ")") --open.back().depth;
      if (tok.identifier) {
        if (const auto p = params.find(tok.text); p != params.end()) {
          const Linear x{0, {{p->second, 1}}};
          add_here({x, x}, i);
          continue;
        }
        if (const auto w = graph_.node.find(tok.text); w != graph_.node.end()) {
          const NodeSize& m = sizes_[w->second];
          if (m.function_like && i + 1 < end && t_[i + 1].text == "(") {
            open.push_back({i, w->second, std::vector<Size>(1)});
            ++i;
          } else {
            add_here({{m.object_out, {}}, {m.object_work, {}}}, i);
          }
          continue;
        }
      }
      if (tok.text == "#" && i + 1 < end && t_[i + 1].text == "#") {
        add_here(paste, i);
        ++i;
        continue;
      }
      add_here(tokens(1), i);
    }
    // Calls left open: their tokens as they are.
    while (!open.empty()) {
      Open call = std::move(open.back());
      open.pop_back();
      Size s = tokens(1 + call.args.size());  // the name, `(` and the commas
      for (const Size& a : call.args) math_.add_size(s, a);
      add_here(s, call.name);
    }
    return top;
  }

 private:
  Size call_size(const CallSize& f, const std::vector<Size>& args) {
    Size s = tokens(0);
    s.out.c = f.out_c;
    s.work.c = add(f.work_c, args.size());  // `(`, the commas and `)`
    for (std::size_t i = 0; i < args.size(); ++i) {
      math_.add_scaled(s.out, args[i].out, f.out_k_of(i));
      math_.add_scaled(s.work, args[i].work, 1);
      math_.add_scaled(s.work, args[i].out, f.work_k_of(i));
    }
    return s;
  }

  const std::vector<SourceToken>& t_;
  const MacroGraph& graph_;
  const std::vector<NodeSize>& sizes_;
  Arithmetic math_;
};

Params parameters(const std::vector<SourceToken>& t, const MacroDefinition& d) {
  Params params;
  for (std::size_t k = d.params_begin; k < d.params_end; ++k)
    if (t[k].identifier) params.emplace(t[k].text, static_cast<std::uint32_t>(params.size()));
  return params;
}

// Dense coefficients of parameters 0 … n-1.
std::vector<std::uint64_t> dense(const Linear& l, std::size_t n) {
  std::vector<std::uint64_t> k(n, 0);
  for (const auto& [i, coefficient] : l.k)
    if (i < n) k[i] = coefficient;
  return k;
}

// #if and #elif expand macros in their conditions; #define bodies are sized
// as macros; the other directives' words are not expanded.
bool expands_macros(std::string_view directive) { return directive == "if" || directive == "elif"; }

}  // namespace expansion
}  // namespace

MacroExpansionEstimate estimate_macro_expansion(std::string_view source, std::uint64_t limit,
                                                std::uint64_t work_limit) {
  using namespace expansion;
  const std::vector<SourceToken> toks = tokenize_source(source);
  const std::vector<MacroDefinition> defs = macro_definitions(toks);
  MacroExpansionEstimate estimate;
  if (defs.empty()) return estimate;
  const MacroGraph graph = macro_graph(toks, defs);
  std::vector<NodeSize> sizes(graph.any + 1);
  std::vector<std::vector<std::size_t>> defs_of(graph.any);
  std::vector<Params> params(defs.size());
  for (std::size_t d = 0; d < defs.size(); ++d) {
    const std::size_t v = graph.node.at(toks[defs[d].name].text);
    defs_of[v].push_back(d);
    sizes[v].function_like = sizes[v].function_like || defs[d].function_like;
    params[d] = parameters(toks, defs[d]);
  }

  Sizer sizer(toks, graph, sizes);
  const auto ignore = [](std::size_t, const Size&) {};
  // What `##` may make: the largest macro sized so far.
  std::uint64_t paste_out = 1, paste_work = 1;
  const auto note_paste = [&](const NodeSize& n) {
    paste_out = std::max({paste_out, n.object_out, n.call.out_c});
    paste_work = std::max({paste_work, n.object_work, n.call.work_c});
  };
  // A node's sizes from its definitions' bodies, with the sizes as they are now.
  const auto size_node = [&](std::size_t v, const Size& paste) {
    NodeSize n;
    n.function_like = sizes[v].function_like;
    if (v == graph.any) {
      n.object_out = paste.out.c;
      n.object_work = paste.work.c;
      return n;
    }
    bool object_seen = false, call_seen = false;  // the first definition of each kind replaces the defaults
    for (const std::size_t d : defs_of[v]) {
      const Size body = sizer.size_of(defs[d].body_begin, defs[d].body_end, params[d], paste, ignore);
      const std::uint64_t work = add(body.work.c, 1);  // reading the name
      if (!defs[d].function_like) {
        n.object_out = object_seen ? std::max(n.object_out, body.out.c) : body.out.c;
        n.object_work = object_seen ? std::max(n.object_work, work) : work;
        object_seen = true;
        continue;
      }
      n.call.out_c = call_seen ? std::max(n.call.out_c, body.out.c) : body.out.c;
      n.call.work_c = call_seen ? std::max(n.call.work_c, work) : work;
      call_seen = true;
      const std::vector<std::uint64_t> out_k = dense(body.out, params[d].size()),
                                       work_k = dense(body.work, params[d].size());
      n.call.out_k.resize(std::max(n.call.out_k.size(), out_k.size()));
      n.call.work_k.resize(std::max(n.call.work_k.size(), work_k.size()));
      for (std::size_t i = 0; i < out_k.size(); ++i) n.call.out_k[i] = std::max(n.call.out_k[i], out_k[i]);
      for (std::size_t i = 0; i < work_k.size(); ++i) n.call.work_k[i] = std::max(n.call.work_k[i], work_k[i]);
    }
    return n;
  };
  const Components components = strongly_connected_components(graph.succ);
  std::uint64_t round_budget = kRoundBudget;  // body tokens read by the rounds of all cycles together
  for (const std::vector<std::size_t>& members : components.list) {
    const Size paste{{paste_out, {}}, {paste_work, {}}};
    if (!components.cyclic[components.of[members.front()]]) {
      const std::size_t v = members.front();
      sizes[v] = size_node(v, paste);
      note_paste(sizes[v]);
      continue;
    }
    std::uint64_t body_tokens = 0;
    for (const std::size_t v : members)
      if (v != graph.any)
        for (const std::size_t d : defs_of[v]) body_tokens += defs[d].body_end - defs[d].body_begin + 1;
    // |S| rounds, within what is left of the budget; past it the component
    // is saturated.
    const std::uint64_t rounds = members.size();
    const bool within_budget = rounds <= round_budget / std::max<std::uint64_t>(body_tokens, 1);
    if (within_budget) round_budget -= rounds * body_tokens;
    // The shared size: c and one k, for what a use makes and what it costs,
    // starting from a busy use: its name, and for a call its arguments once
    // (a busy call is not expanded but stays, arguments and all, in the
    // text: `#define D(x) e D(x) x x` makes three copies of x per level).
    std::uint64_t out = 1, work = 1, out_k = 1, work_k = 1;
    if (!within_budget) out = work = out_k = work_k = kCap;
    const auto set_shared = [&] {
      for (const std::size_t v : members) {
        NodeSize& n = sizes[v];
        n.object_out = n.call.out_c = out;
        n.object_work = n.call.work_c = work;
        n.call.out_k.clear();
        n.call.work_k.clear();
        n.call.all_out_k = out_k;
        n.call.all_work_k = work_k;
      }
    };
    for (std::uint64_t r = 0; within_budget && r < rounds; ++r) {
      set_shared();
      // `##` inside the component may make a member's name, or any name
      // sized before.
      const Size paste_here{{std::max(paste_out, out), {}}, {std::max(paste_work, work), {}}};
      std::uint64_t next_out = out, next_work = work, next_out_k = out_k, next_work_k = work_k;
      for (const std::size_t v : members) {
        const NodeSize n = size_node(v, paste_here);
        next_out = std::max({next_out, n.object_out, n.call.out_c});
        next_work = std::max({next_work, n.object_work, n.call.work_c});
        for (const std::uint64_t k : n.call.out_k) next_out_k = std::max(next_out_k, k);
        for (const std::uint64_t k : n.call.work_k) next_work_k = std::max(next_work_k, k);
      }
      if (next_out == out && next_work == work && next_out_k == out_k && next_work_k == work_k) break;
      out = next_out, work = next_work, out_k = next_out_k, work_k = next_work_k;
    }
    set_shared();
    for (const std::size_t v : members) note_paste(sizes[v]);
  }

  // The text outside #define lines, and the conditions of #if and #elif.
  std::uint64_t added = 0, work = 0;
  const auto on_use = [&](std::size_t token, const Size& s) {
    added = add(added, s.out.c - std::min<std::uint64_t>(s.out.c, 1));
    work = add(work, s.work.c);
    const bool is_macro = graph.node.count(toks[token].text) > 0;
    const bool over = added > limit || work > work_limit || (sizer.exhausted() && is_macro);
    if (!estimate.over_limit_at_macro && over && is_macro) {
      estimate.over_limit_at_macro = std::string(toks[token].text);
      estimate.line = toks[token].line;
      estimate.column = toks[token].column;
    }
  };
  const Params no_params;
  const Size paste{{paste_out, {}}, {paste_work, {}}};
  sizer.size_of(0, toks.size(), no_params, paste, on_use, Sizer::kSkipDirectives);
  for (std::size_t i = 0; i < toks.size(); i = end_of_line(toks, i))
    if (toks[i].first_on_line && toks[i].text == "#" && i + 1 < toks.size() && !toks[i + 1].first_on_line &&
        expands_macros(toks[i + 1].text))
      sizer.size_of(i + 2, end_of_line(toks, i), no_params, paste, on_use);
  estimate.added_tokens = added;
  estimate.work = work;
  return estimate;
}

}  // namespace sluice::glsl_in::detail
