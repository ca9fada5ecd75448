// Operands and the list an instruction keeps them in.
//
// OperandList is a vector of Operands in 16 bytes: up to three operands live
// inline (nearly every instruction has at most three), longer lists on the
// heap. It is what keeps Instruction at 28 bytes, inside the IR's budget of
// 64 bytes per instruction (docs/performance.md). It has std::vector's
// interface and value semantics (copies are deep); iterators are pointers,
// so it is a contiguous range and converts to std::span.
#pragma once

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <utility>

#include "ir/ids.h"

namespace sluice::ir {

// An operand packs its kind and index into 32 bits: instructions stay small
// (the IR's memory budget is 64 bytes per instruction, register included).
class Operand {
 public:
  enum class Kind : std::uint8_t { Register, Constant, Variable, Function, Literal };
  static constexpr std::uint32_t kMaxValue = (1u << 29) - 1;

  Operand() = default;
  Operand(RegisterId id) : Operand(Kind::Register, id.index()) {}
  Operand(ConstantId id) : Operand(Kind::Constant, id.index()) {}
  Operand(VariableId id) : Operand(Kind::Variable, id.index()) {}
  Operand(FunctionId id) : Operand(Kind::Function, id.index()) {}
  static Operand literal(std::uint32_t value) { return Operand(Kind::Literal, value); }

  Kind kind() const { return static_cast<Kind>(bits_ >> 29); }
  std::uint32_t value() const { return bits_ & kMaxValue; }
  bool is_register() const { return kind() == Kind::Register; }
  bool is_constant() const { return kind() == Kind::Constant; }
  bool is_variable() const { return kind() == Kind::Variable; }
  bool is_function() const { return kind() == Kind::Function; }
  bool is_literal() const { return kind() == Kind::Literal; }
  RegisterId as_register() const { return RegisterId(value()); }
  ConstantId as_constant() const { return ConstantId(value()); }
  VariableId as_variable() const { return VariableId(value()); }
  FunctionId as_function() const { return FunctionId(value()); }

  friend bool operator==(Operand, Operand) = default;

 private:
  Operand(Kind k, std::uint32_t v) : bits_((static_cast<std::uint32_t>(k) << 29) | (v & kMaxValue)) {}
  std::uint32_t bits_ = 0;
};

class OperandList {
 public:
  using value_type = Operand;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = Operand&;
  using const_reference = const Operand&;
  using pointer = Operand*;
  using const_pointer = const Operand*;
  using iterator = Operand*;
  using const_iterator = const Operand*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  // How many operands fit without a heap allocation.
  static constexpr size_type kInlineCapacity = 3;

  OperandList() noexcept = default;
  explicit OperandList(size_type n, Operand value = Operand()) { assign(n, value); }
  template <std::input_iterator It>
  OperandList(It first, It last) { assign(first, last); }
  OperandList(std::initializer_list<Operand> ops) { assign(ops.begin(), ops.end()); }
  OperandList(const OperandList& other) { assign(other.begin(), other.end()); }
  // Moving steals the heap buffer and never throws, so vectors of
  // Instructions move (rather than copy) them when they grow.
  OperandList(OperandList&& other) noexcept : size_(other.size_), storage_(other.storage_) { other.forget(); }
  ~OperandList() { release(); }

  OperandList& operator=(const OperandList& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  OperandList& operator=(OperandList&& other) noexcept {
    if (this != &other) {
      release();
      size_ = other.size_;
      storage_ = other.storage_;
      other.forget();
    }
    return *this;
  }
  OperandList& operator=(std::initializer_list<Operand> ops) {
    assign(ops.begin(), ops.end());
    return *this;
  }

  // --- Size and capacity ---
  size_type size() const noexcept { return size_ & ~kHeapBit; }
  bool empty() const noexcept { return size() == 0; }
  size_type capacity() const noexcept { return on_heap() ? storage_.heap.capacity : kInlineCapacity; }
  size_type max_size() const noexcept { return kHeapBit - 1; }
  void reserve(size_type n) {
    if (n > capacity()) reallocate(n);
  }
  // Back inline when the operands fit there, else to an exact heap buffer.
  void shrink_to_fit();

  // --- Element access ---
  Operand* data() noexcept { return on_heap() ? heap_data() : storage_.inline_ops; }
  const Operand* data() const noexcept { return on_heap() ? heap_data() : storage_.inline_ops; }
  Operand& operator[](size_type i) { return data()[i]; }
  const Operand& operator[](size_type i) const { return data()[i]; }
  Operand& at(size_type i) { return data()[checked(i)]; }
  const Operand& at(size_type i) const { return data()[checked(i)]; }
  Operand& front() { return data()[0]; }
  const Operand& front() const { return data()[0]; }
  Operand& back() { return data()[size() - 1]; }
  const Operand& back() const { return data()[size() - 1]; }

  // --- Iterators ---
  iterator begin() noexcept { return data(); }
  const_iterator begin() const noexcept { return data(); }
  iterator end() noexcept { return data() + size(); }
  const_iterator end() const noexcept { return data() + size(); }
  const_iterator cbegin() const noexcept { return begin(); }
  const_iterator cend() const noexcept { return end(); }
  reverse_iterator rbegin() noexcept { return reverse_iterator(end()); }
  const_reverse_iterator rbegin() const noexcept { return const_reverse_iterator(end()); }
  reverse_iterator rend() noexcept { return reverse_iterator(begin()); }
  const_reverse_iterator rend() const noexcept { return const_reverse_iterator(begin()); }
  const_reverse_iterator crbegin() const noexcept { return rbegin(); }
  const_reverse_iterator crend() const noexcept { return rend(); }

  // --- Modifiers ---
  void clear() noexcept { set_size(0); }
  void push_back(Operand op) {
    if (size() == capacity()) grow(size() + 1);
    data()[size()] = op;
    set_size(size() + 1);
  }
  template <class... Args>
  Operand& emplace_back(Args&&... args) {
    push_back(Operand(std::forward<Args>(args)...));
    return back();
  }
  void pop_back() { set_size(size() - 1); }
  void resize(size_type n, Operand value = Operand()) {
    if (n > capacity()) reallocate(n);
    std::fill(data() + std::min(n, size()), data() + n, value);
    set_size(n);
  }

  void assign(size_type n, Operand value);
  void assign(std::initializer_list<Operand> ops) { assign(ops.begin(), ops.end()); }
  template <std::input_iterator It>
  void assign(It first, It last) {
    if constexpr (std::forward_iterator<It>) {
      const auto n = static_cast<size_type>(std::distance(first, last));
      if (n > capacity()) {
        // Filled before the old buffer goes: the range may lie in it.
        Operand* fresh = allocate(n);
        std::copy(first, last, fresh);
        adopt(fresh, n);
      } else if constexpr (std::contiguous_iterator<It>) {
        // memmove: the range may overlap our own operands.
        if (n) std::memmove(data(), std::to_address(first), n * sizeof(Operand));
      } else {
        std::copy(first, last, data());
      }
      set_size(n);
    } else {
      clear();
      for (; first != last; ++first) push_back(*first);
    }
  }

  iterator insert(const_iterator pos, Operand op) { return insert(pos, size_type{1}, op); }
  iterator insert(const_iterator pos, size_type n, Operand value);
  template <std::input_iterator It>
  iterator insert(const_iterator pos, It first, It last) {
    // A copy first: the range may point into this list, and input
    // iterators cannot be counted ahead. Inline, it costs no allocation.
    const OperandList items(first, last);
    return insert_range(pos, items.data(), items.size());
  }
  iterator insert(const_iterator pos, std::initializer_list<Operand> ops) {
    return insert(pos, ops.begin(), ops.end());
  }
  template <class... Args>
  iterator emplace(const_iterator pos, Args&&... args) {
    return insert(pos, Operand(std::forward<Args>(args)...));
  }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last);

  void swap(OperandList& other) noexcept { std::swap(*this, other); }
  friend void swap(OperandList& a, OperandList& b) noexcept { a.swap(b); }

  friend bool operator==(const OperandList& a, const OperandList& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  // The top bit of size_ says the operands are on the heap, where the
  // capacity and pointer share the inline operands' 12 bytes.
  static constexpr std::uint32_t kHeapBit = 1u << 31;
  struct Heap {
    std::uint32_t capacity;
    // The pointer as bytes: a pointer member would align the list to 8
    // bytes and make it 24 bytes long.
    unsigned char pointer[sizeof(Operand*)];
  };
  union Storage {
    Operand inline_ops[kInlineCapacity];
    Heap heap;
    Storage() : inline_ops{} {}
  };
  static_assert(sizeof(Heap) <= sizeof(Operand) * kInlineCapacity);

  bool on_heap() const noexcept { return (size_ & kHeapBit) != 0; }
  Operand* heap_data() const noexcept {
    Operand* p;
    std::memcpy(&p, storage_.heap.pointer, sizeof p);
    return p;
  }
  void set_size(size_type n) noexcept { size_ = static_cast<std::uint32_t>(n) | (size_ & kHeapBit); }
  // After a move: empty and inline, with nothing to free.
  void forget() noexcept {
    size_ = 0;
    storage_ = Storage();
  }
  size_type checked(size_type i) const;
  static Operand* allocate(size_type n);
  // Frees the heap buffer, if any (the size is kept).
  void release() noexcept;
  // Frees the current buffer and makes `fresh` (n places) the storage.
  void adopt(Operand* fresh, size_type n) noexcept;
  // Moves the operands to a heap buffer of exactly `n` (>= size()) places.
  void reallocate(size_type n);
  // Room for `needed` operands, growing geometrically.
  void grow(size_type needed) { reallocate(std::max(needed, 2 * capacity())); }
  iterator insert_range(const_iterator pos, const Operand* items, size_type n);

  std::uint32_t size_ = 0;
  Storage storage_;
};

}  // namespace sluice::ir
