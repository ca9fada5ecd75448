// Variables and functions' metadata: names with their source, precision and
// decorations, as in the ANGLE IR.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/ids.h"
#include "ir/precision.h"

namespace sluice::ir {

// Where a name comes from decides how an output may spell it: an interface
// name must be kept exactly, internal and temporary names may be renamed.
enum class NameSource : std::uint8_t { Interface, Internal, Temporary };

struct Name {
  std::string text;
  NameSource source = NameSource::Temporary;
  friend bool operator==(const Name&, const Name&) = default;
};

enum class Interpolation : std::uint8_t { Smooth, Flat, NoPerspective };

// Qualifiers a variable carries beyond its type. Optional numbers are unset
// when the source did not give them.
struct Decorations {
  std::optional<std::uint32_t> location;
  std::optional<std::uint32_t> component;
  std::optional<std::uint32_t> binding;
  std::optional<std::uint32_t> set;
  std::optional<std::uint32_t> index;  // dual-source blending
  // Transform feedback (xfb_buffer, xfb_stride, xfb_offset) of an output.
  std::optional<std::uint32_t> xfb_buffer;
  std::optional<std::uint32_t> xfb_stride;
  std::optional<std::uint32_t> xfb_offset;
  std::string built_in;                // SPIR-V BuiltIn name: "FragCoord", "Position", ...
  Interpolation interpolation = Interpolation::Smooth;
  bool centroid = false;
  bool sample = false;
  bool invariant = false;
  bool readonly = false;
  bool writeonly = false;
  bool coherent = false;
  bool volatile_ = false;
  bool restrict_ = false;
  // Tessellation: one value per patch, not per vertex (`patch in/out`).
  bool patch = false;
  // Geometry: the vertex stream an output belongs to (layout(stream = N)).
  std::optional<std::uint32_t> stream;
  // NVIDIA extensions. A geometry input copied unchanged to the vertices
  // the fixed function emits (layout(passthrough),
  // GL_NV_geometry_shader_passthrough; SPIR-V PassthroughNV).
  bool passthrough = false;
  // A Layer output taken relative to the viewport (layout(viewport_relative),
  // GL_NV_viewport_array2; ViewportRelativeNV), and the offset of the second
  // view's layer (layout(secondary_view_offset = N),
  // GL_NV_stereo_view_rendering; SecondaryViewportRelativeNV N).
  bool viewport_relative = false;
  std::optional<std::int32_t> secondary_view_offset;

  friend bool operator==(const Decorations&, const Decorations&) = default;
};

struct SourceLocation {
  std::uint32_t file = 0;  // index into Module::source_files()
  std::uint32_t line = 0;  // 1-based; 0 = unknown
  std::uint32_t column = 0;
  friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

struct Variable {
  Name name;
  TypeId type;  // always a pointer type; its storage class says where the variable lives
  Precision precision = Precision::None;
  Decorations decorations;
  ConstantId initializer;  // optional: invalid when there is none
  SourceLocId location;
};

enum class ParamDirection : std::uint8_t { In, Out, InOut };

struct FunctionParam {
  VariableId variable;  // a Function-storage variable holding the parameter
  ParamDirection direction = ParamDirection::In;
};

const char* to_string(ParamDirection d);
const char* to_string(NameSource s);

}  // namespace sluice::ir
