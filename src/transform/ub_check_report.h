// The parts of the ub-check pass that write findings (ub_check_report.cpp)
// and make constants (ub_check_values.cpp); internal to src/transform.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
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

// Cascade suppression (ub_check_taint.cpp): a taint, a bool that holds
// where a value comes from a guard's substitute, per register and, as a
// shadow bool, per Function local, parameter and Private global; a guard's
// reports are suppressed where its operands are tainted.
class Taints {
 public:
  // Declares the shadows (false at first): a Function bool beside each
  // local of the first `functions` functions, a Private bool per parameter
  // (its caller sets it) and per Private global.
  Taints(ir::Module& m, std::size_t functions);
  // Before `inst`'s checks: each operand's taint (registers, and the memory
  // it reads) goes to `g`, to suppress the reports about that operand; a
  // Call sets its In parameters' shadows.
  void before(ir::Module& m, Guard& g, const ir::Instruction& inst);
  // After them: the result's taint, and the shadows of the memory it writes.
  void after(ir::Module& m, Guard& g, const ir::Instruction& inst);

 private:
  ir::PointerRoots roots_;
  std::vector<ir::VariableId> shadow_;  // by variable: its taint shadow, or invalid
  std::unordered_map<std::uint32_t, ir::Operand> registers_;  // register index -> taint
};

// A bool variable beside `v` (named prefix + v's name), in `storage`,
// initialized false: the shadow state of uninitialized-read and Taints.
// The caller declares it (globals or a block's declarations).
ir::VariableId add_shadow_bool(ir::Module& m, ir::VariableId v, std::string_view prefix, ir::StorageClass storage);

// `value` in every component of the scalar or vector type `t` (float,
// double, int or uint: converted to the component kind; bool: value != 0).
ir::ConstantId splat(ir::Module& m, ir::TypeId t, double value);

}  // namespace sluice::transform::ub
