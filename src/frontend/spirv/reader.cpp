// The reader's driver: module-level declarations, then each function
// (reader_internal.h says which file does what).
#include "frontend/spirv/reader.h"

#include "frontend/spirv/reader_internal.h"
#include "validator/validator.h"

namespace sluice::spirv_in {
namespace detail {

std::optional<ReadError> Reader::run() {
  if (auto e = read_globals()) return e;
  def_block_.assign(sm_.bound, kNone);
  spill_.assign(sm_.bound, ir::VariableId());
  phi_var_.assign(sm_.bound, ir::VariableId());
  for (std::size_t i = 0; i < sm_.functions.size(); ++i)
    if (auto e = read_function(sm_.functions[i], functions_[i])) return e;
  return std::nullopt;
}

}  // namespace detail

Result<ir::Module> read(const Module& module, const ReadOptions& options) {
  ir::Module m;
  detail::Reader reader(module, m, options);
  if (auto e = reader.run()) return Error{e->message};
  // A module that reads into invalid IR (corrupt input the checks above let
  // through) is an error here, never IR that breaks the passes' contract.
  if (const auto problems = validator::validate(m); !problems.empty())
    return Error{options.file_name + ": error: the module does not translate to valid IR: " +
                 validator::describe(m, std::span(problems).first(1))};
  return m;
}

Result<ir::Module> read_bytes(std::string_view bytes, const ReadOptions& options) {
  ParseResult parsed = parse_bytes(bytes);
  if (!parsed.ok()) return Error{options.file_name + ": error: " + parsed.error().describe()};
  return read(parsed.value(), options);
}

}  // namespace sluice::spirv_in
