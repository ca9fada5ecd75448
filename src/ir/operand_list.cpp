#include "ir/operand_list.h"

#include <stdexcept>

namespace sluice::ir {

OperandList::size_type OperandList::checked(size_type i) const {
  if (i >= size()) throw std::out_of_range("OperandList::at: index out of range");
  return i;
}

Operand* OperandList::allocate(size_type n) {
  if (n > kHeapBit - 1) throw std::length_error("OperandList: too many operands");
  return std::allocator<Operand>().allocate(n);
}

void OperandList::release() noexcept {
  if (on_heap()) std::allocator<Operand>().deallocate(heap_data(), storage_.heap.capacity);
}

void OperandList::adopt(Operand* fresh, size_type n) noexcept {
  release();
  storage_.heap.capacity = static_cast<std::uint32_t>(n);
  std::memcpy(storage_.heap.pointer, &fresh, sizeof fresh);
  size_ |= kHeapBit;
}

void OperandList::reallocate(size_type n) {
  Operand* fresh = allocate(n);
  std::copy(begin(), end(), fresh);
  adopt(fresh, n);
}

void OperandList::shrink_to_fit() {
  if (!on_heap() || size() == capacity()) return;
  if (size() > kInlineCapacity) {
    reallocate(size());
    return;
  }
  Operand* old = heap_data();
  const size_type cap = capacity();
  const size_type n = size();
  storage_ = Storage();
  std::copy(old, old + n, storage_.inline_ops);
  size_ = static_cast<std::uint32_t>(n);
  std::allocator<Operand>().deallocate(old, cap);
}

void OperandList::assign(size_type n, Operand value) {
  if (n > capacity()) adopt(allocate(n), n);
  std::fill(data(), data() + n, value);
  set_size(n);
}

OperandList::iterator OperandList::insert(const_iterator pos, size_type n, Operand value) {
  const OperandList items(n, value);
  return insert_range(pos, items.data(), items.size());
}

// `items` never points into this list (the callers copy first).
OperandList::iterator OperandList::insert_range(const_iterator pos, const Operand* items, size_type n) {
  const auto at = static_cast<size_type>(pos - begin());
  const size_type old_size = size();
  if (old_size + n > capacity()) grow(old_size + n);
  Operand* d = data();
  std::copy_backward(d + at, d + old_size, d + old_size + n);
  std::copy(items, items + n, d + at);
  set_size(old_size + n);
  return d + at;
}

OperandList::iterator OperandList::erase(const_iterator first, const_iterator last) {
  Operand* d = data();
  const auto from = static_cast<size_type>(first - d);
  const auto to = static_cast<size_type>(last - d);
  std::copy(d + to, d + size(), d + from);
  set_size(size() - (to - from));
  return d + from;
}

}  // namespace sluice::ir
