//===- dd/annotate.h - decoupler annotations in portable form ---*- C++ -*-===//
//
// DD_PRAGMA(directive ...) is `#pragma dd directive ...` when the file is read
// by the decoupler tool (which defines __DECOUPLER__), and nothing otherwise, so
// a plain nvcc or clang build sees no unknown pragma and computes exactly what
// it computed before the annotation was added.
//
//   DD_PRAGMA(decouple depth(4))
//   for (int i = tid; i < n; i += stride) { ... }
//
// Directives (docs/annotations.md): decouple [depth(N)], delegate [servers(N)]
// [locks(N)], atomic(sr|vr|ss|none), monotonic.
//
//===----------------------------------------------------------------------===//
#ifndef DD_ANNOTATE_H
#define DD_ANNOTATE_H

#if defined(__DECOUPLER__)
#define DD_PRAGMA_STRINGIFY_(...) #__VA_ARGS__
#define DD_PRAGMA(...) _Pragma(DD_PRAGMA_STRINGIFY_(dd __VA_ARGS__))
#else
#define DD_PRAGMA(...)
#endif

#endif // DD_ANNOTATE_H
