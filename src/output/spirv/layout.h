// Explicit memory layout of uniform, storage and push-constant blocks.
//
// A "flavour" says how one IR type is laid out where it lives: plain (no
// layout: values, Function/Private/Input/Output memory) or std140/std430
// (block memory, with Offset/ArrayStride/MatrixStride decorations and bool
// stored as uint). The same IR type may need several SPIR-V types, one per
// flavour it is used in; values in registers are always plain, and loads and
// stores through block pointers convert (function_emitter.cpp).
//
// Sizes and alignments follow the GLSL rules (GLSL 4.60 §7.6.2.2):
//   scalar 4/4; vecN 4N, aligned 8 (N=2) or 16 (N=3,4);
//   array: stride = element size rounded up to its alignment, which std140
//          further rounds up to 16; matrices are arrays of their columns
//          (rows when row-major);
//   struct: members at increasing offsets rounded up to their alignment
//          (or an explicit offset), aligned to its largest member (std140:
//          at least 16), size rounded up to that alignment.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/module.h"
#include "output/spirv/flat_map.h"

namespace sluice::spirv::detail {

// Bits: 0-1 layout (0 plain, 1 std140, 2 std430); 2 = buffer block
// (BufferBlock before SPIR-V 1.3); 3 = matrices are row-major.
using Flavour = std::uint8_t;
inline constexpr Flavour kPlain = 0;
inline constexpr Flavour kStd140 = 1;
inline constexpr Flavour kStd430 = 2;
inline constexpr Flavour kBufferBit = 4;
inline constexpr Flavour kRowMajorBit = 8;

inline std::uint32_t layout_of(Flavour f) { return f & 3u; }
inline bool is_laid_out(Flavour f) { return (f & 3u) != 0; }
inline bool is_row_major(Flavour f) { return (f & kRowMajorBit) != 0; }

// Per-type facts the emitter needs often, computed once per module without
// recursion (an interned type only refers to types with smaller ids).
struct TypeFacts {
  std::uint32_t depth = 1;        // nesting depth; bounded before anything recurses on types
  bool contains_bool = false;
  bool contains_matrix = false;
  bool aggregate = false;         // array, runtime array or struct somewhere inside
  bool contains_int = false;  // or doubles: both never interpolate (VUID-StandaloneSpirv-Flat-04744)      // int or uint components (fragment inputs need Flat)
};

class Layouts {
 public:
  explicit Layouts(const ir::Module& m) : m_(m) {}

  // Fills facts for every type; false (with `bad`) when a type refers to a
  // later or missing one, which interning never produces.
  bool compute_facts(ir::TypeId* bad);
  const TypeFacts& facts(ir::TypeId t) const { return facts_[t.index()]; }

  // The flavour the SPIR-V type of `t` really depends on: plain for types
  // that look the same in every layout, no buffer bit below the block.
  Flavour normalize(ir::TypeId t, Flavour f) const;
  // The flavour member `index` of struct `t` is laid out in when `t` is laid
  // out as `f` (layout and matrix order, not normalized).
  Flavour member_flavour(ir::TypeId t, Flavour f, std::uint32_t index) const;

  struct SizeAlign {
    std::uint32_t size = 0;
    std::uint32_t align = 1;
  };
  SizeAlign size_align(ir::TypeId t, Flavour f);
  std::uint32_t array_stride(ir::TypeId array, Flavour f);
  // Stride between the columns (rows when row-major) of `matrix`.
  std::uint32_t matrix_stride(ir::TypeId matrix, Flavour f);
  // Explicit offsets (StructMember::offset) are kept; `misplaced`, when
  // given, gets the first member whose explicit offset breaks the layout's
  // rules (not a multiple of its alignment, or before the end of the member
  // before it), or UINT32_MAX.
  std::vector<std::uint32_t> member_offsets(ir::TypeId st, Flavour f, std::uint32_t* misplaced = nullptr);

 private:
  // n components of `bytes` each (4, or 8 for doubles: GLSL 4.60 §7.6.2.2
  // rule 2, a dvec3 aligned as a dvec4).
  SizeAlign vector_size_align(std::uint32_t n, std::uint32_t bytes = 4) const {
    return {bytes * n, (n == 2 ? 2 : 4) * bytes};
  }
  const ir::Module& m_;
  std::vector<TypeFacts> facts_;
  FlatMap size_cache_;   // (type << 8 | flavour) -> size
  FlatMap align_cache_;
};

}  // namespace sluice::spirv::detail
