// Next to a/histogram.cu; b/util.h is another header of the same name, and
// each source must get its own (also once rewritten into the build tree).
#pragma once

#include <concepts>

namespace a {

/// The bin of a key: its low bits.
template <std::unsigned_integral Key>
__host__ __device__ constexpr unsigned bin_of(Key key, unsigned bins) {
  return static_cast<unsigned>(key % bins);
}

} // namespace a
