// Whether a constant index is out of the range of the composite it indexes.
//
// A constant index past the end of a vector, matrix or array of fixed
// length, or a negative one into any of them (runtime- and spec-sized
// arrays too), is undefined behaviour if it runs (GLSL 4.60 §4.1.9 and
// §5.5; SPIR-V 1.6 §3.56.8 OpAccessChain, whose indexes are signed; Vulkan
// without robustness), and GraphicsFuzz's never-executed code holds such
// accesses, as does folding an index GLSL does not count as constant
// (`a[(i, -1)]`: the sequence operator makes no constant expression, GLSL
// 4.60 §4.3.3). GLSL refuses such an index once it is a constant
// expression (glslang: "index out of range '-1'", for every array), so the
// SPIR-V reader and the GLSL output both ask this one question before they
// index.
#pragma once

#include "ir/ids.h"

namespace sluice::ir {

class Module;

// `composite` is the type indexed (not a pointer to it); `index` a scalar
// integer constant, read as signed (a uint of 2^31 or more is negative, as
// glslang and OpAccessChain read it). A runtime- or spec-sized array's
// length is not known here, so only a negative index is out of its range;
// false for structs and anything not indexed by a value.
bool constant_index_out_of_range(const Module& m, TypeId composite, ConstantId index);

}  // namespace sluice::ir
