// Launches a kernel the including file defines and annotates: the launch is
// in this header, where the rewrite cannot put the launcher.
#ifndef LAUNCH_ELSEWHERE_H
#define LAUNCH_ELSEWHERE_H

__global__ void from_header(int *data, int *locks);

inline void launch_from_header(int *data, int *locks) { from_header<<<1, 32>>>(data, locks); }

#endif
