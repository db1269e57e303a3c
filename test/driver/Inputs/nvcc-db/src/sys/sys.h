#define FROM_SYS 2
