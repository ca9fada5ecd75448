// A CFG to flesh taken from an existing SPIR-V module (the paper's second
// source of skeletons was the Vulkan CTS, Klimis et al., POPL 2023 §6.1):
// the entry point's function, its blocks in module order, their merge
// instructions and terminators; every other instruction is dropped, since
// fleshing replaces the blocks' contents. Compute shaders cannot OpKill or
// OpTerminateInvocation, so those become OpReturn (the invocation ends
// either way); OpReturnValue becomes OpReturn.
#pragma once

#include <string>

#include "flesh/cfg_model.h"
#include "frontend/spirv/module.h"
#include "ir/result.h"

namespace sluice::flesh {

// The module must pass Sluice's structured-control-flow rules (`sluice
// cfg`); an error names the first violated rule, or why the graph cannot
// be fleshed (no path from the entry to a return).
Result<Cfg> import_cfg(const spirv_in::Module& module);

}  // namespace sluice::flesh
