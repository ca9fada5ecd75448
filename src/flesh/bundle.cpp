// See bundle.h.
#include "flesh/bundle.h"

#include <algorithm>

#include "exec/vertex_shader.h"

namespace sluice::flesh {

bool bundle_compatible(const Test& a, const Test& b) {
  return a.mode == b.mode && a.invocations == b.invocations && a.local_size == b.local_size;
}

Result<Bundle> make_bundle(std::span<const Test* const> tests) {
  Bundle b;
  std::uint32_t dir_words = 0;
  for (const Test* t : tests) {
    b.slots.push_back({dir_words, b.output_words});
    dir_words += static_cast<std::uint32_t>(t->directions.size());
    b.output_words += static_cast<std::uint32_t>(t->expected.size());
  }
  b.directions.assign(std::max(1u, dir_words), 0);
  for (std::size_t k = 0; k < tests.size(); ++k)
    std::copy(tests[k]->directions.begin(), tests[k]->directions.end(),
              b.directions.begin() + std::ptrdiff_t(b.slots[k].dir_offset));
  b.groups = tests.front()->groups();
  b.assembly = emit_bundle_assembly(tests, b.slots, static_cast<std::uint32_t>(b.directions.size()), b.output_words);
  auto words = exec::assemble_spirv(b.assembly, 0x00010000);
  if (!words) return internal_error("the bundled SPIR-V does not assemble: " + words.error());
  b.spirv = std::move(*words);
  return b;
}

}  // namespace sluice::flesh
