// Branches and a conditional: after mem2reg, a phi and a select.
int x, y;
int *pick(int c) {
  int *p;
  if (c)
    p = &x;
  else
    p = &y;
  return p;
}
int *choose(int c, int *a) { return c ? a : &y; }
