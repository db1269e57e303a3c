// Calls through function pointers from a table in a global initializer.
int x;
int *fx(int *a) { return &x; }
int *fy(int *a) { return a; }
int *(*table[2])(int *) = {fx, fy};
int main(int argc, char **argv) {
  int z;
  int *(*f)(int *) = table[argc & 1];
  int *r = f(&z);
  return *r;
}
