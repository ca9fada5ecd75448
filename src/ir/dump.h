// The text form of a module, in the ANGLE IR's debug format: a header,
// sections Types / Constants / Variables / Globals / Functions, and each
// function's block tree drawn with `|`, `+->` and `V___`. parse.h reads the
// same text back; dump(parse(dump(m))) == dump(m).
#pragma once

#include <string>

#include "ir/module.h"

namespace sluice::ir {

std::string dump(const Module& m);

struct DumpOptions {
  // Each instruction's source location after it, "  @ file:line:col"
  // (`ir-dump --locations`). Such text is for reading: the parser does
  // not take it back.
  bool locations = false;
};
std::string dump(const Module& m, const DumpOptions& options);

// The spelling the dump gives a variable's name: interface names get "_u"
// in front, temporaries "t" in front and "_<id>" behind (the ANGLE convention);
// internal names are kept.
std::string dumped_variable_name(const Variable& v, VariableId id);

// One instruction as the dump prints it (without the contextual precision
// of constant operands), for messages that point into the dump.
std::string dump_instruction(const Module& m, const Instruction& inst);

// A float as the shortest text that reads back to the same bits, always
// with a '.', an exponent, or as nan/inf: 1.0, 0.5, 1e+20, -inf, nan(0x7fc00000).
std::string format_float(float f);
std::string format_double(double d);

}  // namespace sluice::ir
