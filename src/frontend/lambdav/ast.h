// The λV syntax tree. λV's syntax is s-expressions: a node is a number, a
// boolean, an identifier or a list of nodes. Nodes live in one flat table and
// a list's children are a contiguous range of a second table, so a tree of
// any depth is freed without recursion and walked by index.
//
// parse() is iterative (its stack is a vector) and rejects nesting deeper
// than ParseOptions::max_nesting: every later pass may recurse on the tree's
// depth because that depth is bounded here.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/lambdav/diagnostics.h"

namespace sluice::lambdav {

using NodeId = std::uint32_t;
using SymbolId = std::uint32_t;
inline constexpr NodeId kNoNode = std::numeric_limits<NodeId>::max();

// The deepest parenthesis nesting a program may have (docs/lambdav.md,
// "Limits"). The passes after the parser recurse on nesting, so this bounds
// their native stack use.
inline constexpr std::uint32_t kDefaultMaxNesting = 256;

enum class NodeKind : std::uint8_t { Number, Bool, Identifier, List };

struct Node {
  NodeKind kind = NodeKind::List;
  bool boolean = false;      // Bool
  std::uint32_t line = 0;    // 1-based position of the token (a list's '(')
  std::uint32_t column = 0;
  float number = 0;          // Number
  SymbolId symbol = 0;       // Identifier
  std::uint32_t first = 0;   // List: children are Ast::children[first, first + count)
  std::uint32_t count = 0;
};

struct Ast {
  std::vector<Node> nodes;
  std::vector<NodeId> children;
  std::vector<NodeId> top_level;        // the program's forms, in order
  std::vector<std::string> symbol_names;  // SymbolId -> spelling

  const Node& node(NodeId id) const { return nodes[id]; }
  std::span<const NodeId> items(NodeId list) const {
    const Node& n = nodes[list];
    return {children.data() + n.first, n.count};
  }
  std::string_view name(SymbolId s) const { return symbol_names[s]; }
  bool is_identifier(NodeId id, std::string_view text) const {
    const Node& n = nodes[id];
    return n.kind == NodeKind::Identifier && symbol_names[n.symbol] == text;
  }
};

struct ParseOptions {
  std::uint32_t max_nesting = kDefaultMaxNesting;
};

// Parses a whole program. On errors the diagnostics say what is wrong and
// the returned tree may be partial; callers stop when the sink has errors.
Ast parse(std::string_view source, DiagnosticSink& sink, const ParseOptions& options = {});

}  // namespace sluice::lambdav
