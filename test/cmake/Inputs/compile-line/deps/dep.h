#define DEP_H 1
