// Heap allocation sites, one per call of malloc; struct fields collapsed
// into their object.
#include <stdlib.h>
struct node {
  struct node *next;
  int *val;
};
int g;
struct node *make(void) {
  struct node *n = malloc(sizeof *n);
  n->next = 0;
  n->val = &g;
  return n;
}
int main(void) {
  struct node *a = make();
  struct node *b = make();
  a->next = b;
  int *v = b->next->val;
  int *w = calloc(4, sizeof(int));
  free(a);
  return *v + *w;
}
