// Compact trajectory frames: probabilities quantised to 8 bits (step 1/255) and zlib-compressed
// when that pays. A decoded row is renormalised, so it is a distribution again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace gsflow::storage {

// Blob layout: one codec byte (0 = raw 8-bit, 1 = zlib of the 8-bit values), then the payload.
// Throws std::invalid_argument for a value outside [0, 1] (NaN included).
std::string encode_probabilities(std::span<const float> p);

// Inverse of encode_probabilities for rows of k: values q/255 renormalised per row (an all-zero
// row becomes uniform). Throws std::runtime_error for a blob that is not `count` values.
std::vector<float> decode_probabilities(std::string_view blob, std::size_t count, std::size_t k);

}  // namespace gsflow::storage
