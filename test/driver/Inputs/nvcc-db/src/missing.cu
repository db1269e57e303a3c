// Compiles only with what the nvcc command of compile_commands.json.in gives:
// -I, -isystem=, -D, -Xcompiler=-D..., --options-file and -std=c++20.
#include "inc.h"
#include <sys.h>
#include "rsp.h"

#if !defined(NEEDED) || !defined(FROM_XCOMPILER) || __cplusplus < 202002L
#error "compile command not translated"
#endif

__global__ void kernel(int *a) { a[threadIdx.x] = FROM_INC + FROM_SYS + FROM_RSP; }
