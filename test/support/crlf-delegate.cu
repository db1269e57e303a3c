// The delegate pass on a file whose lines end in CRLF: every line it inserts ends
// in CRLF too, the file's own text is left as it was (a line ending in a
// bare LF stays so), and the output is the LF run's output but for line
// endings. It compiles with nvcc.
// RUN: python3 %S/Inputs/line_endings.py crlf %S/Inputs/crlf-delegate.cu %t.in.cu
// RUN: %decoupler --no-line-directives --passes=delegate %t.in.cu -o %t.out.cu
// RUN: python3 %S/Inputs/line_endings.py check %t.out.cu
// RUN: %decoupler --no-line-directives --passes=delegate %S/Inputs/crlf-delegate.cu -o %t.lf.cu
// RUN: python3 %S/Inputs/line_endings.py same %t.out.cu %t.lf.cu
// RUN: FileCheck %s --input-file %t.lf.cu
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.out.cu -o %t.o
// CHECK: {{^}}#include <dd/delegate.cuh>
// CHECK: struct insert_message {
// CHECK: insert_launch(
