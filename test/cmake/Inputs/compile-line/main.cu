__global__ void src_kernel(unsigned long long *count);
int main() {
  src_kernel<<<1, 32>>>(nullptr);
  return 0;
}
