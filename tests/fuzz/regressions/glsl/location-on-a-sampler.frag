#version 450
// glslang accepts a location on an opaque uniform for Vulkan (and writes
// it into its SPIR-V, which spirv-val then refuses: VUID-StandaloneSpirv-
// Location-06672). Found while fixing the fifth campaign's ir finding: the
// IR keeps the location (OpenGL's default-block uniforms have one); the
// SPIR-V output drops it for Vulkan targets.
layout(location = 3, binding = 0) uniform sampler2D s;
layout(location = 0) out vec4 color;
void main() { color = texture(s, vec2(0.5)); }
