// Unused-function elimination: functions the entry point never calls,
// directly or through other functions, are removed (with their parameters
// and local variables). A module without an entry point keeps everything.
//
// Algorithm: a worklist from the entry point over Call operands (one walk
// of each reached function), then compact_module() rebuilds the function
// and variable tables. Linear.
#include "ir/operands.h"
#include "ir/traversal.h"
#include "transform/module_compaction.h"
#include "transform/passes.h"

namespace sluice::transform {

using namespace ir;

PassResult remove_unused_functions(Module& m) {
  const FunctionId entry = m.entry_point();
  if (!entry.valid()) return false;
  std::vector<bool> reached(m.function_count());
  std::vector<FunctionId> work{entry};
  reached[entry.index()] = true;
  while (!work.empty()) {
    const Function& f = m.function(work.back());
    work.pop_back();
    if (!f.entry.valid()) continue;
    visit(f, [&](const BlockVisit&, const Block& b) {
      for (const Instruction& inst : b.instructions) {
        for_each_operand(inst, [&](const Operand& o, std::size_t) {
          if (!o.is_function() || o.value() >= reached.size() || reached[o.value()]) return;
          reached[o.value()] = true;
          work.push_back(o.as_function());
        });
      }
      return VisitAction::VisitSubBlocks;
    });
  }
  if (std::find(reached.begin(), reached.end(), false) == reached.end()) return false;
  return compact_module(m, variables_in_use(m, reached, {}), reached);
}

}  // namespace sluice::transform
