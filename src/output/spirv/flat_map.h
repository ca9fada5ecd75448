// A small open-addressing hash map from 64-bit keys to 32-bit values, for
// the emitter's hot lookups (type and constant caches, SSA definitions per
// block and variable). Linear probing in a power-of-two table kept at most
// half full; the all-ones key marks an empty slot. Lookups never allocate,
// and iteration order is never used for output, so hashing cannot make the
// output depend on anything but the input.
#pragma once

#include <cstdint>
#include <vector>

namespace sluice::spirv::detail {

class FlatMap {
 public:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};

  FlatMap() { slots_.assign(16, Slot{kEmpty, 0}); }

  // The value for `key`, or nullptr.
  const std::uint32_t* find(std::uint64_t key) const {
    std::size_t i = index(key);
    for (;;) {
      const Slot& s = slots_[i];
      if (s.key == key) return &s.value;
      if (s.key == kEmpty) return nullptr;
      i = (i + 1) & (slots_.size() - 1);
    }
  }
  std::uint32_t get(std::uint64_t key, std::uint32_t fallback = 0) const {
    const std::uint32_t* v = find(key);
    return v ? *v : fallback;
  }
  void set(std::uint64_t key, std::uint32_t value) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    std::size_t i = index(key);
    for (;;) {
      Slot& s = slots_[i];
      if (s.key == key) {
        s.value = value;
        return;
      }
      if (s.key == kEmpty) {
        s.key = key;
        s.value = value;
        ++size_;
        return;
      }
      i = (i + 1) & (slots_.size() - 1);
    }
  }
  std::size_t size() const { return size_; }
  void clear() {
    if (size_ == 0) return;
    slots_.assign(16, Slot{kEmpty, 0});
    size_ = 0;
  }

 private:
  struct Slot {
    std::uint64_t key;
    std::uint32_t value;
  };
  std::size_t index(std::uint64_t key) const {
    // Fibonacci hashing spreads the structured keys (a << 32 | b).
    return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ull) >> 32) & (slots_.size() - 1);
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{kEmpty, 0});
    size_ = 0;
    for (const Slot& s : old)
      if (s.key != kEmpty) set(s.key, s.value);
  }
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

inline std::uint64_t pack_key(std::uint32_t high, std::uint32_t low) {
  return (static_cast<std::uint64_t>(high) << 32) | low;
}

}  // namespace sluice::spirv::detail
