// The text of a function body as a tree of chunks, so that constructs can be
// assembled after their parts are emitted without copying text: a chunk is
// a list of lines and references to other chunks, each placed one or more
// indentation levels deeper. A chunk may be referenced several times (a
// loop's continue block placed before every `continue`).
//
// Rendering walks the chunks with an explicit stack. Indentation is four
// spaces per level up to kMaxIndentLevels; deeper lines stay at that column,
// so 100,000 nested Ifs produce text linear in their size.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sluice::glsl_out {

inline constexpr std::uint32_t kMaxIndentLevels = 32;

using ChunkId = std::uint32_t;

class Document {
 public:
  struct Item {
    std::string text;                   // a line (without indentation), when child is kNoChild
    ChunkId child = kNoChild;           // else: a chunk placed here
    std::uint32_t indent = 0;           // extra levels relative to the enclosing chunk
  };
  static constexpr ChunkId kNoChild = UINT32_MAX;

  ChunkId new_chunk();
  void line(ChunkId c, std::string text, std::uint32_t indent = 0);
  void place(ChunkId c, ChunkId child, std::uint32_t indent);
  bool empty(ChunkId c) const { return chunks_[c].empty(); }
  const std::vector<Item>& items(ChunkId c) const { return chunks_[c]; }

  // Appends the text of chunk `root` at `base_indent` to `out`.
  void render(ChunkId root, std::uint32_t base_indent, std::string& out) const;

 private:
  std::vector<std::vector<Item>> chunks_;
};

}  // namespace sluice::glsl_out
