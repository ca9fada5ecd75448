// Function definitions and calls. Every definition becomes an IR function
// before any body is translated, so calls may refer to functions defined
// later in the source. Parameters are Function-storage variables; a call
// passes values for `in` parameters and pointers for `out`/`inout` ones.
//
// GLSL copies out/inout arguments in and back out (copy-in/copy-out), so an
// argument that is not a plain local variable goes through a temporary: the
// callee writes the temporary, and the caller stores it to the argument's
// lvalue after the call, in argument order.
#include <fmt/format.h>

#include "frontend/glsl/translator.h"
#include "ir/typing.h"

namespace sluice::glsl_in::detail {
namespace {

std::string plain_name(const glslang::TString& mangled) {
  std::string s(mangled.c_str(), mangled.size());
  if (auto paren = s.find('('); paren != std::string::npos) s.resize(paren);
  return s;
}

ir::ParamDirection direction(glslang::TStorageQualifier q) {
  switch (q) {
    case glslang::EvqOut: return ir::ParamDirection::Out;
    case glslang::EvqInOut: return ir::ParamDirection::InOut;
    default: return ir::ParamDirection::In;
  }
}

// The local symbol an argument names directly, if any.
const TIntermSymbol* local_symbol(TIntermTyped* arg) {
  const TIntermSymbol* s = arg->getAsSymbolNode();
  if (!s) return nullptr;
  const glslang::TStorageQualifier q = s->getQualifier().storage;
  return q == glslang::EvqTemporary ? s : nullptr;
}

}  // namespace

void Translator::declare_functions(const TIntermAggregate* root) {
  const std::string& entry = ast_.getEntryPointMangledName();
  for (TIntermNode* node : root->getSequence()) {
    if (failed_) return;
    const TIntermAggregate* fn = node ? node->getAsAggregate() : nullptr;
    if (!fn || fn->getOp() != glslang::EOpFunction) continue;
    const std::string mangled(fn->getName().c_str(), fn->getName().size());
    locate(fn);
    const ir::TypeId ret = type(fn->getType(), fn->getLoc());
    if (!ret.valid()) return;
    const bool is_entry = mangled == entry;
    const ir::FunctionId f = builder_.begin_function(
        ir::Name{is_entry ? "main" : plain_name(fn->getName()),
                 is_entry ? ir::NameSource::Internal : ir::NameSource::Temporary},
        ret, precision(fn->getQualifier()));
    functions[mangled] = f;
    const TIntermAggregate* params = fn->getSequence().empty() || !fn->getSequence()[0]
                                         ? nullptr
                                         : fn->getSequence()[0]->getAsAggregate();
    if (!params) continue;
    for (TIntermNode* p : params->getSequence()) {
      const TIntermSymbol* s = p ? p->getAsSymbolNode() : nullptr;
      if (!s) continue;
      const ir::TypeId pt = type(s->getType(), s->getLoc());
      if (!pt.valid()) return;
      variables[s->getId()] =
          builder_.add_parameter(f, ir::Name{std::string(s->getName().c_str()), ir::NameSource::Temporary}, pt,
                                 direction(s->getQualifier().storage), precision(s->getQualifier()));
    }
  }
}

void Translator::define_function(const TIntermAggregate* fn, std::span<TIntermNode* const> global_initializers) {
  const std::string mangled(fn->getName().c_str(), fn->getName().size());
  const ir::FunctionId f = functions.at(mangled);
  current_function = f;
  entry_block = module_.function(f).entry;
  return_type = module_.function(f).return_type;
  builder_.set_function(f);
  builder_.set_block(entry_block);

  // Globals' initializers run first in the entry point, in source order. A
  // constant one that runs before any other global code becomes the
  // private variable's IR initializer.
  bool global_code_ran = false;
  std::vector<TIntermNode*> pending(global_initializers.begin(), global_initializers.end());
  for (std::size_t i = 0; i < pending.size() && !failed_; ++i) {
    TIntermNode* node = pending[i];
    if (const TIntermAggregate* seq = node->getAsAggregate(); seq && seq->getOp() == glslang::EOpSequence) {
      pending.insert(pending.begin() + static_cast<std::ptrdiff_t>(i) + 1, seq->getSequence().begin(),
                     seq->getSequence().end());
      continue;
    }
    const TIntermBinary* assign = node->getAsBinaryNode();
    const TIntermSymbol* target = assign && assign->getOp() == glslang::EOpAssign ? assign->getLeft()->getAsSymbolNode()
                                                                                  : nullptr;
    const TIntermConstantUnion* value = assign ? assign->getRight()->getAsConstantUnion() : nullptr;
    if (!global_code_ran && target && value && target->getQualifier().storage == glslang::EvqGlobal) {
      const ir::VariableId v = global_variable(target);
      const ir::ConstantId c = constant(value->getType(), value->getConstArray(), value->getLoc());
      if (v.valid() && c.valid() && module_.constant(c).type == ir::pointee(module_, module_.variable(v).type)) {
        module_.variable(v).initializer = c;
        continue;
      }
    }
    global_code_ran = true;
    statement(node);
  }

  const auto& seq = fn->getSequence();
  if (seq.size() > 1) statement(seq[1]);
  if (failed_ || terminated()) return;
  // Falling off the end: GLSL leaves a non-void result undefined; zero is
  // as good a value as any.
  locate(fn);
  if (return_type == ir::predefined::kVoid) {
    terminate(ir::Opcode::Return);
  } else {
    const ir::ConstantId z = zero(return_type);
    if (!z.valid()) {
      unsupported(fn->getLoc(), "falling off the end of a function that returns an opaque type");
      return;
    }
    terminate(ir::Opcode::Return, z);
  }
}

Value Translator::call(const TIntermAggregate* node) {
  if (failed_) return {};
  const std::string mangled(node->getName().c_str(), node->getName().size());
  auto it = functions.find(mangled);
  if (it == functions.end()) {
    unsupported(node->getLoc(), fmt::format("calling '{}', which has no definition", plain_name(node->getName())));
    return {};
  }
  const ir::FunctionId f = it->second;
  const auto& args = node->getSequence();
  const std::size_t n = module_.function(f).params.size();
  if (args.size() != n) {
    error(node->getLoc(), "internal error: argument count does not match the definition");
    return {};
  }
  std::vector<ir::Operand> operands{ir::Operand(f)};
  struct CopyBack {
    ir::Operand target;
    ir::VariableId temp;
  };
  std::vector<CopyBack> copies;
  for (std::size_t i = 0; i < n && !failed_; ++i) {
    TIntermTyped* arg = args[i]->getAsTyped();
    const ir::FunctionParam param = module_.function(f).params[i];
    const ir::TypeId param_type = ir::pointee(module_, module_.variable(param.variable).type);
    if (param.direction == ir::ParamDirection::In) {
      operands.push_back(coerce(rvalue(arg), param_type, arg));
      continue;
    }
    // A local passed to one out parameter only, and of the parameter's
    // type, is passed directly: no other code can see it during the call.
    if (const TIntermSymbol* s = local_symbol(arg)) {
      std::size_t uses = 0;
      for (TIntermNode* other : args)
        if (const TIntermSymbol* o = other->getAsSymbolNode(); o && o->getId() == s->getId()) ++uses;
      const ir::Operand p = lvalue(arg);
      if (uses == 1 && ir::pointee(module_, type_of(p)) == param_type) {
        operands.push_back(p);
        continue;
      }
    }
    const ir::Operand target = lvalue(arg);
    if (failed_) return {};
    const ir::VariableId temp =
        temporary(fmt::format("{}_arg{}", plain_name(node->getName()), i), param_type,
                  module_.variable(param.variable).precision);
    if (param.direction == ir::ParamDirection::InOut)
      store(temp, coerce(load(Value::pointer(target), arg), param_type, arg));
    operands.push_back(temp);
    copies.push_back(CopyBack{target, temp});
  }
  if (failed_) return {};
  locate(node);
  const ir::Operand result = emit(ir::Opcode::Call, operands, node);
  for (const CopyBack& c : copies) {
    const ir::Operand v = load(Value::pointer(c.temp));
    store(c.target, coerce(v, ir::pointee(module_, type_of(c.target)), node));
  }
  return Value::rvalue(result);
}

}  // namespace sluice::glsl_in::detail
