// Whether a constant index is past the end of the composite it indexes.
//
// A constant index past the end of a vector, matrix or array of fixed
// length (a negative one too, read as unsigned) is undefined behaviour if it
// runs (GLSL 4.60 §4.1.9 and §5.5; SPIR-V 1.6 §3.56.8 OpAccessChain; Vulkan
// without robustness), and GraphicsFuzz's never-executed code holds such
// accesses. GLSL refuses the index at compile time, so the SPIR-V reader and
// the GLSL output both ask this one question before they index.
#pragma once

#include "ir/ids.h"

namespace sluice::ir {

class Module;

// `composite` is the type indexed (not a pointer to it); `index` a scalar
// integer constant. False for structs and runtime- or spec-sized arrays,
// whose length is not known here.
bool constant_index_out_of_range(const Module& m, TypeId composite, ConstantId index);

}  // namespace sluice::ir
