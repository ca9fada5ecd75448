// The λV parser: one pass over the tokens with an explicit stack of open
// lists. A list's children are collected on a pending stack and copied into
// Ast::children as one contiguous range when its ')' arrives.
#include "frontend/lambdav/ast.h"

#include <unordered_map>

#include <fmt/format.h>

#include "frontend/lambdav/lexer.h"

namespace sluice::lambdav {

Ast parse(std::string_view source, DiagnosticSink& sink, const ParseOptions& options) {
  Ast ast;
  ast.nodes.reserve(source.size() / 4 + 16);
  ast.children.reserve(source.size() / 4 + 16);
  std::unordered_map<std::string_view, SymbolId> symbols;

  struct Open {
    NodeId node;
    std::size_t pending_start;
  };
  std::vector<Open> open;
  std::vector<NodeId> pending;

  auto add = [&](const Token& t, NodeKind kind) {
    Node n;
    n.kind = kind;
    n.line = t.line;
    n.column = t.column;
    ast.nodes.push_back(n);
    return static_cast<NodeId>(ast.nodes.size() - 1);
  };
  auto place = [&](NodeId id) {
    if (open.empty())
      ast.top_level.push_back(id);
    else
      pending.push_back(id);
  };

  Lexer lexer(source, sink);
  for (;;) {
    const Token t = lexer.next();
    switch (t.kind) {
      case TokenKind::End:
        if (!open.empty()) {
          const Node& n = ast.nodes[open.back().node];
          sink.error(n.line, n.column, "unbalanced parentheses: this '(' is never closed (missing ')')");
        }
        return ast;
      case TokenKind::LParen:
        if (open.size() >= options.max_nesting) {
          sink.error(t.line, t.column,
                     fmt::format("nesting deeper than {} levels of parentheses (the limit; see docs/lambdav.md)",
                                 options.max_nesting));
          return ast;
        }
        open.push_back({add(t, NodeKind::List), pending.size()});
        break;
      case TokenKind::RParen: {
        if (open.empty()) {
          sink.error(t.line, t.column, "unbalanced parentheses: ')' without a matching '('");
          return ast;
        }
        const Open o = open.back();
        open.pop_back();
        Node& n = ast.nodes[o.node];
        n.first = static_cast<std::uint32_t>(ast.children.size());
        n.count = static_cast<std::uint32_t>(pending.size() - o.pending_start);
        ast.children.insert(ast.children.end(), pending.begin() + static_cast<std::ptrdiff_t>(o.pending_start),
                            pending.end());
        pending.resize(o.pending_start);
        place(o.node);
        break;
      }
      case TokenKind::Number: {
        const NodeId id = add(t, NodeKind::Number);
        ast.nodes[id].number = t.number;
        place(id);
        break;
      }
      case TokenKind::True:
      case TokenKind::False: {
        const NodeId id = add(t, NodeKind::Bool);
        ast.nodes[id].boolean = t.kind == TokenKind::True;
        place(id);
        break;
      }
      case TokenKind::Identifier: {
        const NodeId id = add(t, NodeKind::Identifier);
        auto [it, inserted] = symbols.try_emplace(t.text, static_cast<SymbolId>(ast.symbol_names.size()));
        if (inserted) ast.symbol_names.emplace_back(t.text);
        ast.nodes[id].symbol = it->second;
        place(id);
        break;
      }
    }
  }
}

}  // namespace sluice::lambdav
