// Dead-code elimination, the pipeline pass "eliminate-dead-code": its four
// parts in the order where each feeds the next.
//   1. eliminate-unreachable-code — code after terminators goes first, so that the
//                                  calls, reads and uses in it stop counting;
//   2. remove-unused-functions    — functions nothing calls any more;
//   3. remove-unused-variables    — variables nothing reads any more (their stores
//                                  and address computations go with them);
//   4. eliminate-dead-registers   — what only those stores and dead code used, and
//                                  merge inputs nobody reads.
// Each part is linear, so eliminate-dead-code is.
#include "transform/passes.h"

namespace sluice::transform {

PassResult eliminate_dead_code(ir::Module& m) {
  bool changed = false;
  for (auto* part : {eliminate_unreachable_code, remove_unused_functions, remove_unused_variables,
                     eliminate_dead_registers}) {
    auto r = part(m);
    if (!r) return r;
    changed = *r || changed;
  }
  return changed;
}

}  // namespace sluice::transform
