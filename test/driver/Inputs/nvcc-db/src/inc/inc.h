#define FROM_INC 1
