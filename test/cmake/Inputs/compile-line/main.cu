__global__ void src_kernel(unsigned *count);
int main() {
  src_kernel<<<1, 32>>>(nullptr);
  return 0;
}
