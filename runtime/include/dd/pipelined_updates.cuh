//===- dd/pipelined_updates.cuh - Loads ahead of privatized updates -*- CUDA -*-===//
//
// A privatized histogram loop (`for (i = ...; i < n; i += stride)
// hist.update(keys[i], 1u);`) spends its time waiting: every iteration loads
// a key from global memory and cannot update the shared-memory copy before
// the key arrives, and the compiler cannot start the next iteration's load
// earlier, because the update may write global memory (a dd::block_private
// update that misses the copy goes to the global array) and the next
// iteration runs only if its condition holds. One load in flight per warp
// leaves most of the memory system idle: a byte histogram read 450-560 GB/s
// on an H100 this way, where CUB reads 1100-1400 GB/s (docs/PERF.md).
//
// dd::pipelined_updates runs the same loop Depth iterations at a time: it
// evaluates the conditions of the next Depth iterations in order, exactly as
// the loop would (stopping at the first that fails, so it computes no
// induction value the loop would not), loads their indices and values, and
// only then applies their updates, in iteration order. The rest of the loop
// runs one iteration at a time, and so does the whole loop of a block that
// keeps a cache of hot indices rather than a copy (block_private::active()
// false): its misses go to the global array, and loading ahead measured no
// faster there (docs/PERF.md, "Pipelined loads").
//
// What the caller must guarantee (the atomics pass proves it before it
// emits this; docs/atomics.md, "Pipelined loads"):
//   - `condition`, `index` and `value` have no side effects, and `step` none
//     other than advancing its argument;
//   - what they read is not written by the updates: the block_private
//     contract already says the loop does not touch the global array other
//     than through update(), and the copy is the block_private's own;
//   - the loop body was the one update, after declarations of local
//     variables with pure initializers (which `index` and `value` repeat):
//     nothing else happens between an iteration's loads and its update.
//
//===----------------------------------------------------------------------===//
#ifndef DD_PIPELINED_UPDATES_CUH
#define DD_PIPELINED_UPDATES_CUH

namespace dd {

/// Iterations whose loads dd::pipelined_updates issues before their updates.
/// Measured on an H100 (docs/PERF.md, "Pipelined loads").
#ifndef DD_PIPELINE_DEPTH
#define DD_PIPELINE_DEPTH 4
#endif

/// `for (I i = first; condition(i); step(i)) updates.update(index(i), value(i));`
/// with the loads of up to Depth iterations issued before their updates.
/// Returns the loop variable's last value, the first for which `condition`
/// failed (what a variable declared outside the loop holds after it).
///
/// @tparam Depth     iterations loaded ahead (>= 1; 1 is the loop as written)
/// @tparam I         the loop variable's type, as declared
/// @param updates    the dd::block_private the loop updates, by reference
/// @param first      the loop variable's initial value
/// @param condition  `bool(I)`: the loop's condition
/// @param step       `void(I &)`: the loop's increment
/// @param index      `(I) -> index`: the update's index expression
/// @param value      `(I) -> value`: the update's value expression
template <unsigned Depth, class I, class Updates, class Condition, class Step, class Index,
          class Value>
__device__ __forceinline__ I pipelined_updates(Updates &updates, I first, Condition condition,
                                               Step step, Index index, Value value) {
  static_assert(Depth >= 1, "Depth counts iterations: at least 1");
  using IndexT = decltype(index(first));
  using ValueT = decltype(value(first));
  I i = first;
  if constexpr (Depth > 1) {
    while (updates.active()) {
      // The next Depth iterations, with the conditions the loop would test
      // before each of them; a failing one ends the pipelined part.
      I at[Depth];
      at[0] = i;
      bool full = condition(at[0]);
#pragma unroll
      for (unsigned k = 1; k < Depth; ++k) {
        if (full) {
          at[k] = at[k - 1];
          step(at[k]);
          full = condition(at[k]);
        }
      }
      if (!full)
        break;
      IndexT keys[Depth];
      ValueT values[Depth];
#pragma unroll
      for (unsigned k = 0; k < Depth; ++k) {
        keys[k] = index(at[k]);
        values[k] = value(at[k]);
      }
#pragma unroll
      for (unsigned k = 0; k < Depth; ++k)
        updates.update(keys[k], values[k]);
      i = at[Depth - 1];
      step(i);
    }
  }
  for (; condition(i); step(i))
    updates.update(index(i), value(i));
  return i;
}

} // namespace dd

#endif // DD_PIPELINED_UPDATES_CUH
