// Next to b/histogram.cu; a/util.h is another header of the same name.
#pragma once

#include <concepts>

namespace b {

/// The bin of a 32-bit key: by its high bits (key * bins / 2^32).
template <std::unsigned_integral Key>
__host__ __device__ constexpr unsigned bin_of(Key key, unsigned bins) {
  return static_cast<unsigned>((static_cast<unsigned long long>(key) * bins) >> 32);
}

} // namespace b
