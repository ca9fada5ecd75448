// A CFG to flesh from an Alloy instance (the XML the Alloy Analyzer writes
// for a solution of the POPL 2023 paper's model, StructuredDominanceCFG.als;
// Klimis et al., §5–6.1), the paper's main source of skeletons.
//
// The model: sigs Block, HeaderBlock, LoopHeader, SelectionHeader,
// SwitchBlock (a SelectionHeader) and EntryBlock (one atom); fields
// `branch` (Block → index → Block: a block's ordered branch targets),
// `merge` (HeaderBlock → Block) and `continue` (LoopHeader → Block). As the
// paper's alloy-to-spirv does (mc-imperial/spirv-control-flow,
// alloy-to-spirv/convert.py): no branch target is OpReturn, one OpBranch,
// two OpBranchConditional (index 0 the true target); a SwitchBlock is
// OpSwitch with index 0 its default and index i its case literal i.
// Blocks are numbered with the entry first, then in the order the instance
// lists them; the layout is compute_layout's.
//
// The XML is read with expat; malformed XML and instances the model does
// not allow (a branch index missing or twice, a header without a merge, a
// non-switch block with three targets, ...) are errors with the file, line
// and column. The CFG must then pass check.h's rules.
#pragma once

#include <string>
#include <string_view>

#include "flesh/cfg_model.h"
#include "ir/result.h"

namespace sluice::flesh {

Result<Cfg> import_alloy_instance(std::string_view xml, const std::string& file);

// Whether `text` looks like XML (its first non-blank character is '<').
bool looks_like_xml(std::string_view text);

}  // namespace sluice::flesh
