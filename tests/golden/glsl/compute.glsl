#version 450

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

layout(constant_id = 3) const uint spec3 = 4u;

layout(std430, set = 0, binding = 0) buffer Data {
    uint count;
    float values[];
} buf;
layout(rgba8, set = 0, binding = 1) uniform writeonly image2D result;
layout(r32f, set = 0, binding = 2) uniform readonly image2D source;
shared float cache[64];

void main() {
    const ivec2 t2 = ivec2(gl_GlobalInvocationID.xy);
    const uint t5 = gl_LocalInvocationIndex;
    cache[t5] = imageLoad(source, t2).x;
    barrier();
    const float t10 = cache[t5 ^ 1u];
    atomicAdd(buf.count, spec3);
    buf.values[int(t5) % buf.values.length()] = t10;
    imageStore(result, t2, vec4(t10));
}
