// SPIR-V word encoding. An instruction is one word holding its word count
// (high 16 bits) and opcode (low 16), then its operands; a literal string is
// its UTF-8 bytes, NUL-terminated and zero-padded to whole words, packed
// little-end first (SPIR-V 2.2.1). Words is a growable section of such
// instructions; sections are concatenated in the logical layout order at the
// end (module_emitter.cpp).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

namespace sluice::spirv::detail {

inline std::uint32_t opcode_word(spv::Op op, std::size_t word_count) {
  return static_cast<std::uint32_t>(word_count << 16) | static_cast<std::uint32_t>(op);
}

class Words {
 public:
  std::vector<std::uint32_t> words;

  void op(spv::Op op, std::initializer_list<std::uint32_t> operands) {
    words.push_back(opcode_word(op, operands.size() + 1));
    words.insert(words.end(), operands.begin(), operands.end());
  }
  void op(spv::Op op, std::span<const std::uint32_t> operands) {
    words.push_back(opcode_word(op, operands.size() + 1));
    words.insert(words.end(), operands.begin(), operands.end());
  }
  // `head` operands, then `tail` operands, as one instruction.
  void op(spv::Op op, std::initializer_list<std::uint32_t> head, std::span<const std::uint32_t> tail) {
    words.push_back(opcode_word(op, head.size() + tail.size() + 1));
    words.insert(words.end(), head.begin(), head.end());
    words.insert(words.end(), tail.begin(), tail.end());
  }
  // `head` operands, a literal string, then `tail` operands.
  void op_with_string(spv::Op op, std::initializer_list<std::uint32_t> head, std::string_view text,
                      std::initializer_list<std::uint32_t> tail = {}) {
    const std::size_t at = words.size();
    words.push_back(0);
    words.insert(words.end(), head.begin(), head.end());
    append_string(text);
    words.insert(words.end(), tail.begin(), tail.end());
    words[at] = opcode_word(op, words.size() - at);
  }
  // Starts an instruction whose operands are appended one by one; finish()
  // writes its word count.
  std::size_t begin(spv::Op op) {
    words.push_back(static_cast<std::uint32_t>(op));
    return words.size() - 1;
  }
  void finish(std::size_t at, spv::Op op) { words[at] = opcode_word(op, words.size() - at); }
  void push(std::uint32_t w) { words.push_back(w); }
  void append(const Words& other) { words.insert(words.end(), other.words.begin(), other.words.end()); }
  std::size_t size() const { return words.size(); }
  bool empty() const { return words.empty(); }

  void append_string(std::string_view text) {
    std::uint32_t word = 0;
    std::size_t shift = 0;
    for (unsigned char c : text) {
      if (c == 0) break;  // a NUL would end the string early; stop there
      word |= static_cast<std::uint32_t>(c) << shift;
      shift += 8;
      if (shift == 32) {
        words.push_back(word);
        word = 0;
        shift = 0;
      }
    }
    words.push_back(word);  // the terminating NUL, with padding
  }
};

}  // namespace sluice::spirv::detail
