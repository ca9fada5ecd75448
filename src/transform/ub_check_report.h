// The parts of the ub-check pass that write findings (ub_check_report.cpp)
// and make constants (ub_check_values.cpp); internal to src/transform.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/module.h"
#include "ir/pointer_roots.h"
#include "ir/result.h"
#include "transform/ub_check.h"

namespace sluice::transform::ub {

struct Reporter {
  ir::VariableId buffer;
  ir::FunctionId function;  // 'sluice_ub_report'(bool fired, uint check, uint location)
};

// The set/binding the findings buffer takes: the options', checked against
// the shader's resources, or the default (ub_check.h).
Result<UbCheckMap> choose_binding(const ir::Module& m, const UbCheckOptions& options);

// Adds the findings buffer and the report function to `m`.
Result<Reporter> add_reporter(ir::Module& m, const UbCheckMap& where);

class Guard;

// uninitialized-read (ub_check_uninitialized.cpp): a shadow flag per
// Function local (not a parameter) and Private global without initializer,
// set when the variable is written, tested when it is read.
class Shadows {
 public:
  // Declares the flags: a Private flag beside each Private global, a
  // Function flag in the block that declares each local, both initialized
  // false. Only the first `functions` functions (the shader's own) count.
  Shadows(ir::Module& m, std::size_t functions);
  // The read checks and write marks `inst` needs, added to `g`.
  void guard(ir::Module& m, Guard& g, const ir::Instruction& inst) const;

 private:
  ir::PointerRoots roots_;
  std::vector<ir::VariableId> flag_;  // by variable: its flag, or invalid
};

// `value` in every component of the scalar or vector type `t` (float,
// double, int or uint: converted to the component kind; bool: value != 0).
ir::ConstantId splat(ir::Module& m, ir::TypeId t, double value);

}  // namespace sluice::transform::ub
