// A module as a Graphviz graph, for looking at block trees: one cluster per
// function, one box per block (its title and its lines as the dump prints
// them), solid edges to sub-blocks labelled by their role, dashed edges to
// merge blocks. Render with `dot -Tsvg`.
#pragma once

#include <string>

#include "ir/module.h"

namespace sluice::ir {

std::string dot(const Module& m);

}  // namespace sluice::ir
