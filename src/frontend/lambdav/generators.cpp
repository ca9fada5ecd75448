// Program generators (see generators.h). Each builds its text with string
// appends only: the sizes reach millions of nodes.
#include "frontend/lambdav/generators.h"

#include <algorithm>

#include <fmt/format.h>

namespace sluice::lambdav::generate {

std::string nested_lets(std::size_t depth, std::size_t width) {
  depth = std::max<std::size_t>(depth, 1);
  width = std::max<std::size_t>(width, 1);
  std::string s = "(vec4 0 0 0\n";
  for (std::size_t d = 0; d < depth; ++d) {
    s += "(let (";
    for (std::size_t w = 0; w < width; ++w) {
      if (d == 0)
        s += fmt::format("(a{}_{} {}.5)", d, w, w % 7);
      else
        s += fmt::format("(a{}_{} (+ a{}_{} 1.5))", d, w, d - 1, (w + 1) % width);
    }
    s += ")\n";
  }
  s += "(+ 0";
  for (std::size_t w = 0; w < width; ++w) s += fmt::format(" a{}_{}", depth - 1, w);
  s += ")";
  s.append(depth, ')');
  s += ")\n";
  return s;
}

std::string nested_lets_of_size(std::size_t nodes) {
  constexpr std::size_t kDepth = 64;
  return nested_lets(kDepth, std::max<std::size_t>(nodes / (6 * kDepth), 1));
}

std::string arithmetic_chain(std::size_t count) {
  std::string s = "(define a0 (.x (frag-coord)))\n";
  for (std::size_t i = 1; i <= count; ++i)
    s += fmt::format("(define a{} (+ (* a{} 0.5) (.y (frag-coord)) {}.25))\n", i, i - 1, i % 10);
  s += fmt::format("(vec4 a{} 0 0 1)\n", count);
  return s;
}

std::string arithmetic_chain_of_size(std::size_t nodes) { return arithmetic_chain(std::max<std::size_t>(nodes / 13, 1)); }

std::string nested_rec_funcs(std::size_t count) {
  std::string s;
  for (std::size_t i = 0; i < count; ++i)
    s += fmt::format(
        "(define loop{} (rec-func (n acc)\n"
        "  (if (< n 1) acc\n"
        "    (rec (- n 1) (+ acc ((rec-func (m b) (if (< m 1) b (rec (- m 1) (* b 1.5)))) n {}.5))))))\n",
        i, i % 10);
  s += "(vec4 (+ 0";
  for (std::size_t i = 0; i < count; ++i) s += fmt::format(" (loop{} {} 0)", i, i % 5 + 1);
  s += ") 0 0 1)\n";
  return s;
}

std::string nested_rec_funcs_of_size(std::size_t nodes) {
  return nested_rec_funcs(std::max<std::size_t>(nodes / 50, 1));
}

std::string deep_lets(std::size_t levels) {
  std::string s;
  s.reserve(levels * 24 + 64);
  for (std::size_t i = 0; i < levels; ++i) s += i == 0 ? "(let ((x0 1)) " : fmt::format("(let ((x{} (+ x{} 1))) ", i, i - 1);
  s += levels == 0 ? "1" : fmt::format("x{}", levels - 1);
  s.append(levels, ')');
  return "(vec4 0 0 0 " + s + ")\n";
}

std::string doubling(std::size_t levels, bool capture_runtime) {
  std::string s = "(define twice (func (f) (func (x) (f (f x)))))\n";
  s += capture_runtime ? "(define k (.x (frag-coord)))\n(define f0 (func (x) (+ x k)))\n"
                       : "(define f0 (func (x) (+ x 1)))\n";
  for (std::size_t i = 1; i <= levels; ++i) s += fmt::format("(define f{} (twice f{}))\n", i, i - 1);
  s += fmt::format("(vec4 (f{} 0) 0 0 1)\n", levels);
  return s;
}

}  // namespace sluice::lambdav::generate
