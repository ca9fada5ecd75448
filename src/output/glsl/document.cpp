// Chunk storage and the non-recursive renderer.
#include "output/glsl/document.h"

#include <algorithm>

namespace sluice::glsl_out {

ChunkId Document::new_chunk() {
  chunks_.emplace_back();
  return static_cast<ChunkId>(chunks_.size() - 1);
}

void Document::line(ChunkId c, std::string text, std::uint32_t indent) {
  chunks_[c].push_back(Item{std::move(text), kNoChild, indent});
}

void Document::place(ChunkId c, ChunkId child, std::uint32_t indent) {
  chunks_[c].push_back(Item{std::string(), child, indent});
}

void Document::render(ChunkId root, std::uint32_t base_indent, std::string& out) const {
  struct Frame {
    ChunkId chunk;
    std::size_t next;
    std::uint32_t indent;
  };
  std::vector<Frame> stack{{root, 0, base_indent}};
  while (!stack.empty()) {
    Frame& top = stack.back();
    const auto& items = chunks_[top.chunk];
    if (top.next == items.size()) {
      stack.pop_back();
      continue;
    }
    const Item& item = items[top.next++];
    const std::uint32_t indent = top.indent + item.indent;
    if (item.child != kNoChild) {
      stack.push_back(Frame{item.child, 0, indent});
      continue;
    }
    if (!item.text.empty()) out.append(4 * std::min(indent, kMaxIndentLevels), ' ');
    out += item.text;
    out += '\n';
  }
}

}  // namespace sluice::glsl_out
