#include "ir/constant_index.h"

#include "ir/module.h"

namespace sluice::ir {

bool constant_index_out_of_range(const Module& m, TypeId composite, ConstantId index) {
  if (!composite.valid() || !index.valid()) return false;
  const Type& t = m.type(composite);
  const Constant& c = m.constant(index);
  if (c.is_composite()) return false;
  // An Array whose length is a constant id is sized by a specialization
  // constant: its length is not known until the pipeline is made.
  const bool fixed =
      t.kind == TypeKind::Vector || t.kind == TypeKind::Matrix || (t.kind == TypeKind::Array && !t.length.valid());
  const bool indexed = fixed || t.kind == TypeKind::Array || t.kind == TypeKind::UnsizedArray;
  return indexed && (c.as_int() < 0 || (fixed && c.bits >= t.count));
}

}  // namespace sluice::ir
