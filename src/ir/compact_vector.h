// CompactVector<T>: std::vector's interface in one pointer, for members that
// are empty in nearly every object. Block's switch-only case lists are: two
// std::vectors there cost 48 bytes in every block, two of these 16. The
// size and capacity live in front of the elements, in the one allocation;
// an empty list owns none. T must be trivially copyable (ids, small structs).
//
// It converts from and to std::vector<T>, so code written against the
// std::vector members it replaces keeps compiling.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace sluice::ir {

template <class T>
class CompactVector {
  static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= alignof(std::max_align_t));

 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  CompactVector() noexcept = default;
  template <std::input_iterator It>
  CompactVector(It first, It last) { assign(first, last); }
  CompactVector(std::initializer_list<T> items) { assign(items.begin(), items.end()); }
  CompactVector(const std::vector<T>& items) { assign(items.begin(), items.end()); }
  CompactVector(const CompactVector& other) { assign(other.begin(), other.end()); }
  CompactVector(CompactVector&& other) noexcept : header_(std::exchange(other.header_, nullptr)) {}
  ~CompactVector() { ::operator delete(header_); }

  CompactVector& operator=(const CompactVector& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  CompactVector& operator=(CompactVector&& other) noexcept {
    if (this != &other) {
      ::operator delete(header_);
      header_ = std::exchange(other.header_, nullptr);
    }
    return *this;
  }
  CompactVector& operator=(std::initializer_list<T> items) {
    assign(items.begin(), items.end());
    return *this;
  }
  operator std::vector<T>() const { return std::vector<T>(begin(), end()); }

  // --- Size and capacity ---
  size_type size() const noexcept { return header_ ? header_->size : 0; }
  bool empty() const noexcept { return size() == 0; }
  size_type capacity() const noexcept { return header_ ? header_->capacity : 0; }
  size_type max_size() const noexcept { return UINT32_MAX; }
  void reserve(size_type n) {
    if (n > capacity()) reallocate(n);
  }
  void shrink_to_fit() {
    if (empty()) {
      ::operator delete(std::exchange(header_, nullptr));
    } else if (size() < capacity()) {
      reallocate(size());
    }
  }

  // --- Element access ---
  T* data() noexcept { return header_ ? elements(header_) : nullptr; }
  const T* data() const noexcept { return header_ ? elements(header_) : nullptr; }
  T& operator[](size_type i) { return data()[i]; }
  const T& operator[](size_type i) const { return data()[i]; }
  T& at(size_type i) { return data()[checked(i)]; }
  const T& at(size_type i) const { return data()[checked(i)]; }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size() - 1]; }
  const T& back() const { return data()[size() - 1]; }

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

  // --- Modifiers ---
  void clear() noexcept {
    if (header_) header_->size = 0;
  }
  void push_back(const T& item) {
    const T copy = item;  // `item` may be an element of this list
    if (size() == capacity()) reallocate(std::max<size_type>(4, 2 * capacity()));
    data()[size()] = copy;
    ++header_->size;
  }
  template <class... Args>
  T& emplace_back(Args&&... args) {
    push_back(T(std::forward<Args>(args)...));
    return back();
  }
  void pop_back() { --header_->size; }
  void resize(size_type n, const T& value = T()) {
    const T copy = value;
    if (n > capacity()) reallocate(n);
    if (n > size()) std::fill(data() + size(), data() + n, copy);
    if (header_) header_->size = static_cast<std::uint32_t>(n);
  }
  template <std::input_iterator It>
  void assign(It first, It last) {
    // Through a temporary: the range may lie in this list. Assigning a
    // case list is rare next to reading it.
    const std::vector<T> items(first, last);
    if (items.size() > capacity()) reallocate(items.size());
    if (items.empty()) return clear();
    std::copy(items.begin(), items.end(), data());
    header_->size = static_cast<std::uint32_t>(items.size());
  }
  void assign(std::initializer_list<T> items) { assign(items.begin(), items.end()); }
  iterator insert(const_iterator pos, const T& item) {
    const auto at = static_cast<size_type>(pos - begin());
    push_back(item);
    std::rotate(begin() + at, end() - 1, end());
    return begin() + at;
  }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    const auto from = static_cast<size_type>(first - begin());
    const auto to = static_cast<size_type>(last - begin());
    if (from == to) return begin() + from;
    std::copy(begin() + to, end(), begin() + from);
    header_->size -= static_cast<std::uint32_t>(to - from);
    return begin() + from;
  }
  void swap(CompactVector& other) noexcept { std::swap(header_, other.header_); }
  friend void swap(CompactVector& a, CompactVector& b) noexcept { a.swap(b); }

  friend bool operator==(const CompactVector& a, const CompactVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  struct Header {
    std::uint32_t size;
    std::uint32_t capacity;
  };
  // The elements follow the header, at the first offset T's alignment allows.
  static constexpr std::size_t kOffset = (sizeof(Header) + alignof(T) - 1) / alignof(T) * alignof(T);
  static T* elements(Header* h) noexcept {
    return std::launder(reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(h) + kOffset));
  }

  size_type checked(size_type i) const {
    if (i >= size()) throw std::out_of_range("CompactVector::at: index out of range");
    return i;
  }
  // Moves the elements to a buffer of exactly `n` (>= size()) places.
  void reallocate(size_type n) {
    if (n > max_size()) throw std::length_error("CompactVector: too many elements");
    auto* fresh = static_cast<Header*>(::operator new(kOffset + n * sizeof(T)));
    const size_type count = size();
    if (count) std::memcpy(static_cast<void*>(elements(fresh)), data(), count * sizeof(T));
    fresh->size = static_cast<std::uint32_t>(count);
    fresh->capacity = static_cast<std::uint32_t>(n);
    ::operator delete(std::exchange(header_, fresh));
  }

  Header* header_ = nullptr;
};

}  // namespace sluice::ir
