// Does not compile: no report and no records for it.
__global__ void broken(int *p) { p[0] = undeclared; }
