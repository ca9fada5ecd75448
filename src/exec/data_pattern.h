// The deterministic data the runner puts into resources the caller does not
// supply (docs/testing.md, "Running shaders", documents the same rules):
//
// Buffers and push constants: scalar number i of the block (in declaration
// order, arrays expanded, runtime arrays at ResourceSpec::runtime_array_length
// elements) gets h = splitmix64(seed ^ stream ^ i) where stream mixes the
// descriptor set, binding and array element, and then
//   float: ((h % 33) - 16) / 8   (multiples of 1/8 in [-2, 2], exact in any precision)
//   int:   (h % 33) - 16          uint: h % 33          bool: h % 2
// Padding bytes stay zero.
//
// Textures: texel (x, y, z) of a w x h x d image (z is the depth slice or the
// array layer, cube faces counted as layers) holds
//   float formats: (x/(w-1), y/(h-1), z/(d-1), 1), each 0 where the size is 1,
//                  stored in the texture's format (8-bit UNORM for sampled ones)
//   integer formats: (x, y, z, 1)
//   depth: (x + y) / (w + h - 2)
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "exec/block_layout.h"

namespace sluice::exec {

uint64_t splitmix64(uint64_t x);

// The stream of a descriptor, so that different bindings get different data.
uint64_t descriptor_stream(uint32_t set, uint32_t binding, uint32_t array_element);
// The stream of the push-constant block.
uint64_t push_constant_stream();

// Writes the pattern into `bytes` at every slot that fits.
void fill_scalar_pattern(std::span<uint8_t> bytes, std::span<const ScalarSlot> slots, uint64_t seed,
                         uint64_t stream);

// The pattern value of one texel, as doubles: normalized for float formats,
// whole numbers for integer formats.
std::array<double, 4> texel_pattern(uint32_t x, uint32_t y, uint32_t z, uint32_t w, uint32_t h, uint32_t d,
                                    bool integer);
double depth_texel_pattern(uint32_t x, uint32_t y, uint32_t w, uint32_t h);

// IEEE binary16 from a float, rounding to nearest even.
uint16_t float_to_half(float value);
float half_to_float(uint16_t value);

}  // namespace sluice::exec
