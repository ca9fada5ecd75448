// The SPIR-V 1.6r2 structured-control-flow rules, one check each, with
// stable ids. docs/spirv-cfg.md gives the source of every rule in the
// specification or the paper and the function that checks it.
#pragma once

#include <string_view>
#include <vector>

#include "frontend/spirv/cfg/analysis.h"

namespace sluice::spirv_in::cfg {

struct RuleInfo {
  std::string_view id;
  std::string_view summary;
};

// Every rule, in the order they are checked.
inline constexpr RuleInfo kRules[] = {
    {"entry-loop-header", "the entry block is not a loop header"},
    {"entry-targeted", "the entry block is not the target of a branch"},
    {"merge-terminator", "OpLoopMerge precedes OpBranch/OpBranchConditional, OpSelectionMerge precedes "
                         "OpBranchConditional/OpSwitch"},
    {"unstructured-branch", "OpSwitch, and OpBranchConditional with two targets that are no merge block or "
                            "continue target, need a merge instruction"},
    {"merge-unique", "a merge block is the merge block of one header"},
    {"header-sdom-merge", "a header strictly structurally dominates its merge block"},
    {"back-edge-target", "back edges target loop headers"},
    {"loop-back-edges", "every loop header has exactly one back-edge block"},
    {"continue-is-merge", "a loop's continue target is not its merge block"},
    {"header-sd-continue", "a loop header structurally dominates its continue target"},
    {"continue-sd-back-edge", "a continue target structurally dominates the back-edge block"},
    {"back-edge-spd-continue", "the back-edge block structurally post-dominates the continue target"},
    {"exit", "every branch leaving a construct is a structured exit"},
    {"header-merge-contained", "a construct that contains a header contains its merge block"},
    {"enter-via-header", "branches into a construct from outside it target its entry"},
    {"continue-from-outside", "only blocks of the loop construct branch to its continue target"},
    {"switch-sd-case", "a switch header structurally dominates each case target"},
    {"case-fallthrough-out", "a case construct branches to at most one other case construct"},
    {"case-fallthrough-in", "a case construct is branched to by at most one other case construct"},
    {"case-fallthrough-order", "a case falling through to another immediately precedes it in the OpSwitch targets"},
    {"switch-targets-adjacent", "equal OpSwitch targets are adjacent in the operand list"},
};

std::vector<Violation> check_rules(const FunctionCfg& cfg);

}  // namespace sluice::spirv_in::cfg
