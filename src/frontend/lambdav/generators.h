// Generated λV programs of a chosen size, for the benchmark (bench/) and the
// limit tests: they exercise the shapes whose cost grows with the program.
// Every generator returns a complete program whose output is a Vec(4, f).
#pragma once

#include <cstddef>
#include <string>

namespace sluice::lambdav::generate {

// Lets nested `depth` deep (at most the nesting limit allows), each binding
// `width` names from the previous let's: about 6 * depth * width nodes.
std::string nested_lets(std::size_t depth, std::size_t width);
// Roughly `nodes` syntax nodes of nested lets at a fixed depth of 64.
std::string nested_lets_of_size(std::size_t nodes);

// A chain of `count` defines, each an arithmetic step on the one before and
// on (frag-coord): about 13 nodes per define.
std::string arithmetic_chain(std::size_t count);
std::string arithmetic_chain_of_size(std::size_t nodes);

// `count` defines of a rec-func whose body applies a nested rec-func (a loop
// in a loop), all summed into the output: about 60 nodes each.
std::string nested_rec_funcs(std::size_t count);
std::string nested_rec_funcs_of_size(std::size_t nodes);

// `levels` lets nested one inside the other's body: the parenthesis depth is
// about 3 * levels + 3, so large `levels` exceed the nesting limit.
std::string deep_lets(std::size_t levels);

// Repeated doubling through a higher-order function: f_k applies f_{k-1}
// twice, so inlining every application would make 2^levels copies of f_0.
// With `capture_runtime` the functions capture a run-time value, so they
// cannot become IR functions and are inlined.
std::string doubling(std::size_t levels, bool capture_runtime);

}  // namespace sluice::lambdav::generate
