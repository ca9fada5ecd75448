// Named passes and pipelines, for the driver's -O0/-O1, --passes=a,b,c,
// --print-after-all and --validate-each-pass.
//
// A pipeline is a list of stages; a stage is a list of passes run in order,
// repeated (up to max_rounds) while any of them still changes the module.
// Validation is a callback (the driver and the tests pass
// validator::validate), so this library does not depend on the validator;
// it runs on the input and after every pass, and its report names the pass
// that broke the IR.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "ir/result.h"
#include "transform/passes.h"

namespace sluice::transform {

struct PassInfo {
  std::string name;  // as --passes spells it
  std::string description;
  std::function<PassResult(ir::Module&)> run;
};

struct Stage {
  std::vector<std::string> passes;
  unsigned max_rounds = 1;
};

struct Pipeline {
  std::vector<Stage> stages;
};

struct RunOptions {
  // Called after every pass with the pass's name, when print_after_all is set.
  bool print_after_all = false;
  std::function<void(std::string_view pass, const ir::Module&)> print;
  // When set: problems with the module, one message each; empty if valid.
  std::function<std::vector<std::string>(const ir::Module&)> validate;
};

struct PassRun {
  std::string name;
  bool changed = false;
  double seconds = 0;  // wall time, for the driver's reports; tests never look at it
};

class PassManager {
 public:
  // Knows the standard passes (passes.h) under their names.
  PassManager();

  void add(PassInfo pass);
  const PassInfo* find(std::string_view name) const;
  const std::vector<PassInfo>& passes() const { return passes_; }

  // "O0" (only what outputs need) or "O1" (the default); "-O0"/"-O1" too.
  Result<Pipeline> pipeline(std::string_view level) const;
  // "a,b,c": each pass once, in that order. Unknown names are an error.
  Result<Pipeline> parse_pass_list(std::string_view list) const;

  // Runs the pipeline; stops at the first failing pass or validation.
  Result<std::vector<PassRun>> run(ir::Module& m, const Pipeline& pipeline, const RunOptions& options = {}) const;

 private:
  std::vector<PassInfo> passes_;
};

// "; IR after <pass>\n" followed by the module's dump: what
// --print-after-all writes for each pass.
std::string describe_after_pass(std::string_view pass, const ir::Module& m);

}  // namespace sluice::transform
