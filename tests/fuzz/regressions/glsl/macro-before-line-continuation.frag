#version 450
// glslang -E crashes on a macro name right before a line continuation
// (src/frontend/glsl/block_names.h); the shader itself is valid.
#define ONE 1.0
layout(location = 0) out vec4 color;
void main() {
  color = vec4(ONE\
);
}
