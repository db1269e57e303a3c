#define FROM_RSP 3
