__global__ void k(unsigned *b, const unsigned *d) {
#pragma dd atomic(sr) range(4)
  atomicAdd(&b[d[0]], 1u);
#pragma dd atomic(privatize) range(0)
  atomicAdd(&b[d[1]], 1u);
#pragma dd atomic(privatize) range(4) range(8)
  atomicAdd(&b[d[2]], 1u);
#pragma dd atomic(privatize) range(4
  atomicAdd(&b[d[3]], 1u);
#pragma dd atomic(privatize) rang(4)
  atomicAdd(&b[d[3]], 1u);
}
