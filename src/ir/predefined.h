// Ids every module starts with, so front ends and passes can name the
// common types and constants without a lookup (ANGLE's TYPE_ID_* ids).
#pragma once

#include "ir/ids.h"

namespace sluice::ir::predefined {

inline constexpr TypeId kVoid{0};
inline constexpr TypeId kFloat{1};
inline constexpr TypeId kInt{2};
inline constexpr TypeId kUint{3};
inline constexpr TypeId kBool{4};
inline constexpr TypeId kVec2{5};
inline constexpr TypeId kVec3{6};
inline constexpr TypeId kVec4{7};
inline constexpr TypeId kIVec2{8};
inline constexpr TypeId kIVec3{9};
inline constexpr TypeId kIVec4{10};
inline constexpr TypeId kUVec2{11};
inline constexpr TypeId kUVec3{12};
inline constexpr TypeId kUVec4{13};
inline constexpr TypeId kBVec2{14};
inline constexpr TypeId kBVec3{15};
inline constexpr TypeId kBVec4{16};
// Matrices: columns-major naming, matCxR = C columns of vecR.
inline constexpr TypeId kMat2{17};
inline constexpr TypeId kMat2x3{18};
inline constexpr TypeId kMat2x4{19};
inline constexpr TypeId kMat3x2{20};
inline constexpr TypeId kMat3{21};
inline constexpr TypeId kMat3x4{22};
inline constexpr TypeId kMat4x2{23};
inline constexpr TypeId kMat4x3{24};
inline constexpr TypeId kMat4{25};
inline constexpr std::uint32_t kTypeCount = 26;

inline constexpr ConstantId kFalse{0};
inline constexpr ConstantId kTrue{1};
inline constexpr ConstantId kFloatZero{2};
inline constexpr ConstantId kFloatOne{3};
inline constexpr ConstantId kIntZero{4};
inline constexpr ConstantId kIntOne{5};
inline constexpr ConstantId kUintZero{6};
inline constexpr ConstantId kUintOne{7};
inline constexpr std::uint32_t kConstantCount = 8;

}  // namespace sluice::ir::predefined
