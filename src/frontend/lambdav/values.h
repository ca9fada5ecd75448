// What λV expressions evaluate to while they are lowered. λV functions are
// compile-time values, so lowering is an evaluator: a run-time value is an
// IR register or constant with its type; a function is a closure (a func
// node and the frame it was made in), a builtin, a swizzle, or the `rec` of
// a rec-func being lowered. `Tail` is what a tail position that already
// ended its block (with Break or Continue) gives back: Rec τ, or PureRec
// when the type is invalid (docs/lambdav.md, "Types").
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "frontend/lambdav/ast.h"
#include "ir/instruction.h"

namespace sluice::lambdav {

enum class ValueKind : std::uint8_t { Runtime, Closure, Builtin, Swizzle, Rec, Tail };

struct Value {
  ValueKind kind = ValueKind::Runtime;
  ir::TypeId type;      // Runtime: the value's type; Tail: τ of Rec τ (invalid: PureRec)
  ir::Operand operand;  // Runtime: a register or constant
  std::uint32_t index = 0;  // Closure: closure index; Builtin: BuiltinId; Swizzle: packed; Rec: loop index

  static Value runtime(ir::TypeId t, ir::Operand op) {
    Value v;
    v.type = t;
    v.operand = op;
    return v;
  }
  static Value of(ValueKind k, std::uint32_t index) {
    Value v;
    v.kind = k;
    v.index = index;
    return v;
  }
  static Value tail(ir::TypeId t) {
    Value v;
    v.kind = ValueKind::Tail;
    v.type = t;
    return v;
  }
  bool is_runtime() const { return kind == ValueKind::Runtime; }
  bool is_function() const {
    return kind == ValueKind::Closure || kind == ValueKind::Builtin || kind == ValueKind::Swizzle ||
           kind == ValueKind::Rec;
  }
};

// One level of bindings: a let's names, a function's parameters, or the
// program's defines (level 0).
struct Frame {
  const Frame* parent = nullptr;
  std::uint32_t level = 0;
  std::uint32_t size = 0;
  Value* values = nullptr;
};

inline constexpr SymbolId kNoSymbol = std::numeric_limits<SymbolId>::max();
inline constexpr std::uint32_t kNotClosed = std::numeric_limits<std::uint32_t>::max();

struct Closure {
  std::uint32_t func = 0;          // FuncInfo index
  const Frame* env = nullptr;      // the frame the func expression was evaluated in
  SymbolId name = kNoSymbol;       // the name it was first bound to, for messages and IR names
  // Closures whose free bindings hold no run-time registers are "closed":
  // equal ones (same func node, same free values) share this id, and may be
  // lowered once as an IR function per argument types.
  std::uint32_t closed_id = kNotClosed;
};

// A bump allocator for frames and their values, which live as long as the
// lowering (closures keep frames alive). Only trivially destructible types.
class Arena {
 public:
  template <class T>
  T* make_array(std::size_t n) {
    static_assert(std::is_trivially_destructible_v<T>);
    if (n == 0) return nullptr;
    void* p = allocate(sizeof(T) * n, alignof(T));
    T* first = static_cast<T*>(p);
    for (std::size_t i = 0; i < n; ++i) new (first + i) T();
    return first;
  }

 private:
  void* allocate(std::size_t bytes, std::size_t align) {
    std::size_t offset = (used_ + align - 1) & ~(align - 1);
    if (chunks_.empty() || offset + bytes > capacity_) {
      capacity_ = std::max<std::size_t>(kChunk, bytes + align);
      chunks_.push_back(std::make_unique<std::byte[]>(capacity_));
      offset = 0;
    }
    used_ = offset + bytes;
    return chunks_.back().get() + offset;
  }
  static constexpr std::size_t kChunk = 64 * 1024;
  std::vector<std::unique_ptr<std::byte[]>> chunks_;
  std::size_t used_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace sluice::lambdav
