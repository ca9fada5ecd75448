// See flesh_bisect.h.
#include "flesh_bisect.h"

#include <csignal>
#include <cstdlib>

#include "flesh_run.h"

namespace sluice::tools {

BisectResult bisect_failure(const FleshUnit& failed, const UnitFailure& why, const std::array<bool, 4>& variants,
                            const RunUnits& run) {
  BisectResult result;
  struct Item {
    FleshUnit unit;
    UnitFailure failure;
  };
  std::vector<Item> work{{failed, why}};
  while (!work.empty() && result.stopped.empty()) {
    const Item item = work.back();
    work.pop_back();
    const FleshUnit& u = item.unit;
    std::vector<FleshUnit> parts;
    if (u.count > 1) {
      const std::uint64_t half = u.count / 2;
      parts = {{u.mode, u.first, half, u.variant}, {u.mode, u.first + half, u.count - half, u.variant}};
    } else if (u.variant < 0) {
      for (int v = 0; v < static_cast<int>(variants.size()); ++v)
        if (variants[static_cast<std::size_t>(v)]) parts.push_back({u.mode, u.first, 1, v});
    } else {
      result.culprits.push_back({u, item.failure, false});
      continue;
    }
    const auto outcome = run(parts);
    result.runs += static_cast<unsigned>(parts.size());
    bool any = false;
    // Pushed last first, so that culprits come out in test order.
    for (std::size_t i = parts.size(); i-- > 0;) {
      if (!outcome[i]) continue;
      if (outcome[i]->fatal) result.stopped = outcome[i]->reason;
      any = true;
      work.push_back({parts[i], *outcome[i]});
    }
    if (any) continue;
    // Neither part fails alone: the whole set once more, alone.
    const auto again = run({u});
    ++result.runs;
    if (!again[0]) {
      result.not_reproduced.push_back(u);
      continue;
    }
    if (again[0]->fatal) result.stopped = again[0]->reason;
    // It fails only as a whole: narrow it from the left, then from the
    // right, each by binary search for the tightest end that still fails
    // (failing sets are assumed closed under supersets, as ddmin does).
    FleshUnit tight = u;
    UnitFailure failure = *again[0];
    if (u.count > 2) {
      auto fails = [&](const FleshUnit& candidate) {
        const auto r = run({candidate});
        ++result.runs;
        if (r[0] && r[0]->fatal) result.stopped = r[0]->reason;
        if (r[0]) failure = *r[0];
        return r[0].has_value();
      };
      const std::uint64_t end = u.first + u.count;
      // The first test can move up to the second half's start at most.
      std::uint64_t lo = u.first, hi = u.first + u.count / 2 - 1;  // largest failing start in [lo, hi]
      while (lo < hi && result.stopped.empty()) {
        const std::uint64_t mid = lo + (hi - lo + 1) / 2;
        if (fails({u.mode, mid, end - mid, u.variant})) lo = mid;
        else hi = mid - 1;
      }
      tight.first = lo;
      std::uint64_t lo_end = u.first + u.count / 2 + 1, hi_end = end;  // smallest failing end
      while (lo_end < hi_end && result.stopped.empty()) {
        const std::uint64_t mid = lo_end + (hi_end - lo_end) / 2;
        if (fails({u.mode, tight.first, mid - tight.first, u.variant})) hi_end = mid;
        else lo_end = mid + 1;
      }
      tight.count = hi_end - tight.first;
    }
    result.culprits.push_back({tight, failure, true});
  }
  return result;
}

namespace {

// Aborts or dies for those kinds; true (the caller reports a lost device) for Lost.
bool fire(const InjectedFailure& inject) {
  if (inject.kind == InjectedFailure::Kind::Abort) std::abort();
  if (inject.kind == InjectedFailure::Kind::Segv) std::raise(SIGSEGV);
  return true;
}

}  // namespace

std::optional<InjectedFailure> parse_injected_failure(const std::string& text, std::string& error) {
  std::vector<std::string> fields;
  for (std::size_t at = 0;;) {
    const auto colon = text.find(':', at);
    fields.push_back(text.substr(at, colon == std::string::npos ? std::string::npos : colon - at));
    if (colon == std::string::npos) break;
    at = colon + 1;
  }
  InjectedFailure f;
  error = "expected KIND:MODE:TEST[+TEST][:VARIANT] or KIND:loop with KIND abort, segv or lost";
  if (fields[0] == "abort") f.kind = InjectedFailure::Kind::Abort;
  else if (fields[0] == "segv") f.kind = InjectedFailure::Kind::Segv;
  else if (fields[0] == "lost") f.kind = InjectedFailure::Kind::Lost;
  else return std::nullopt;
  if (fields.size() == 2 && fields[1] == "loop") {
    f.on_loop = true;
    error.clear();
    return f;
  }
  if (fields.size() < 3 || fields.size() > 4) return std::nullopt;
  const auto mode = flesh::mode_from_string(fields[1]);
  if (!mode) return std::nullopt;
  f.mode = *mode;
  for (std::size_t at = 0;;) {
    const auto plus = fields[2].find('+', at);
    const std::string n = fields[2].substr(at, plus == std::string::npos ? std::string::npos : plus - at);
    if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos || n.size() > 18) return std::nullopt;
    f.tests.push_back(std::stoull(n));
    if (plus == std::string::npos) break;
    at = plus + 1;
  }
  if (fields.size() == 4) {
    std::size_t v = 0;
    while (v < kFleshVariantCount && fields[3] != kFleshVariants[v]) ++v;
    if (v == kFleshVariantCount) return std::nullopt;
    f.variant = static_cast<int>(v);
  }
  error.clear();
  return f;
}

bool injected_failure_fires(const InjectedFailure& inject, const FleshUnit& unit,
                            const std::vector<std::pair<std::uint64_t, std::size_t>>& jobs) {
  if (inject.kind == InjectedFailure::Kind::None || inject.on_loop || inject.mode != unit.mode) return false;
  for (std::uint64_t t : inject.tests) {
    bool present = false;
    for (const auto& [test, variant] : jobs)
      present = present || (test == t && (inject.variant < 0 || static_cast<int>(variant) == inject.variant));
    if (!present) return false;
  }
  return fire(inject);
}

bool injected_failure_fires(const InjectedFailure& inject, const std::vector<flesh::Test>& tests) {
  if (inject.kind == InjectedFailure::Kind::None || !inject.on_loop) return false;
  for (const flesh::Test& t : tests)
    for (const flesh::Block& b : t.cfg.blocks)
      if (b.merge_kind == flesh::MergeKind::Loop) return fire(inject);
  return false;
}

}  // namespace sluice::tools
