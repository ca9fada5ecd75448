// Rebuilding the module without removed variables and functions;
// module_compaction.h gives the algorithm.
#include "transform/module_compaction.h"

#include <algorithm>

#include "ir/operands.h"
#include "ir/traversal.h"

namespace sluice::transform {

using namespace ir;

std::vector<bool> variables_in_use(const Module& m, const std::vector<bool>& keep_function,
                                   const std::vector<bool>& drop_variable) {
  std::vector<bool> used(m.variable_count());
  auto mark = [&](VariableId v) {
    if (v.valid() && v.index() < used.size() && !(v.index() < drop_variable.size() && drop_variable[v.index()]))
      used[v.index()] = true;
  };
  for (VariableId v : m.globals()) mark(v);
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    if (i < keep_function.size() && !keep_function[i]) continue;
    const Function& f = m.function(FunctionId(i));
    for (const FunctionParam& p : f.params) mark(p.variable);
    if (!f.entry.valid()) continue;
    visit(f, [&](const BlockVisit&, const Block& b) {
      for (VariableId v : b.declarations) mark(v);
      for (const Instruction& inst : b.instructions) for_each_variable_use(inst, mark);
      return VisitAction::VisitSubBlocks;
    });
  }
  return used;
}

bool compact_module(Module& m, const std::vector<bool>& keep_variable, const std::vector<bool>& keep_function) {
  auto kept = [](const std::vector<bool>& keep, std::uint32_t i) { return i >= keep.size() || keep[i]; };
  bool all = true;
  for (std::uint32_t i = 0; i < m.variable_count() && all; ++i) all = kept(keep_variable, i);
  for (std::uint32_t i = 0; i < m.function_count() && all; ++i) all = kept(keep_function, i);
  if (all) return false;

  Module out(m.shader().stage);
  out.shader() = m.shader();
  for (std::uint32_t i = 0; i < m.type_count(); ++i) out.intern(m.type(TypeId(i)));
  for (std::uint32_t i = 0; i < m.constant_count(); ++i) out.intern(m.constant(ConstantId(i)));
  for (const std::string& file : m.source_files()) out.add_source_file(file);
  for (std::uint32_t i = 0; i < m.register_count(); ++i) {
    const RegisterInfo& r = m.reg(RegisterId(i));
    out.new_register(r.type, r.precision);
  }
  // Locations have no count of their own: copy up to the highest one used.
  std::uint32_t locations = 0;
  auto see_location = [&](SourceLocId l) {
    if (l.valid()) locations = std::max(locations, l.index() + 1);
  };

  std::vector<VariableId> new_variable(m.variable_count());
  for (std::uint32_t i = 0; i < m.variable_count(); ++i) {
    if (!kept(keep_variable, i)) continue;
    see_location(m.variable(VariableId(i)).location);
    new_variable[i] = out.add_variable(m.variable(VariableId(i)));
  }
  std::vector<FunctionId> new_function(m.function_count());
  std::uint32_t next_function = 0;
  for (std::uint32_t i = 0; i < m.function_count(); ++i)
    if (kept(keep_function, i)) new_function[i] = FunctionId(next_function++);

  auto map_variable = [&](VariableId v) { return v.index() < new_variable.size() ? new_variable[v.index()] : v; };
  auto map_operand = [&](Operand o) {
    if (o.is_variable()) return Operand(map_variable(o.as_variable()));
    if (o.is_function() && o.value() < new_function.size()) return Operand(new_function[o.value()]);
    return o;
  };
  for (VariableId v : m.globals())
    if (kept(keep_variable, v.index())) out.globals().push_back(map_variable(v));

  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    if (!kept(keep_function, i)) continue;
    Function f = std::move(m.function(FunctionId(i)));
    see_location(f.location);
    for (FunctionParam& p : f.params) p.variable = map_variable(p.variable);
    for (Block& b : f.blocks) {
      std::erase_if(b.declarations, [&](VariableId v) { return !kept(keep_variable, v.index()); });
      for (VariableId& v : b.declarations) v = map_variable(v);
      for (Instruction& inst : b.instructions) {
        see_location(inst.location);
        rewrite_operands(inst, map_operand);
      }
    }
    out.add_function(std::move(f));
  }
  for (std::uint32_t i = 0; i < locations; ++i) out.add_location(m.location(SourceLocId(i)));
  m = std::move(out);
  return true;
}

}  // namespace sluice::transform
