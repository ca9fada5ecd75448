// A fleshed test as an AmberScript (amber.cpp).
#pragma once

#include <string>

#include "flesh/flesh.h"

namespace sluice::flesh {

std::string amber_script(const Test& test, const std::string& name);

}  // namespace sluice::flesh
