// `sluice --version`: Sluice's version and those of the glslang and
// SPIRV-Tools it was compiled against, asked of the libraries themselves:
// glslang's build_info.h (the headers compiled against) and GetVersion()
// (the library linked), SPIRV-Tools' spvSoftwareVersionDetailsString()
// (the static library linked in, so the one built against).
#include <fmt/format.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/build_info.h>
#include <spirv-tools/libspirv.h>

#include "sluice_commands.h"

namespace sluice::tools {

std::string version_text(std::string_view sluice_version) {
  const glslang::Version linked = glslang::GetVersion();
  std::string text = fmt::format("sluice {}\nglslang {}.{}.{}{}", sluice_version, GLSLANG_VERSION_MAJOR,
                                 GLSLANG_VERSION_MINOR, GLSLANG_VERSION_PATCH, GLSLANG_VERSION_FLAVOR);
  if (linked.major != GLSLANG_VERSION_MAJOR || linked.minor != GLSLANG_VERSION_MINOR ||
      linked.patch != GLSLANG_VERSION_PATCH)
    text += fmt::format(" (headers; the library linked is {}.{}.{}{})", linked.major, linked.minor, linked.patch,
                        linked.flavor ? linked.flavor : "");
  // "SPIRV-Tools v2023.1 unknown hash, 2023-02-15T14:03:51": name and version.
  text += fmt::format("\n{}", spvSoftwareVersionDetailsString());
  return text;
}

}  // namespace sluice::tools
