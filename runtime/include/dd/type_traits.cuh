//===- dd/type_traits.cuh - Small type utilities of the runtime -*- CUDA -*-===//
//
// Compile-time helpers shared by the runtime headers. Nothing here generates
// code; it only steers overload resolution and static_asserts.
//
//===----------------------------------------------------------------------===//
#ifndef DD_TYPE_TRAITS_CUH
#define DD_TYPE_TRAITS_CUH

#include <type_traits>

namespace dd {

/// `identity_t<T>` is `T`, but in a context that template argument deduction
/// does not look into. The runtime's atomics take their value as
/// `identity_t<T>` so that only the address decides `T`:
///
///   unsigned *bins;  dd::atomic_add_sr(&bins[k], 1);   // T = unsigned, 1 converts
///
/// exactly as CUDA's own `atomicAdd(unsigned *, unsigned)` overload accepts
/// an int literal. Without it, `T` would be deduced twice (unsigned from the
/// pointer, int from the literal) and the call would not compile.
///
/// @tparam T  any type
template <class T> struct type_identity {
  using type = T;
};
template <class T> using identity_t = typename type_identity<T>::type;

namespace detail {

/// True when `T` is one of `Ts...` (exactly, no conversions). Used to state,
/// per operation, the element types that have a hardware atomic.
template <class T, class... Ts>
inline constexpr bool is_one_of_v = (std::is_same_v<T, Ts> || ...);

/// A dependent `false` for static_asserts in templates that must only fire
/// when instantiated.
template <class...> inline constexpr bool always_false_v = false;

} // namespace detail
} // namespace dd

#endif // DD_TYPE_TRAITS_CUH
