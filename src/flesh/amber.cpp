// A fleshed test as an AmberScript (the paper's §6.1 wraps its tests the
// same way): the SPIR-V assembly, the directions buffer, a zeroed output
// buffer, one compute dispatch and one EXPECT of the whole predicted
// output. Google's Amber runs it, and so does Sluice's own executor
// (src/exec/amber_executor.h), whose subset includes compute pipelines.
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "flesh/amber.h"

namespace sluice::flesh {

namespace {

std::string numbers(const std::vector<std::uint32_t>& values) {
  std::string s;
  for (std::size_t i = 0; i < values.size(); ++i) s += fmt::format("{}{}", i % 16 == 0 ? "\n " : " ", values[i]);
  return s;
}

}  // namespace

std::string amber_script(const Test& t, const std::string& name) {
  std::string s = "#!amber\n";
  s += fmt::format("# {}: sluice flesh, mode {}, {} blocks, {} invocation(s)\n", name, to_string(t.mode), t.cfg.size(),
                   t.invocations);
  s += "# expected path of invocation 0: " + path_text(t, 0) + "\n\n";
  s += "SHADER compute flesh SPIRV-ASM TARGET_ENV spv1.0\n" + t.assembly + "END\n\n";
  std::vector<std::uint32_t> dirs = t.directions;
  if (dirs.empty()) dirs.push_back(0);
  s += "BUFFER directions DATA_TYPE uint32 DATA" + numbers(dirs) + "\nEND\n\n";
  s += fmt::format("BUFFER out DATA_TYPE uint32 SIZE {} FILL 0\n\n", t.expected.size());
  s += "PIPELINE compute pipeline\n  ATTACH flesh\n";
  s += "  BIND BUFFER directions AS storage DESCRIPTOR_SET 0 BINDING 0\n";
  s += "  BIND BUFFER out AS storage DESCRIPTOR_SET 0 BINDING 1\nEND\n\n";
  s += fmt::format("RUN pipeline {} 1 1\n\n", t.groups());
  s += "EXPECT out IDX 0 EQ";
  for (std::uint32_t v : t.expected) s += fmt::format(" {}", v);
  s += "\n";
  return s;
}

Result<bool> write_test_files(const std::string& dir, const std::string& name, const Test& t) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{fmt::format("cannot create '{}': {}", dir, ec.message()), ErrorCode::Environment};
  auto write = [&](const std::string& ext, const void* data, std::size_t size) -> bool {
    std::ofstream out(dir + "/" + name + ext, std::ios::binary);
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
    return static_cast<bool>(out);
  };
  const std::string amber = amber_script(t, name);
  // The words as little-endian bytes, whatever the host's order.
  auto bytes = [](const std::vector<std::uint32_t>& words) {
    std::string b;
    for (std::uint32_t w : words)
      for (int i = 0; i < 4; ++i) b.push_back(static_cast<char>((w >> (8 * i)) & 0xff));
    return b;
  };
  const std::string spv = bytes(t.spirv), dirs = bytes(t.directions), expected = bytes(t.expected);
  if (!write(".spv", spv.data(), spv.size()) || !write(".spvasm", t.assembly.data(), t.assembly.size()) ||
      !write(".amber", amber.data(), amber.size()) || !write(".directions", dirs.data(), dirs.size()) ||
      !write(".expected", expected.data(), expected.size()))
    return Error{fmt::format("cannot write the files of {} into '{}'", name, dir), ErrorCode::Environment};
  return true;
}

}  // namespace sluice::flesh
