// A launch whose chevrons are spaced, `<< <` and `>> >` (Visual Studio's
// formatter writes them so; graphdeco-inria/diff-gaussian-rasterization
// ships them): nvcc reads them as `<<<` and `>>>`, clang reads shifts and
// rejects the file. After clang's first error there, the tool says why, once
// per file; the file fails as any file clang does not parse, and
// --unparsed=copy writes it unchanged. A shift followed by a comparison in
// host code is no launch and gets no note.
// RUN: rm -f %t.dd.cu
// RUN: not %decoupler %s -o %t.dd.cu 2>&1 | FileCheck %s --implicit-check-not=note:
// RUN: not test -e %t.dd.cu
// RUN: %decoupler --unparsed=copy %s -o %t.dd.cu 2>&1 | FileCheck %s --check-prefix=COPY
// RUN: cmp %s %t.dd.cu
// REQUIRES: nvcc
// RUN: %nvcc -c %s -o %t.o
// COPY: decoupler: warning: '{{.*}}spaced-launch.cu' did not parse (the errors above): its output is the input, unchanged (--unparsed=copy)

__global__ void scale(float *x, float a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

bool shifted(int v) { return (v << 2) < 64; }

void launch(float *x, int n) {
  // CHECK: spaced-launch.cu:[[@LINE+2]]:12: error: expected expression
  // CHECK: spaced-launch.cu:[[@LINE+1]]:12: note: nvcc reads '<< <' and '>> >' as a launch's '<<<' and '>>>'; clang, which decoupler parses with, does not: write the chevrons without spaces
  scale << <(n + 255) / 256, 256 >> > (x, 2.0f, n);
  // CHECK: spaced-launch.cu:[[@LINE+1]]:12: error: expected expression
  scale << < 1, 32 >> > (x, 0.5f, 32);
}

// CHECK: decoupler: error: '{{.*}}spaced-launch.cu' did not parse (the errors above), so nothing is written for it.
