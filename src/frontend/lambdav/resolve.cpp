// Scope resolution (see resolve.h). One recursive walk over the tree; its
// depth is the parenthesis nesting, bounded by the parser. Names in scope
// are kept per symbol as a stack of bindings, so a lookup is O(1) and
// leaving a scope pops exactly the names it bound.
#include "frontend/lambdav/resolve.h"

#include <algorithm>
#include <array>
#include <optional>

#include <fmt/format.h>

namespace sluice::lambdav {
namespace {

// Names with a fixed meaning: the special forms and `rec`. They cannot be
// rebound, so a reader always knows what `(if ...)` means.
constexpr std::array<std::string_view, 7> kReserved = {"let", "if", "func", "rec-func", "define", "output", "rec"};

class Resolver {
 public:
  Resolver(const Ast& ast, DiagnosticSink& sink) : ast_(ast), sink_(sink) {
    res_.info.resize(ast.nodes.size());
    scopes_by_symbol_.resize(ast.symbol_names.size());
    builtin_cache_.assign(ast.symbol_names.size(), kUnknown);
    reserved_.assign(ast.symbol_names.size(), false);
    group_stamp_.assign(ast.symbol_names.size(), 0);
    for (SymbolId s = 0; s < ast.symbol_names.size(); ++s) {
      reserved_[s] = std::find(kReserved.begin(), kReserved.end(), ast.name(s)) != kReserved.end();
      if (ast.name(s) == "rec") rec_symbol_ = s;
    }
  }

  Resolution run() {
    program();
    return std::move(res_);
  }

 private:
  static constexpr std::int32_t kUnknown = -2;
  static constexpr std::int32_t kNone = -1;

  struct ActiveFunc {
    std::uint32_t index;  // into res_.funcs
    std::uint32_t level;
  };

  const Node& node(NodeId id) const { return ast_.node(id); }
  void error(NodeId at, std::string message) { sink_.error(node(at).line, node(at).column, std::move(message)); }
  std::string_view name_of(NodeId id) const { return ast_.name(node(id).symbol); }

  // The form a list's head names, if it is a special form that is not
  // shadowed (reserved names never are).
  std::string_view head_keyword(NodeId list) const {
    const Node& n = node(list);
    if (n.count == 0) return {};
    const Node& head = node(ast_.items(list)[0]);
    if (head.kind != NodeKind::Identifier || !reserved_[head.symbol]) return {};
    return ast_.name(head.symbol);
  }

  std::int32_t builtin_of(SymbolId s) {
    if (builtin_cache_[s] == kUnknown) {
      auto b = find_builtin(ast_.name(s));
      builtin_cache_[s] = b ? static_cast<std::int32_t>(*b) : kNone;
    }
    return builtin_cache_[s];
  }

  // --- Binding names ---

  // Checks that `id` is an identifier that may be bound here.
  bool bindable(NodeId id, std::string_view what) {
    const Node& n = node(id);
    if (n.kind != NodeKind::Identifier) {
      error(id, fmt::format("{} must be an identifier", what));
      return false;
    }
    if (reserved_[n.symbol]) {
      error(id, fmt::format("'{}' is reserved and cannot be bound", ast_.name(n.symbol)));
      return false;
    }
    return true;
  }

  void push_binding(SymbolId s, std::uint32_t slot) {
    scopes_by_symbol_[s].push_back(BindingRef{level_, slot});
    scope_symbols_.push_back(s);
  }

  // Whether `s` is new in the group of names (one let's or one parameter
  // list's) stamped `stamp`; marks it as seen. Linear in the group's size.
  bool first_in_group(SymbolId s, std::uint32_t stamp) {
    if (group_stamp_[s] == stamp) return false;
    group_stamp_[s] = stamp;
    return true;
  }

  // Opens a scope; close_scope(mark) pops every name bound since.
  std::size_t open_scope() {
    ++level_;
    return scope_symbols_.size();
  }
  void close_scope(std::size_t mark) {
    while (scope_symbols_.size() > mark) {
      scopes_by_symbol_[scope_symbols_.back()].pop_back();
      scope_symbols_.pop_back();
    }
    --level_;
  }

  // Records that the function bodies being resolved use binding `b`.
  void note_use(SymbolId s, BindingRef b) {
    if (s == rec_symbol_) {
      for (auto it = funcs_.rbegin(); it != funcs_.rend(); ++it)
        if (it->level == b.level) rec_used_[it->index] = true;
    }
    for (auto it = funcs_.rbegin(); it != funcs_.rend() && it->level > b.level; ++it) {
      FuncInfo& f = res_.funcs[it->index];
      if (f.free_overflow) break;
      if (std::find(f.free.begin(), f.free.end(), b) != f.free.end()) break;
      if (f.free.size() == kMaxFreeBindings) {
        for (auto outer = it; outer != funcs_.rend(); ++outer) res_.funcs[outer->index].free_overflow = true;
        break;
      }
      f.free.push_back(b);
    }
  }

  // --- Expressions ---

  void identifier(NodeId id) {
    const SymbolId s = node(id).symbol;
    NodeInfo& info = res_.info[id];
    if (!scopes_by_symbol_[s].empty()) {
      const BindingRef b = scopes_by_symbol_[s].back();
      info.ref = RefKind::Local;
      info.a = b.level;
      info.b = b.slot;
      note_use(s, b);
      return;
    }
    const std::string_view name = ast_.name(s);
    if (name == "rec") {
      error(id, "rec used outside a rec-func: rec calls the innermost enclosing rec-func again");
      return;
    }
    if (reserved_[s]) {
      error(id, fmt::format("'{}' is a special form, not a value; it can only head a list: ({} ...)", name, name));
      return;
    }
    if (const std::int32_t b = builtin_of(s); b != kNone) {
      info.ref = RefKind::Builtin;
      info.a = static_cast<std::uint32_t>(b);
      return;
    }
    if (auto sw = parse_swizzle(name)) {
      info.ref = RefKind::Swizzle;
      info.a = sw->pack();
      return;
    }
    error(id, fmt::format("unbound identifier '{}'", name));
  }

  void expr(NodeId id) {
    const Node& n = node(id);
    if (n.kind == NodeKind::Identifier) return identifier(id);
    if (n.kind != NodeKind::List) return;
    if (n.count == 0) {
      error(id, "empty list: '()' is not an expression");
      return;
    }
    const std::string_view kw = head_keyword(id);
    if (kw == "let") return let(id);
    if (kw == "if") return if_form(id);
    if (kw == "func" || kw == "rec-func") return func(id, kw == "rec-func");
    if (kw == "define" || kw == "output") {
      error(id, fmt::format("'{}' is only allowed at the top level of a program", kw));
      return;
    }
    const auto items = ast_.items(id);
    res_.info[id].form = Form::Apply;
    const Node& head = node(items[0]);
    if (head.kind == NodeKind::Identifier && scopes_by_symbol_[head.symbol].empty()) {
      const std::int32_t b = builtin_of(head.symbol);
      if (b != kNone && (builtin(static_cast<BuiltinId>(b)).kind == BuiltinKind::And ||
                         builtin(static_cast<BuiltinId>(b)).kind == BuiltinKind::Or))
        res_.info[id].form = builtin(static_cast<BuiltinId>(b)).kind == BuiltinKind::And ? Form::And : Form::Or;
    }
    for (NodeId item : items) expr(item);
  }

  void let(NodeId id) {
    res_.info[id].form = Form::Let;
    const auto items = ast_.items(id);
    if (items.size() != 3 || node(items[1]).kind != NodeKind::List) {
      error(id, "let needs a list of bindings and a body: (let ((name expr) ...) body)");
      return;
    }
    const auto bindings = ast_.items(items[1]);
    bool ok = true;
    for (NodeId b : bindings) {
      if (node(b).kind != NodeKind::List || node(b).count != 2) {
        error(b, "a let binding is a list of a name and an expression: (name expr)");
        ok = false;
        continue;
      }
      expr(ast_.items(b)[1]);  // parallel bindings: values see the outer scope
    }
    if (!ok) return;
    const std::size_t mark = open_scope();
    const std::uint32_t stamp = ++stamp_;
    for (std::uint32_t i = 0; i < bindings.size(); ++i) {
      const NodeId name = ast_.items(bindings[i])[0];
      if (!bindable(name, "a let binding's name")) continue;
      if (!first_in_group(node(name).symbol, stamp))
        error(name, fmt::format("'{}' is bound twice in one let", name_of(name)));
      push_binding(node(name).symbol, i);
    }
    expr(items[2]);
    close_scope(mark);
  }

  void if_form(NodeId id) {
    res_.info[id].form = Form::If;
    const auto items = ast_.items(id);
    if (items.size() != 4) {
      error(id, fmt::format("if needs a condition and two branches: (if cond then else); {} given", items.size() - 1));
      return;
    }
    for (std::size_t i = 1; i < 4; ++i) expr(items[i]);
  }

  void func(NodeId id, bool is_rec) {
    const char* word = is_rec ? "rec-func" : "func";
    res_.info[id].form = is_rec ? Form::RecFunc : Form::Func;
    const auto items = ast_.items(id);
    if (items.size() != 3 || node(items[1]).kind != NodeKind::List) {
      error(id, fmt::format("{} needs a parameter list and a body: ({} (params ...) body)", word, word));
      return;
    }
    const auto params = ast_.items(items[1]);
    if (is_rec && params.empty()) {
      error(items[1], "a rec-func needs at least one parameter (the values carried around the loop)");
      return;
    }
    FuncInfo f;
    f.node = id;
    f.is_rec = is_rec;
    f.param_count = static_cast<std::uint32_t>(params.size());
    const auto index = static_cast<std::uint32_t>(res_.funcs.size());
    res_.funcs.push_back(std::move(f));
    rec_used_.push_back(false);
    res_.info[id].a = index;

    const std::size_t mark = open_scope();
    res_.funcs[index].level = level_;
    const std::uint32_t stamp = ++stamp_;
    for (std::uint32_t i = 0; i < params.size(); ++i) {
      if (!bindable(params[i], "a parameter")) continue;
      if (!first_in_group(node(params[i]).symbol, stamp))
        error(params[i], fmt::format("parameter '{}' appears twice", name_of(params[i])));
      push_binding(node(params[i]).symbol, i);
    }
    if (is_rec) {
      if (rec_symbol_) push_binding(*rec_symbol_, f.param_count);
    }
    funcs_.push_back({index, level_});
    expr(items[2]);
    funcs_.pop_back();
    close_scope(mark);
    if (is_rec && !rec_used_[index])
      error(id, "rec-func without rec: its body must call rec (a rec-func is a loop; use func for a plain function)");
    res_.funcs[index].returns_function_literal = returns_function_literal(items[2]);
  }

  // Whether an expression's value is syntactically a function literal,
  // following let bodies and if branches (an explicit stack: no recursion).
  bool returns_function_literal(NodeId body) const {
    std::vector<NodeId> pending{body};
    while (!pending.empty()) {
      const NodeId e = pending.back();
      pending.pop_back();
      if (node(e).kind != NodeKind::List) continue;
      const Form f = res_.info[e].form;
      const auto items = ast_.items(e);
      if (f == Form::Func || f == Form::RecFunc) return true;
      if (f == Form::Let && items.size() == 3) pending.push_back(items[2]);
      if (f == Form::If && items.size() == 4) {
        pending.push_back(items[2]);
        pending.push_back(items[3]);
      }
    }
    return false;
  }

  // --- The program ---

  void program() {
    bool have_bare = false;
    std::vector<NodeId> outputs(kMaxOutputLocation + 1, kNoNode);
    auto claim_location = [&](std::uint32_t location, NodeId at) {
      if (outputs[location] != kNoNode) {
        error(at, fmt::format("output {} is written twice (first at {}:{})", location, node(outputs[location]).line,
                              node(outputs[location]).column));
        return false;
      }
      outputs[location] = at;
      return true;
    };
    for (NodeId form : ast_.top_level) {
      const std::string_view kw = node(form).kind == NodeKind::List ? head_keyword(form) : std::string_view{};
      if (kw == "define") {
        define(form);
      } else if (kw == "output") {
        output(form, claim_location);
      } else {
        if (have_bare) {
          error(form, "a program has at most one bare expression (it means (output 0 expr)); use (output N expr) "
                      "for more outputs");
          continue;
        }
        have_bare = true;
        expr(form);
        if (claim_location(0, form)) res_.program.push_back(TopForm{TopKind::Output, form, form, 0, 0});
      }
    }
    if (res_.program.empty() || std::none_of(res_.program.begin(), res_.program.end(),
                                             [](const TopForm& t) { return t.kind == TopKind::Output; })) {
      sink_.error(1, 1, "the program has no output: end it with an expression, or add (output 0 expr)");
    }
  }

  void define(NodeId form) {
    res_.info[form].form = Form::Define;
    const auto items = ast_.items(form);
    if (items.size() != 3) {
      error(form, "define needs a name and an expression: (define name expr)");
      return;
    }
    expr(items[2]);  // the name is visible only to the forms after this one
    if (!bindable(items[1], "the name of a define")) return;
    const SymbolId s = node(items[1]).symbol;
    if (!scopes_by_symbol_[s].empty()) {
      error(items[1], fmt::format("'{}' is already defined", ast_.name(s)));
      return;
    }
    const std::uint32_t slot = res_.global_slots++;
    scopes_by_symbol_[s].push_back(BindingRef{0, slot});
    res_.global_names.push_back(s);
    res_.program.push_back(TopForm{TopKind::Define, form, items[2], slot, 0});
  }

  template <class Claim>
  void output(NodeId form, Claim& claim_location) {
    res_.info[form].form = Form::Output;
    const auto items = ast_.items(form);
    if (items.size() != 3) {
      error(form, "output needs a location and an expression: (output N expr)");
      return;
    }
    const Node& loc = node(items[1]);
    const bool integral = loc.kind == NodeKind::Number && loc.number >= 0 &&
                          loc.number <= static_cast<float>(kMaxOutputLocation) &&
                          loc.number == static_cast<float>(static_cast<std::uint32_t>(loc.number));
    expr(items[2]);
    if (!integral) {
      error(items[1], fmt::format("an output location is a whole number from 0 to {}", kMaxOutputLocation));
      return;
    }
    const auto location = static_cast<std::uint32_t>(loc.number);
    if (claim_location(location, form))
      res_.program.push_back(TopForm{TopKind::Output, form, items[2], 0, location});
  }

  const Ast& ast_;
  DiagnosticSink& sink_;
  Resolution res_;
  std::uint32_t level_ = 0;
  std::vector<std::vector<BindingRef>> scopes_by_symbol_;
  std::vector<SymbolId> scope_symbols_;
  std::vector<std::int32_t> builtin_cache_;
  std::vector<bool> reserved_;
  std::vector<ActiveFunc> funcs_;
  std::vector<bool> rec_used_;  // per FuncInfo
  std::vector<std::uint32_t> group_stamp_;  // per symbol: the last name group it was seen in
  std::uint32_t stamp_ = 0;
  std::optional<SymbolId> rec_symbol_;
};

}  // namespace

Resolution resolve(const Ast& ast, DiagnosticSink& sink) { return Resolver(ast, sink).run(); }

}  // namespace sluice::lambdav
