// One function: find its variables and which of them to promote, place
// phis, then emit the CFG's nodes in order and fill in the phi operands.
//
// A Function-storage variable is promoted when it is used only as a
// pointer read or written through (operand roles, ir/opcode.h: Load,
// Store, the increments and the out pointers of modf/frexp/uaddCarry/...;
// not atomics), so its address never escapes;
// its declaration with an initializer counts as a store where it stands, so
// a variable declared inside a loop starts afresh each iteration. -O0 keeps
// every variable in memory except those of opaque type (images, samplers),
// which SPIR-V does not allow in Function memory at all.
#include "output/spirv/function_emitter.h"

#include <utility>

#include <fmt/format.h>

#include "ir/structure.h"
#include "ir/typing.h"

namespace sluice::spirv::detail {

FunctionEmitter::FunctionEmitter(ModuleContext& mc, ir::FunctionId function, std::vector<std::uint32_t>& local_slots)
    : mc_(mc), m_(mc.m), fid_(function), f_(mc.m.function(function)), local_slot_(local_slots) {}

FunctionEmitter::~FunctionEmitter() {
  for (const Local& l : locals_) local_slot_[l.var.index()] = 0;
}

FunctionEmitter::Local* FunctionEmitter::local(ir::VariableId v) {
  return const_cast<Local*>(std::as_const(*this).local_const(v));
}

const FunctionEmitter::Local* FunctionEmitter::local_const(ir::VariableId v) const {
  if (!v.valid() || v.index() >= local_slot_.size() || local_slot_[v.index()] == 0) return nullptr;
  return &locals_[local_slot_[v.index()] - 1];
}

FunctionEmitter::Local& FunctionEmitter::add_local(ir::VariableId v) {
  locals_.push_back(Local{});
  locals_.back().var = v;
  locals_.back().type = ir::pointee(m_, m_.variable(v).type);
  local_slot_[v.index()] = static_cast<std::uint32_t>(locals_.size());
  return locals_.back();
}

void FunctionEmitter::collect_variables() {
  // Valid IR (emit() validated it): every variable exists and has a pointer
  // type, and no parameter is listed twice.
  for (const ir::FunctionParam& p : f_.params) {
    Local& l = add_local(p.variable);
    l.is_param = true;
    l.pointer_param = p.direction != ir::ParamDirection::In;
    if (l.pointer_param) l.id = mc_.new_id();
    else l.param_value = mc_.new_id();
  }
  // One pass over the blocks in emission order: declarations, then every
  // use — which Function variables escape, which were never declared, and
  // the reads and writes SSA construction needs (kept for all locals, used
  // for the promoted ones).
  std::size_t instruction_count = 0;
  for (std::uint32_t n : cfg_.order) {
    const CfgNode& node = cfg_.nodes[n];
    if (node.kind != NodeKind::Block || node.stub) continue;
    const ir::Block& b = f_.block(node.block);
    for (ir::VariableId v : b.declarations) {
      Local* l = local(v);
      if (!l) {
        l = &add_local(v);
        l->declared_in_entry = n == 0;
      }
      if (m_.variable(v).initializer.valid()) events_.push_back({slot_of(*l), n, kWrite});
    }
    instruction_count += b.instructions.size();
    for (const ir::Instruction& inst : b.instructions) {
      for (std::size_t i = 0; i < inst.operands.size(); ++i) {
        const ir::Operand op = inst.operands[i];
        note_pointer_use(inst, i);
        Local* l = nullptr;
        bool part = false;  // a pointer to components of the local, not all of it
        if (op.is_variable()) {
          const ir::VariableId v = op.as_variable();
          l = local(v);
          if (!l) {
            if (m_.type(m_.variable(v).type).storage != ir::StorageClass::Function) continue;
            l = &add_local(v);
            l->declared_in_entry = true;
            implicit_locals_.push_back(v);
          }
        } else if (const std::uint32_t* s = op.is_register() ? vector_part_of_.find(op.value()) : nullptr) {
          l = &locals_[*s - 1];
          part = true;
        } else {
          continue;
        }
        // A swizzle or constant component of a local vector (v.xz, v.y) is
        // read and written with the whole vector (OpVectorShuffle,
        // OpCompositeExtract/Insert), so it keeps no variable in memory;
        // a defining order of the blocks sees the access before its uses.
        if (i == 0 && is_vector_part_access(inst)) {
          vector_part_of_.set(inst.result.index(), slot_of(*l) + 1);
          continue;
        }
        // Atomics stay in memory (SPIR-V's atomics take a pointer).
        const ir::OperandRole role = ir::operand_role(inst.opcode, i);
        const bool atomic = ir::info(inst.opcode).family == ir::OpcodeFamily::Atomic;
        std::uint8_t kind = atomic ? 0
                                   : static_cast<std::uint8_t>((ir::reads_through(role) ? kRead : 0) |
                                                               (ir::writes_through(role) ? kWrite : 0));
        if (part && (kind & kWrite)) kind |= kRead;  // the other components are read back
        if (kind != 0) events_.push_back({slot_of(*l), n, kind});
        else l->escapes = true;
      }
    }
  }
  body_.words.reserve(instruction_count * 5 + 2 * cfg_.order.size());
  // Driver workarounds (kept_in_memory.cpp): per local, whether it stays in
  // memory although it could be promoted.
  const std::vector<std::uint8_t> kept = locals_kept_in_memory();
  std::uint32_t promoted = 0;
  for (Local& l : locals_) {
    if (l.pointer_param) {
      mc_.name(l.id, m_.variable(l.var).name.text);
      continue;
    }
    const bool opaque = ir::is_opaque(m_.type(l.type));
    if (opaque && l.escapes)
      return mc_.fail(fmt::format("'{}': variable '{}' of opaque type is used through a pointer", f_.name.text,
                                  m_.variable(l.var).name.text));
    const bool keep = !kept.empty() && kept[slot_of(l)] && !opaque;
    if (!l.escapes && (mc_.options.promote_to_ssa || opaque) && !keep) {
      l.ssa_index = promoted++;
      ssa_types_.push_back(l.type);
      ssa_precisions_.push_back(m_.variable(l.var).precision);
      if (l.is_param) mc_.name(l.param_value, m_.variable(l.var).name.text);
      continue;
    }
    const ir::Variable& var = m_.variable(l.var);
    l.id = mc_.new_id();
    const std::uint32_t pointer_type = mc_.pointer_type(l.type, ir::StorageClass::Function, kPlain);
    if (l.declared_in_entry && var.initializer.valid())
      vars_.op(spv::Op::OpVariable, {pointer_type, l.id, static_cast<std::uint32_t>(spv::StorageClass::Function),
                                     mc_.constant(var.initializer)});
    else
      vars_.op(spv::Op::OpVariable, {pointer_type, l.id, static_cast<std::uint32_t>(spv::StorageClass::Function)});
    mc_.name(l.id, var.name.text);
    mc_.relax(l.id, var.precision, l.type);
    if (l.is_param) mc_.name(l.param_value, var.name.text);
  }
  if (promoted > 0) ssa_ = std::make_unique<Ssa>(cfg_, promoted);
}

void FunctionEmitter::feed_events(Ssa& ssa, std::span<const std::uint32_t> index_of) const {
  // A read is upward-exposed unless the same node wrote the variable first.
  std::vector<std::uint32_t> written_in(locals_.size(), 0);  // per ssa index: node + 1
  for (ir::VariableId v : implicit_locals_) {  // their initializers take effect at the very start
    const std::uint32_t i = index_of[slot_of(*local_const(v))];
    if (i != kNone && m_.variable(v).initializer.valid()) {
      ssa.add_def(i, 0);
      written_in[i] = 1;
    }
  }
  for (const Event& e : events_) {
    const std::uint32_t v = index_of[e.local];
    if (v == kNone) continue;
    if ((e.kind & kRead) && written_in[v] != e.node + 1) ssa.add_upward_use(v, e.node);
    if (e.kind & kWrite) {
      ssa.add_def(v, e.node);
      written_in[v] = e.node + 1;
    }
  }
}

void FunctionEmitter::scan_ssa_events() {
  std::vector<std::uint32_t> index_of(locals_.size());
  for (std::size_t i = 0; i < locals_.size(); ++i) index_of[i] = locals_[i].ssa_index;
  feed_events(*ssa_, index_of);
  events_.clear();
  events_.shrink_to_fit();
  for (const Local& l : locals_)
    if (l.ssa_index != kNone && l.is_param) ssa_->set_initial(l.ssa_index, l.param_value);
  ssa_->place_phis([&](std::uint32_t, std::uint32_t) { return mc_.new_id(); });
}

void FunctionEmitter::emit() {
  auto cfg = build_cfg(m_, f_, CfgShape{.one_block_body_continues = !mc_.options.loop_latch});
  if (!cfg) return mc_.fail(cfg.error());
  cfg_ = std::move(*cfg);
  labels_.assign(cfg_.nodes.size(), 0);
  edge_values_.assign(cfg_.nodes.size(), 0);
  label(0);  // the entry block's id first: the disassembly reads in order
  collect_variables();
  if (mc_.failed()) return;
  if (ssa_) scan_ssa_events();

  const std::uint32_t return_type = type_id(f_.return_type);
  std::vector<std::uint32_t> param_types;
  for (const ir::FunctionParam& p : f_.params) {
    const Local& l = *local(p.variable);
    param_types.push_back(l.pointer_param ? mc_.pointer_type(l.type, ir::StorageClass::Function, kPlain)
                                          : type_id(l.type));
  }
  const std::uint32_t function_type = mc_.function_type(return_type, param_types);
  for (std::uint32_t n : cfg_.order) {
    emit_node(n);
    if (mc_.failed()) return;
  }
  patch_phis();

  const std::uint32_t id = mc_.function_id(fid_);
  // The entry point is named as OpEntryPoint names it (Options::entry_point_name).
  mc_.name(id, fid_ == mc_.entry ? mc_.options.entry_point_name : f_.name.text);
  mc_.relax(id, f_.return_precision, f_.return_type);
  Words head;
  head.op(spv::Op::OpFunction, {return_type, id, static_cast<std::uint32_t>(spv::FunctionControlMask::MaskNone),
                                function_type});
  for (std::size_t i = 0; i < f_.params.size(); ++i) {
    const Local& l = *local(f_.params[i].variable);
    const std::uint32_t param = l.pointer_param ? l.id : l.param_value;
    head.op(spv::Op::OpFunctionParameter, {param_types[i], param});
    mc_.relax(param, m_.variable(l.var).precision, l.type);
  }
  head.op(spv::Op::OpLabel, {label(0)});
  body_.op(spv::Op::OpFunctionEnd, {});
  mc_.functions.push_back(std::move(head));
  mc_.functions.push_back(std::move(vars_));
  mc_.functions.push_back(std::move(body_));
}

std::uint32_t FunctionEmitter::label(std::uint32_t node) {
  if (labels_[node] == 0) labels_[node] = mc_.new_id();
  return labels_[node];
}

void FunctionEmitter::emit_node(std::uint32_t n) {
  current_node_ = n;
  const CfgNode& node = cfg_.nodes[n];
  if (n != 0) body_.op(spv::Op::OpLabel, {label(n)});
  if (ssa_) ssa_->begin_node(n);
  const std::size_t pred_count = cfg_.preds_of(n).size();
  auto reserve_phi = [&](ir::TypeId type, std::uint32_t id, std::uint32_t var, ir::Precision precision) {
    mc_.relax(id, precision, type);
    const std::size_t at = body_.begin(spv::Op::OpPhi);
    body_.push(type_id(type));
    body_.push(id);
    phi_patches_.push_back(PhiPatch{body_.size(), n, var, type});
    for (std::size_t i = 0; i < pred_count; ++i) {
      body_.push(0);
      body_.push(0);
    }
    body_.finish(at, spv::Op::OpPhi);
  };
  if (!node.stub) {
    if (node.kind == NodeKind::Block) {
      const ir::RegisterId input = f_.block(node.block).merge_input;
      if (input.valid()) {
        const std::uint32_t id = mc_.new_id();
        reserve_phi(m_.reg(input).type, id, kNone, m_.reg(input).precision);
        mc_.reg_ids[input.index()] = id;
      }
    }
    if (ssa_)
      for (const auto& [var, id] : ssa_->phis_at(n)) reserve_phi(ssa_types_[var], id, var, ssa_precisions_[var]);
    if (n == 0) {
      for (const Local& l : locals_) {
        if (l.is_param && !l.pointer_param && l.ssa_index == kNone)
          body_.op(spv::Op::OpStore, {l.id, l.param_value});  // -O0: the parameter lives in memory
      }
      for (ir::VariableId v : implicit_locals_) {
        const Local* l = local(v);
        if (l->ssa_index != kNone && m_.variable(v).initializer.valid())
          ssa_->write(l->ssa_index, mc_.constant(m_.variable(v).initializer));
      }
    }
    if (node.kind == NodeKind::Block) {
      const ir::Block& b = f_.block(node.block);
      emit_declarations(n, b);
      // -g: an OpLine where the location changes; its scope ends with the
      // SPIR-V block, so each block starts afresh.
      ir::SourceLocId line;
      for (std::size_t i = 0; i + 1 < b.instructions.size(); ++i) {
        const ir::SourceLocId at = b.instructions[i].location;
        if (mc_.options.debug_lines && at.valid() && at != line &&
            (!line.valid() || !(m_.location(at) == m_.location(line)))) {
          const ir::SourceLocation& l = m_.location(at);
          body_.op(spv::Op::OpLine, {mc_.source_file(l.file), l.line, l.column});
          line = at;
        }
        emit_instruction(b.instructions[i]);
        if (mc_.failed()) return;
      }
    }
  }
  emit_exit(n);
  if (ssa_) ssa_->end_node();
}

void FunctionEmitter::emit_declarations(std::uint32_t n, const ir::Block& b) {
  for (ir::VariableId v : b.declarations) {
    const Local* l = local(v);
    const ir::ConstantId init = m_.variable(v).initializer;
    if (!l || !init.valid()) continue;
    if (l->ssa_index != kNone) {
      ssa_->write(l->ssa_index, mc_.constant(init));
    } else if (!(n == 0 && l->declared_in_entry)) {
      // The declaration starts the variable's life here (maybe once per
      // loop iteration); the OpVariable itself sits in the entry block.
      body_.op(spv::Op::OpStore, {l->id, mc_.constant(init)});
    }
  }
}

void FunctionEmitter::emit_exit(std::uint32_t n) {
  const CfgNode& node = cfg_.nodes[n];
  // Operands first: they may emit instructions (OpSampledImage, OpUndef's
  // type), which must not come between the merge instruction and the branch.
  std::uint32_t operand = 0;
  if (node.has_operand) operand = value(node.operand);
  else if (node.exit == Exit::Switch) operand = mc_.int_constant(0);  // a once-through DoLoop (cfg.cpp)
  if (node.has_edge_value && (node.exit == Exit::Branch || (node.exit == Exit::CondBranch && node.merge != kNone))) {
    // A CondBranch hands a value only to its If's merge block (cfg.cpp: a
    // branch holding only its Merge is left out).
    const CfgNode& target = cfg_.nodes[node.exit == Exit::Branch ? node.target[0] : node.merge];
    if (target.kind == NodeKind::Block && f_.block(target.block).merge_input.valid()) {
      // `false` handed along the condition's false edge is the condition
      // (and `true` along its true edge), as spirv-opt writes `a && b`:
      // no OpConstantFalse for it.
      const std::optional<bool> constant = ir::constant_bool(m_, node.edge_value);
      const bool is_condition = node.exit == Exit::CondBranch && constant &&
                                node.target[0] != node.target[1] &&
                                node.target[*constant ? 0 : 1] == node.merge;
      edge_values_[n] = is_condition ? operand : value(node.edge_value);
    }
  }
  if (node.merge != kNone) {
    if (node.continue_target != kNone)  // a loop header: its own node, or a Loop's one-block condition
      body_.op(spv::Op::OpLoopMerge, {label(node.merge), label(node.continue_target),
                                      static_cast<std::uint32_t>(spv::LoopControlMask::MaskNone)});
    else
      body_.op(spv::Op::OpSelectionMerge,
               {label(node.merge), static_cast<std::uint32_t>(spv::SelectionControlMask::MaskNone)});
  }
  switch (node.exit) {
    case Exit::Branch: body_.op(spv::Op::OpBranch, {label(node.target[0])}); break;
    case Exit::CondBranch:
      body_.op(spv::Op::OpBranchConditional, {operand, label(node.target[0]), label(node.target[1])});
      break;
    case Exit::Switch: {
      const CfgSwitch& s = cfg_.switches[node.switch_index];
      const std::size_t at = body_.begin(spv::Op::OpSwitch);
      body_.push(operand);
      body_.push(label(s.default_target));
      for (const auto& [literal, target] : s.cases) {
        body_.push(literal);
        body_.push(label(target));
      }
      body_.finish(at, spv::Op::OpSwitch);
      break;
    }
    case Exit::Return: {
      // The validator checked that a Return's value matches the return type.
      if (f_.return_type == ir::predefined::kVoid) body_.op(spv::Op::OpReturn, {});
      else body_.op(spv::Op::OpReturnValue, {operand});
      break;
    }
    case Exit::Kill:
      body_.op(mc_.features.terminate_invocation() ? spv::Op::OpTerminateInvocation : spv::Op::OpKill, {});
      break;
    case Exit::Unreachable: body_.op(spv::Op::OpUnreachable, {}); break;
  }
}

void FunctionEmitter::patch_phis() {
  for (const PhiPatch& patch : phi_patches_) {
    std::size_t w = patch.at;
    for (std::uint32_t p : cfg_.preds_of(patch.node)) {
      std::uint32_t v = 0;
      if (patch.var == kNone) {
        const CfgNode& pred = cfg_.nodes[p];
        const bool hands_value = (pred.exit == Exit::Branch && pred.target[0] == patch.node) ||
                                 (pred.exit == Exit::CondBranch && pred.merge == patch.node &&
                                  pred.continue_target == kNone);  // an If header, not a loop's exit test
        if (hands_value) v = edge_values_[p];
      } else {
        v = ssa_->value_at_end(p, patch.var);
      }
      if (v == 0) v = mc_.undef(patch.type);
      body_.words[w++] = v;
      body_.words[w++] = label(p);
    }
  }
}

}  // namespace sluice::spirv::detail
