// An expression of the output: its text, how tightly it binds (GLSL's
// operator precedence levels, tightest first) and what evaluating it does,
// which decides whether it may be moved to where it is used.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sluice::glsl_out {

enum class Prec : std::uint8_t {
  Primary,         // identifiers, literals, parenthesised expressions
  Postfix,         // calls, constructors, a[i], a.x, a++
  Unary,           // -a, !a, ~a, ++a, negative literals
  Multiplicative,  // * / %
  Additive,        // + -
  Shift,           // << >>
  Relational,      // < > <= >=
  Equality,        // == !=
  BitAnd,          // &
  BitXor,          // ^
  BitOr,           // |
  LogicalAnd,      // &&
  LogicalXor,      // ^^
  LogicalOr,       // ||
  Conditional,     // ?:
  Assignment,      // = += ...
  Sequence,        // ,
};

// The memory an expression or instruction touches, to decide what may be
// reordered. Function-storage variables (locals and parameters, which GLSL
// passes by copy) are tracked one by one; everything else is one "global"
// memory that any call may read, and write unless neither the callee nor
// any function it calls writes it (call_effects.h).
struct MemoryAccess {
  bool reads = false;       // global memory that can change: outputs, private, shared, buffers, storage images
  bool writes = false;      // global memory, or other side effects (calls, barriers)
  bool everything = false;  // a whole construct (if, loop, switch): conflicts with any access
  std::vector<std::uint32_t> local_reads, local_writes;  // VariableIds

  bool empty() const { return !reads && !writes && !everything && local_reads.empty() && local_writes.empty(); }
  void merge(const MemoryAccess& o) {
    reads = reads || o.reads;
    writes = writes || o.writes;
    everything = everything || o.everything;
    local_reads.insert(local_reads.end(), o.local_reads.begin(), o.local_reads.end());
    local_writes.insert(local_writes.end(), o.local_writes.begin(), o.local_writes.end());
  }
  // Whether this (earlier) access may not be moved after `later`.
  bool conflicts_with(const MemoryAccess& later) const {
    if (later.everything || everything) return !empty() && !later.empty();
    if (writes && (later.reads || later.writes)) return true;
    if (reads && later.writes) return true;
    auto meet = [](const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
      for (std::uint32_t x : a)
        if (std::find(b.begin(), b.end(), x) != b.end()) return true;
      return false;
    };
    return meet(local_writes, later.local_reads) || meet(local_writes, later.local_writes) ||
           meet(local_reads, later.local_writes);
  }
  bool has_effects() const { return writes || !local_writes.empty(); }
};

struct Expr {
  Expr() = default;
  Expr(std::string t, Prec p = Prec::Primary) : text(std::move(t)), prec(p) {}

  std::string text;
  Prec prec = Prec::Primary;
  MemoryAccess access;      // what evaluating it reads and writes
  std::uint32_t depth = 0;  // operations nested in the text; 0 for names and literals
  bool branches = false;    // contains &&, || or a ?: glslang turns into control flow (glslang_selects)

  bool pure() const { return access.empty(); }
};

// `e` as an operand that may bind no looser than `loosest`: parenthesised when needed.
inline std::string operand_text(const Expr& e, Prec loosest) {
  if (e.prec > loosest) return "(" + e.text + ")";
  return e.text;
}

}  // namespace sluice::glsl_out
