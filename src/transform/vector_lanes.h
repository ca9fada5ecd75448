// The components ("lanes") of a vector value, where they are known without
// computing anything: a constant composite's components, the scalar operands
// of a ConstructVectorFromMultiple that builds the vector from scalars only,
// or the scalar a ConstructVectorFromScalar splats. forward-stores uses it
// to turn a store through a component access into a whole-vector store
// without adding an extract per lane (docs/ir.md, "Transformations").
//
// The same for structs, sized arrays and matrices (parts()): a
// non-specialization constant's components, or the operands of the
// ConstructStruct, ConstructArray or ConstructMatrixFromMultiple (of
// columns) that built the value; fold-constants reads a field or
// element of such a value as that part.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>

#include <vector>

#include "ir/module.h"

namespace sluice::transform {

using Lanes = std::vector<ir::Operand>;

class VectorLanes {
 public:
  explicit VectorLanes(const ir::Module& m) : m_(m) {}

  // Remembers the lanes of `inst`'s result if it is a construct of scalars.
  void note(const ir::Instruction& inst);
  // Remembers that register `r` holds a vector of these lanes.
  void note(ir::RegisterId r, Lanes lanes) { lanes_[r.index()] = std::move(lanes); }
  // The lanes of a vector value, or nullopt when they are not known.
  std::optional<Lanes> of(ir::Operand value) const;
  // The lanes of a vector, the fields of a struct, the elements of an
  // array or the columns of a matrix, or nullopt when they are not known.
  std::optional<Lanes> parts(ir::Operand value) const;
  void clear() { lanes_.clear(); }

 private:
  const ir::Module& m_;
  std::unordered_map<std::uint32_t, Lanes> lanes_;
};

}  // namespace sluice::transform
