// The text-form parser: reads what dump() writes (docs/ir.md, "Text form
// grammar") back into a Module, so that dump(parse(dump(m))) == dump(m)
// byte for byte. It checks the syntax and that every id the text refers to
// exists; whether the IR makes sense is the validator's business.
#pragma once

#include <optional>
#include <string_view>

#include "ir/diagnostic.h"
#include "ir/module.h"

namespace sluice::ir {

struct ParseResult {
  std::optional<Module> module;  // set exactly when diagnostics holds no error
  Diagnostics diagnostics;       // positions refer to the parsed text; render() them with it

  bool ok() const { return module.has_value(); }
};

// Parses a whole module. `file_name` only labels the diagnostics. Never
// throws and never crashes on malformed text: parsing stops at the first
// error, which is returned as a diagnostic.
//
// Limits: register ids may not exceed the text's length plus 65536 (so a
// short text cannot make the parser allocate a huge register table), and no
// id may exceed Operand::kMaxValue.
ParseResult parse_module(std::string_view text, std::string_view file_name);

}  // namespace sluice::ir
