// Address-of, copies through locals, a store and a load through a double
// pointer.
int main(void) {
  int x, y;
  int *p = &x;
  int *r = p;
  int **pp = &p;
  *pp = &y;
  int *s = *pp;
  return *r + *s;
}
