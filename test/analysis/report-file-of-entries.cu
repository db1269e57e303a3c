// RUN: %decoupler --analyze --report=json %s | FileCheck %s --check-prefix=JSON
// RUN: %decoupler --analyze %s | FileCheck %s --check-prefix=TEXT
// Entries in another file than the main one (a header's __device__ function)
// name that file, and their line and column are that file's; entries of the
// main file have no "file" field (issue 13, class 14). Main-file entries come
// first.
#include "Inputs/header-device.cuh"

__global__ void reads(float *out, const float *in) {
  out[threadIdx.x] = header_load(in, threadIdx.x);
}

// JSON-LABEL: "name": "reads",
// JSON-NEXT: "line": 9,
// JSON-NEXT: "accesses": [
// JSON-NEXT: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4, "strides_bytes": [4, 0, 0]},
// JSON-NEXT: {"line": 5, "column": 9, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 4, "strides_bytes": [4, 0, 0], "function": "header_load", "file": "{{.*}}Inputs{{/|\\\\}}header-device.cuh"}
// JSON-NEXT: ],
// JSON-NEXT: "branches": [
// JSON-NEXT: {"line": 4, "column": 7, "class": "affine", "function": "header_load", "file": "{{.*}}Inputs{{/|\\\\}}header-device.cuh"}
// JSON-NEXT: ],
// JSON: {"name": "in", "line": 9, "class": "scalar"}
// JSON: {"name": "i", "line": 2, "class": "affine", "strides": [1, 0, 0], "function": "header_load", "file": "{{.*}}Inputs{{/|\\\\}}header-device.cuh"}

// TEXT: report-file-of-entries.cu:9:17: kernel 'reads'
// TEXT: header_load::i line {{.*}}Inputs/header-device.cuh:2 affine
// TEXT: accesses:
// TEXT-NEXT: 10:3 store
// TEXT-NEXT: {{.*}}Inputs/header-device.cuh:5:9 load global affine (x:4 bytes) p[i] [in header_load]
// TEXT: branches:
// TEXT-NEXT: {{.*}}Inputs/header-device.cuh:4:7 affine i > 0 [in header_load]
