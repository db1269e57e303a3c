// Atomic-free Irregular Computations, Figure 10: a = &x; q = &b; *q = c; c = a.
int x;
int *a, *b, *c;
int **q;
void figure10(void) {
  a = &x;
  q = &b;
  *q = c;
  c = a;
}
