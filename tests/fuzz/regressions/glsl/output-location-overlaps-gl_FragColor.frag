#version 140
// glslang's automatic locations put `extra` at location 0, where
// gl_FragColor is too (campaign finding: two outputs at location 0).
out ivec2 extra;
void main() { gl_FragColor = vec4(1.0); }
