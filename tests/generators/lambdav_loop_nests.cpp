// Loop-nest generator (see loop_nests.h). Each level k of the nest is
//
//   ((rec-func (iK aK) [(let ((dK (* iK 2))) ...]
//      (if EXIT E STEP))            ; or (if (not EXIT) STEP E)
//    INIT 0)
//
//   EXIT = TEST | (or TEST (> aK LIMIT))     TEST = (eq iK 0) | (< iK S) | (<= iK 0)
//   E    = aK | (+ aK iK)
//   STEP = (rec (- iK S) (+ aK TERM)), or with two recs
//          (if (> iK 1) (rec (- iK S) (+ aK TERM)) (rec (- iK S) (+ aK (* TERM 2))))
//   TERM = the next level's loop [+ dK], or at the innermost level (+ iK 1) / dK
//
// Counters start at a non-negative multiple of their step S and go down by
// S, so every test ends the loop: a level runs at most 4 times, whatever
// the pixel, and the whole nest at most 4^depth inner steps.
#include "lambdav_loop_nests.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace sluice::lambdav::generate {

namespace {

// SplitMix64: a fixed sequence for a seed on every platform.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint32_t below(std::uint32_t n) {
    state_ += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<std::uint32_t>(z % n);
  }
  bool chance(std::uint32_t one_in) { return below(one_in) == 0; }

 private:
  std::uint64_t state_;
};

enum class Test { Equal, Below, AtMost };

struct Level {
  float step = 1;
  Test test = Test::Equal;
  bool exit_in_else = false;
  bool init_from_outer = false;
  float init = 0;          // constant start (levels > 0), or the base of level 0
  bool with_let = false;
  bool early_exit = false;
  float limit = 0;
  bool two_recs = false;
  bool exit_plus_counter = false;
  float max_start = 0;     // the largest value the counter starts from
};

std::string number(float v) { return fmt::format("{}", v); }

class Nest {
 public:
  explicit Nest(std::uint32_t seed) : rng_(seed) {
    const std::size_t depth = 2 + rng_.below(3);
    constexpr float kSteps[] = {1.0f, 0.5f, 0.25f};
    for (std::size_t k = 0; k < depth; ++k) {
      Level l;
      l.step = kSteps[rng_.below(3)];
      l.test = static_cast<Test>(rng_.below(3));
      l.exit_in_else = rng_.chance(2);
      l.with_let = rng_.chance(4);
      l.early_exit = rng_.chance(5);
      l.limit = static_cast<float>(2 + rng_.below(6));
      l.two_recs = rng_.chance(6);
      l.exit_plus_counter = rng_.chance(4);
      if (k == 0) {
        // Level 0 starts at init + step * column, column 0..3: 1 to 4 runs.
        l.init = l.step;
        l.max_start = l.step * 4;
      } else {
        const Level& outer = levels_.back();
        // The outer counter is a multiple of this step when its step is, and
        // starting from it runs at most 4 times when it is at most 4 steps.
        const bool fits = std::fmod(outer.step, l.step) == 0 && outer.max_start <= 4 * l.step;
        l.init_from_outer = fits && !rng_.chance(4);
        l.init = l.step * static_cast<float>(1 + rng_.below(4));
        l.max_start = l.init_from_outer ? outer.max_start : l.init;
      }
      levels_.push_back(l);
    }
  }

  LoopNest make() {
    LoopNest out;
    std::string body = level_text(0);
    float largest = 0;
    std::array<float, 4> results{};
    for (std::uint32_t column = 0; column < 4; ++column) {
      const float start = levels_[0].init + levels_[0].step * static_cast<float>(column);
      results[column] = run(0, start);
      largest = std::max(largest, std::fabs(results[column]));
    }
    float scale = 1;  // a power of two above every result: scaling is exact
    while (scale <= largest) scale *= 2;
    const float inverse = 1 / scale;
    for (std::uint32_t column = 0; column < 4; ++column)
      for (std::uint32_t y : {5u, 40u}) {
        ExpectedPixel p;
        p.x = 16 * column + 8;
        p.y = y;
        p.rgba = {results[column] * inverse, static_cast<float>(column) * 0.25f, 0, 1};
        out.expected.push_back(p);
      }
    out.shape = shape();
    out.source = fmt::format("; A generated λV loop nest: {}\n", out.shape);
    for (const ExpectedPixel& p : out.expected)
      out.source += fmt::format("; expect {} {}: {} {} {} {}\n", p.x, p.y, p.rgba[0], p.rgba[1], p.rgba[2], p.rgba[3]);
    out.source += "(define column (floor (* (.x (frag-coord)) 0.0625)))\n";
    out.source += fmt::format("(vec4 (* {} {}) (* column 0.25) 0 1)\n", body, number(inverse));
    return out;
  }

 private:
  // The program text of level k, applied to its start.
  std::string level_text(std::size_t k) const {
    const Level& l = levels_[k];
    const std::string i = fmt::format("i{}", k), a = fmt::format("a{}", k), d = fmt::format("d{}", k);
    const std::string s = number(l.step);
    std::string test = l.test == Test::Equal   ? fmt::format("(eq {} 0)", i)
                       : l.test == Test::Below ? fmt::format("(< {} {})", i, s)
                                               : fmt::format("(<= {} 0)", i);
    if (l.early_exit) test = fmt::format("(or {} (> {} {}))", test, a, number(l.limit));
    const std::string value = l.exit_plus_counter ? fmt::format("(+ {} {})", a, i) : a;
    std::string term = k + 1 < levels_.size() ? level_text(k + 1) : (l.with_let ? d : fmt::format("(+ {} 1)", i));
    if (l.with_let && k + 1 < levels_.size()) term = fmt::format("(+ {} {})", d, term);
    std::string step = fmt::format("(rec (- {} {}) (+ {} {}))", i, s, a, term);
    if (l.two_recs)
      step = fmt::format("(if (> {} 1) {} (rec (- {} {}) (+ {} (* {} 2))))", i, step, i, s, a, term);
    std::string body = l.exit_in_else ? fmt::format("(if (not {}) {} {})", test, step, value)
                                      : fmt::format("(if {} {} {})", test, value, step);
    if (l.with_let) body = fmt::format("(let (({} (* {} 2))) {})", d, i, body);
    const std::string start = k == 0 ? fmt::format("(+ {} (* {} column))", number(l.init), s)
                              : l.init_from_outer ? fmt::format("i{}", k - 1)
                                                  : number(l.init);
    return fmt::format("((rec-func ({} {}) {}) {} 0)", i, a, body, start);
  }

  // What level k gives from `start`: the program's semantics, in float32 in
  // the program's order of operations.
  float run(std::size_t k, float start) const {
    const Level& l = levels_[k];
    float i = start, a = 0;
    for (;;) {
      const float d = i * 2.0f;
      bool stop = l.test == Test::Equal ? i == 0.0f : l.test == Test::Below ? i < l.step : i <= 0.0f;
      if (l.early_exit) stop = stop || a > l.limit;
      if (stop) return l.exit_plus_counter ? a + i : a;
      float term = 0;
      if (k + 1 < levels_.size()) {
        const float inner = run(k + 1, levels_[k + 1].init_from_outer ? i : levels_[k + 1].init);
        term = l.with_let ? d + inner : inner;
      } else {
        term = l.with_let ? d : i + 1.0f;
      }
      const float next_a = (l.two_recs && !(i > 1.0f)) ? a + term * 2.0f : a + term;
      i = i - l.step;
      a = next_a;
    }
  }

  std::string shape() const {
    std::string s = fmt::format("depth {}", levels_.size());
    for (const Level& l : levels_) {
      s += fmt::format("; {} counter step {}{}, exit in {}", l.step == 1 ? "int" : "float", number(l.step),
                       l.init_from_outer ? " from the outer counter" : "", l.exit_in_else ? "else" : "then");
      if (l.with_let) s += ", let";
      if (l.early_exit) s += ", early exit";
      if (l.two_recs) s += ", two recs";
    }
    return s;
  }

  Random rng_;
  std::vector<Level> levels_;
};

}  // namespace

LoopNest loop_nest(std::uint32_t seed) { return Nest(seed).make(); }

}  // namespace sluice::lambdav::generate
