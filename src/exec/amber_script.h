// The parsed form of an AmberScript file, limited to the subset Sluice runs
// (the commands the Vulkan CTS GraphicsFuzz tests use):
//
//   DEVICE_EXTENSION name
//   SHADER vertex|fragment name PASSTHROUGH
//   SHADER vertex|fragment|compute name SPIRV-ASM|GLSL [TARGET_ENV env] ... END
//   BUFFER name DATA_TYPE type [STD140|STD430] DATA values... END
//   BUFFER name DATA_TYPE type [STD140|STD430] SIZE n FILL value
//   BUFFER name DATA_TYPE type [STD140|STD430] SIZE n SERIES_FROM start INC_BY step
//   BUFFER name FORMAT B8G8R8A8_UNORM|R8G8B8A8_UNORM|R32G32B32A32_SFLOAT
//   PIPELINE graphics|compute name
//     ATTACH shader [ENTRY_POINT name]
//     FRAMEBUFFER_SIZE w h
//     BIND BUFFER name AS color LOCATION n
//     BIND BUFFER name AS uniform|storage DESCRIPTOR_SET s BINDING b
//     BIND BUFFER name AS push_constant
//   END
//   CLEAR_COLOR pipeline r g b a          (0-255)
//   CLEAR pipeline
//   RUN pipeline DRAW_RECT POS x y SIZE w h
//   RUN pipeline x y z                    (a compute pipeline: workgroups)
//   EXPECT buffer IDX x y [SIZE w h] EQ_RGBA r g b a | EQ_RGB r g b [TOLERANCE t...]
//   EXPECT buffer IDX offset EQ values... (a data buffer; offset in bytes)
//
// Anything else is refused by the parser with its line number.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "exec/block_layout.h"
#include "exec/shader_interface.h"

namespace sluice::exec::amber {

struct ShaderDecl {
  enum class Format { Passthrough, SpirvAsm, Glsl };
  std::string name;
  ShaderStage stage = ShaderStage::Fragment;
  Format format = Format::Passthrough;
  std::string target_env;  // as written, e.g. "spv1.0"; empty when absent
  std::string source;      // the text between the SHADER line and END
  int line = 0;
};

// An Amber DATA_TYPE: scalar, vecN<T>, matCxR<T>, optionally an array T[].
struct DataType {
  ScalarKind kind = ScalarKind::Float;
  uint32_t bits = 32;
  uint32_t rows = 1;     // vector size, or the rows of a matrix
  uint32_t columns = 1;  // matrix columns
  bool is_array = false;
};

struct BufferDecl {
  std::string name;
  int line = 0;
  bool is_format = false;   // BUFFER ... FORMAT: an image-like colour buffer
  std::string format;       // the FORMAT name
  DataType type;
  bool std140 = false;      // Amber's default is std430
  std::vector<uint8_t> bytes;  // DATA / FILL / SERIES_FROM contents, laid out
};

struct BufferBinding {
  enum class Kind { Color, Uniform, Storage, PushConstant };
  std::string buffer;
  Kind kind = Kind::Color;
  uint32_t location = 0;
  uint32_t set = 0;
  uint32_t binding = 0;
};

struct PipelineDecl {
  std::string name;
  int line = 0;
  bool compute = false;                   // PIPELINE compute
  std::vector<std::string> shaders;      // attached shader names
  std::vector<std::string> entry_points;  // per attached shader; empty = "main"
  uint32_t framebuffer_width = 250;       // Amber's default size
  uint32_t framebuffer_height = 250;
  std::vector<BufferBinding> bindings;
};

struct Tolerance {
  double value = 0;
  bool percent = false;
};

struct Command {
  enum class Kind { ClearColor, Clear, DrawRect, ExpectRgba, Dispatch, ExpectData };
  Kind kind = Kind::Clear;
  int line = 0;
  std::string target;                    // pipeline name, or buffer name for EXPECT
  std::array<double, 4> color{0, 0, 0, 0};  // CLEAR_COLOR / EXPECT values, 0-255
  bool has_alpha = true;                 // EQ_RGBA (true) or EQ_RGB
  int32_t x = 0, y = 0;
  uint32_t width = 1, height = 1;
  std::vector<Tolerance> tolerances;     // none, one for all channels, or four
  uint32_t depth = 1;                    // Dispatch: workgroups x, y, z in width, height, depth
  uint32_t offset = 0;                   // ExpectData: byte offset into the buffer
  std::vector<std::string> values;       // ExpectData: as written, laid out by the buffer's type
};

struct Script {
  std::vector<std::string> device_extensions;
  std::vector<ShaderDecl> shaders;
  std::vector<BufferDecl> buffers;
  std::vector<PipelineDecl> pipelines;
  std::vector<Command> commands;

  const ShaderDecl* find_shader(const std::string& name) const;
  const BufferDecl* find_buffer(const std::string& name) const;
  const PipelineDecl* find_pipeline(const std::string& name) const;
};

// Parses the supported subset; errors carry "line N: ...".
Result<Script> parse_script(std::string_view text);

}  // namespace sluice::exec::amber
