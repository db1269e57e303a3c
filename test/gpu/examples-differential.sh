#!/usr/bin/env bash
# Differential test of the examples on a GPU: each example runs as written and
# as rewritten by decoupler (<name>_dd) on the same inputs, and the outputs
# must be identical byte for byte (the examples compute in integers, so any
# order of atomic updates gives the same result). SSSP is also checked against
# CPU Dijkstra by the program itself (--verify 1).
#
#   test/gpu/examples-differential.sh BIN_DIR GRAPH_DIR
# BIN_DIR holds histogram, histogram_dd, privatize, privatize_dd, spmv_coo, spmv_coo_dd, sssp_topology,
# sssp_topology_dd, hashtable, hashtable_dd, bank, bank_dd, ledger, ledger_dd, reply, reply_dd,
# decouple, decouple_dd; GRAPH_DIR holds
# chesapeake.mtx, wiki-Vote.txt, luxembourg_osm.edges and any *.gr files
# (generated with dd-graph). EXAMPLES="hashtable bank" (say) runs only those
# examples. Prints one line per case and ends with "N passed, N failed".
#
# hashtable, bank, ledger and reply (the delegate pass) print order-independent digests and
# check themselves against a CPU model (--verify 1: "verify: ok" in both
# outputs). Their rewritten launcher can run the kernel as written instead of
# delegating (DD_DELEGATE_POLICY, default adaptive); the cases below force
# delegation unless they say otherwise, so that they test the rewrite. The
# adaptive cases run 41 launches (--time 40; the timing line is not compared)
# and must report probing both ways (DD_DELEGATE_VERBOSE=1). Their fitted
# cases ask for 100000 server blocks (DD_DELEGATE_SERVERS); the rewritten
# program must report that it planned fewer (DD_DELEGATE_SPLIT=1 prints the
# split to stderr).
set -u
bin=${1:?usage: examples-differential.sh BIN_DIR GRAPH_DIR}
graphs=${2:?usage: examples-differential.sh BIN_DIR GRAPH_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# run NAME ARGS...: runs $bin/NAME and $bin/NAME_dd with ARGS, compares.
run() {
  local name=$1
  shift
  if [ -n "${EXAMPLES:-}" ] && [[ " $EXAMPLES " != *" $name "* ]]; then
    return
  fi
  local label="$name $*"
  # A case that hangs (a lost message, a deadlock) fails instead of the run.
  if ! timeout "${CASE_TIMEOUT:-300}" "$bin/$name" "$@" >"$work/orig" 2>"$work/orig.err"; then
    echo "FAIL $label: original exited with $? ($(tail -1 "$work/orig.err"))"
    failed=$((failed + 1))
    return
  fi
  if ! timeout "${CASE_TIMEOUT:-300}" "$bin/${name}_dd" "$@" >"$work/dd" 2>"$work/dd.err"; then
    echo "FAIL $label: rewritten exited with $? ($(tail -1 "$work/dd.err"))"
    failed=$((failed + 1))
    return
  fi
  # Launch times (--time) differ from run to run; everything else must not.
  sed -i '/^time_ms=/d' "$work/orig" "$work/dd"
  if ! cmp -s "$work/orig" "$work/dd"; then
    echo "FAIL $label: outputs differ ($(diff "$work/orig" "$work/dd" | head -3 | tr '\n' ' '))"
    failed=$((failed + 1))
    return
  fi
  if [ -n "${EXPECT_DD_STDERR:-}" ] && ! grep -q -- "$EXPECT_DD_STDERR" "$work/dd.err"; then
    echo "FAIL $label: rewritten did not report '$EXPECT_DD_STDERR' ($(tail -1 "$work/dd.err"))"
    failed=$((failed + 1))
    return
  fi
  echo "PASS $label${DD_DELEGATE_SERVERS:+ (DD_DELEGATE_SERVERS=$DD_DELEGATE_SERVERS)}${DD_DELEGATE_POLICY:+ (DD_DELEGATE_POLICY=$DD_DELEGATE_POLICY)}${DD_SPLIT_POLICY:+ (DD_SPLIT_POLICY=$DD_SPLIT_POLICY)}${DD_PRIVATIZE_POLICY:+ (DD_PRIVATIZE_POLICY=$DD_PRIVATIZE_POLICY)}"
  passed=$((passed + 1))
}

export DD_DELEGATE_POLICY=delegate

# Hash table (one lock per bucket): collision factors 32 ... 128K, two sizes,
# an odd block size, one server block, and fewer server blocks than asked.
for cf in 32 256 1024 32768 131072; do
  for keys in 1048576 100003; do
    run hashtable --cf $cf --keys $keys --seed $cf --verify 1
  done
done
run hashtable --cf 1000 --keys 300000 --block 96 --seed 5 --verify 1
DD_DELEGATE_SERVERS=1 run hashtable --cf 256 --keys 262144 --verify 1
for cf in 32 131072; do
  DD_DELEGATE_SERVERS=100000 DD_DELEGATE_SPLIT=1 EXPECT_DD_STDERR="fewer than asked" \
    run hashtable --cf $cf --keys 1048576 --verify 1
done

# The loop's flag assigned by the try-lock's condition (insert_assigned).
for cf in 32 1024 131072; do
  run hashtable --spelling assigned --cf $cf --keys 1048576 --seed $cf --verify 1
done
run hashtable --spelling assigned --cf 1000 --keys 300000 --block 96 --seed 5 --verify 1
DD_DELEGATE_SERVERS=1 run hashtable --spelling assigned --cf 256 --keys 262144 --verify 1

# Adaptive: at low contention the kernel as written wins the probes, at high
# contention the delegated pair; either way both ran, and the table after the
# last of 41 launches is the original's. The original policy, once.
for cf in 256 131072; do
  DD_DELEGATE_POLICY=adaptive DD_DELEGATE_VERBOSE=1 EXPECT_DD_STDERR="probe: original took" \
    run hashtable --cf $cf --keys 262144 --time 40 --verify 1
done
DD_DELEGATE_POLICY=original run hashtable --cf 4096 --keys 100003 --verify 1

# Bank (two nested locks): account counts from 2 (every transfer on the
# same two locks) to 2^20; the original's time grows faster than linearly
# under contention, so few transfers where accounts are few.
run bank --accounts 2 --transfers 4096 --verify 1
run bank --accounts 32 --transfers 16384 --verify 1
for accounts in 256 1024 32768 131072 1048576; do
  run bank --accounts $accounts --transfers 65536 --seed $accounts --verify 1
done
run bank --accounts 5000 --transfers 262144 --block 160 --verify 1
DD_DELEGATE_SERVERS=1 run bank --accounts 1024 --transfers 65536 --verify 1
for accounts in 32 131072; do
  DD_DELEGATE_SERVERS=100000 DD_DELEGATE_SPLIT=1 EXPECT_DD_STDERR="fewer than asked" \
    run bank --accounts $accounts --transfers 16384 --verify 1
done

for accounts in 1024 1048576; do
  DD_DELEGATE_POLICY=adaptive DD_DELEGATE_VERBOSE=1 EXPECT_DD_STDERR="probe: original took" \
    run bank --accounts $accounts --transfers 65536 --time 40 --verify 1
done
DD_DELEGATE_POLICY=original run bank --accounts 4096 --transfers 65536 --verify 1
# The release-and-retry spelling of the two locks (transfer_retry).
for accounts in 2 32 1024 1048576; do
  run bank --spelling retry --accounts $accounts --transfers $((accounts < 64 ? 4096 : 65536)) --seed $accounts --verify 1
done
run bank --spelling retry --accounts 5000 --transfers 262144 --block 160 --verify 1
DD_DELEGATE_SERVERS=1 run bank --spelling retry --accounts 1024 --transfers 65536 --verify 1
# Locks that are fields of the accounts (transfer_fields).
for accounts in 2 32 1024 1048576; do
  run bank --spelling fields --accounts $accounts --transfers $((accounts < 64 ? 4096 : 65536)) --seed $accounts --verify 1
done
DD_DELEGATE_SERVERS=1 run bank --spelling fields --accounts 1024 --transfers 65536 --verify 1
# Pointer parameters advanced through a __device__ helper taking them by
# reference (transfer_offset): the advanced pointers must travel in the
# message (a server reading the launch's would update the accounts kSkip
# early, and --verify fails).
for accounts in 2 32 1024 1048576; do
  run bank --spelling offset --accounts $accounts --transfers $((accounts < 64 ? 4096 : 65536)) --seed $accounts --verify 1
done

# Ledger (one lock; the critical section calls __device__ helpers and reads
# threadIdx.x, blockIdx.x and blockDim.x, which the client sends in the
# message): from one account (every deposit on one lock) to 2^20, block
# sizes that are not multiples of 32 (threadIdx.x and the block size both
# show in the result), one server block, fewer servers than asked.
run ledger --accounts 1 --deposits 4096 --verify 1
for accounts in 7 256 1024 32768 1048576; do
  for block in 256 96 1000; do
    run ledger --accounts $accounts --deposits 262144 --block $block --seed $accounts --verify 1
  done
done
run ledger --accounts 3000 --deposits 1000003 --block 33 --seed 9 --verify 1
DD_DELEGATE_SERVERS=1 run ledger --accounts 1024 --deposits 65536 --verify 1
DD_DELEGATE_SERVERS=100000 DD_DELEGATE_SPLIT=1 EXPECT_DD_STDERR="fewer than asked" \
  run ledger --accounts 64 --deposits 65536 --verify 1
DD_DELEGATE_POLICY=adaptive DD_DELEGATE_VERBOSE=1 EXPECT_DD_STDERR="probe: original took" \
  run ledger --accounts 256 --deposits 262144 --time 40 --verify 1
unset DD_DELEGATE_POLICY

# Reply (the reply channel: clients that wait for their critical section):
# a ticket per thread (one lock, a local comes back), withdrawals that only
# happen when the source can pay (two locks, release and retry, a flag comes
# back), deposits whose sum the kernel reads after (the client waits for
# the write). Two bins (every thread on one or two locks) to 2^20, odd
# blocks, one server block. Each run checks itself (--verify 1).
export DD_DELEGATE_POLICY=delegate
run reply --bins 2 --n 4096 --verify 1
# Three bins: the original's 2^18 threads on three global spin locks ran
# past a minute on an H100 (both ways are checked; the sizes are the
# original's limit, not the rewrite's).
run reply --bins 3 --n 16384 --block 96 --seed 3 --verify 1
for bins in 64 1024 65536 1048576; do
  for block in 256 96; do
    run reply --bins $bins --n 262144 --block $block --seed $bins --verify 1
  done
done
run reply --bins 5000 --n 1000003 --block 33 --seed 7 --verify 1
DD_DELEGATE_SERVERS=1 run reply --bins 1024 --n 65536 --verify 1
unset DD_DELEGATE_POLICY

# The split pass (decouple): every study kernel on sizes that are not
# multiples of the block, rows of odd length, one-element cases, odd and
# largest blocks (a block the split cannot take, not a multiple of 32 or
# 1024 threads, must fall back to the kernel as written), each checked
# against the CPU model. DD_SPLIT_POLICY=split forces the split kernel
# wherever the launcher can run it; the adaptive cases run 21 launches.
export DD_SPLIT_POLICY=split
for size in "--dim 1 --num 1" "--dim 7 --num 1000" "--dim 33 --num 12345" "--dim 5 --num 256" \
            "--dim 64 --num 131149"; do
  for k in fig33 gather2 gather8; do
    # shellcheck disable=SC2086
    run decouple --kernel $k $size --seed 3 --verify 1
  done
done
# Row tiles (fig33step: the split kernel; fewer than 32 iterations per block
# fall back to the kernel as written).
for size in "--dim 64 --num 256 --step 1" "--dim 200 --num 2560 --step 1" "--dim 300 --num 131072 --step 3" \
            "--dim 7 --num 1024 --step 1" "--dim 1000 --num 512 --step 7" "--dim 129 --num 65536 --step 2"; do
  # shellcheck disable=SC2086
  run decouple --kernel fig33step $size --seed 4 --verify 1
done
# Row tiles with barriers in the loop (rowpairs: consumer-only barriers).
for size in "--dim 64 --num 256 --step 1" "--dim 300 --num 131072 --step 3" "--dim 7 --num 1024 --step 1" \
            "--dim 129 --num 65536 --step 2"; do
  # shellcheck disable=SC2086
  run decouple --kernel rowpairs $size --seed 6 --verify 1
done
run decouple --kernel rowpairs --dim 100 --num 9600 --step 1 --block 96 --verify 1
DD_SPLIT_POLICY=adaptive run decouple --kernel rowpairs --dim 64 --num 65536 --step 1 --time 20 --verify 1
run decouple --kernel fig33step --dim 100 --num 9600 --step 1 --block 96 --verify 1
run decouple --kernel fig33step --dim 100 --num 4096 --step 1 --block 1024 --verify 1
run decouple --kernel fig33 --dim 9 --num 5000 --block 100 --verify 1
run decouple --kernel fig33 --dim 9 --num 5000 --block 1024 --verify 1
for size in "--nx 3 --ny 3 --rows 1" "--nx 257 --ny 100 --rows 7" "--nx 1000 --ny 513 --rows 64" \
            "--nx 4099 --ny 300 --rows 64" "--nx 256 --ny 66 --rows 64"; do
  # shellcheck disable=SC2086
  run decouple --kernel stencil $size --verify 1
done
for size in "--rows 1 --k 1" "--rows 1000 --k 5" "--rows 12345 --k 16" "--rows 777 --k 3" \
            "--rows 1048579 --k 16"; do
  # shellcheck disable=SC2086
  run decouple --kernel spmv $size --verify 1
done
for size in "--rows 1 --n 1" "--rows 5 --n 1000" "--rows 300 --n 4097" "--rows 64 --n 255" \
            "--rows 1000 --n 8191" "--rows 17 --n 65536"; do
  for block in 96 256; do
    # shellcheck disable=SC2086
    run decouple --kernel matvec $size --block $block --seed 5 --verify 1
  done
done
run decouple --kernel matvec --rows 40 --n 10000 --block 512 --verify 1
run decouple --kernel matvec --rows 40 --n 10000 --block 1024 --verify 1
for size in "--points 1 --features 1 --clusters 1" "--points 1000 --features 34 --clusters 5" \
            "--points 12345 --features 7 --clusters 3" "--points 300 --features 5 --clusters 4" \
            "--points 262149 --features 34 --clusters 5"; do
  # shellcheck disable=SC2086
  run decouple --kernel kmeans $size --verify 1
done
for k in "fig33 --dim 64 --num 65536" "matvec --rows 512 --n 8192" "gather2 --dim 32 --num 65536" \
         "fig33step --dim 64 --num 65536 --step 1"; do
  # shellcheck disable=SC2086
  DD_SPLIT_POLICY=adaptive run decouple --kernel $k --time 20 --verify 1
done
DD_SPLIT_POLICY=original run decouple --kernel matvec --rows 300 --n 4097 --verify 1
unset DD_SPLIT_POLICY

# Histogram and privatization. A privatized kernel whose range is known only
# at launch, or that keeps a cache, is launched through a launcher that may
# run its copy as written instead (DD_PRIVATIZE_POLICY, default adaptive):
# the cases force the privatized kernel, so that they test the rewrite; the
# ones at the end run the copies as written, and adaptively.
export DD_PRIVATIZE_POLICY=privatize

# Histogram: every contention level, both distributions, odd block sizes.
for bins in 1 2 8 32 256 4096 65536; do
  for dist in uniform zipf; do
    for block in 96 256 1024; do
      for keys in 12345 1048576; do
        run histogram --bins $bins --dist $dist --block $block --keys $keys --seed $((bins + block))
      done
    done
  done
done
run histogram --bins 7 --block 33 --keys 100003 --grid 5 --seed 9

# Privatization (block-private copies): ranges that fit the block's budget or
# not (bins against block size), keys beyond the annotated range, one element
# per thread with early returns, partial warps (block 33, 100).
for bins in 1 3 32 256 2048 4096 8192; do
  for dist in uniform zipf; do
    for block in 33 100 256 1024; do
      run privatize --bins $bins --dist $dist --block $block --keys 200003 --seed $((bins * 7 + block))
    done
  done
done
run privatize --bins 256 --block 256 --keys 16777216 --grid 528 --seed 5
run privatize --bins 4096 --dist zipf --block 512 --keys 4194304 --seed 6
run privatize --bins 17 --block 64 --keys 1000 --grid 1 --seed 7
# One block for several (dd::coarse_blocks): one-key-per-thread grids of many
# waves, so that each working block runs the threads of several blocks
# (blocks of 32 to 1024 threads, a key count no block size divides).
for block in 32 96 256 1024; do
  run privatize --bins 300 --dist zipf --block $block --keys 16777259 --seed $((block + 11))
done
# ... and with ranges beyond a copy (thread_mod: a cache of hot indices,
# cleared and merged once for the blocks a block runs).
for bins in 65536 1000000; do
  for dist in uniform zipf; do
    for block in 64 256; do
      run privatize --bins $bins --dist $dist --block $block --keys 16777259 --seed $((bins % 977 + block))
    done
  done
done
# Ranges too large for a copy (and the unbounded kernel at every size):
# the cache of hot indices, uniform and Zipf, blocks of 32 to 1024 threads.
for bins in 65536 1000000; do
  for dist in uniform zipf; do
    for block in 32 96 256 1024; do
      run privatize --bins $bins --dist $dist --block $block --keys 3000017 --seed $((bins % 1000 + block))
    done
  done
done

# The copies as written (`k_as_written`) compute what the kernels as written
# do; adaptive: the first launch of each kernel is the privatized one, timed.
for bins in 3 4096 1000000; do
  for dist in uniform zipf; do
    DD_PRIVATIZE_POLICY=original run privatize --bins $bins --dist $dist --block 256 --keys 3000017 --seed $((bins % 1000 + 3))
  done
done
DD_PRIVATIZE_POLICY=original run histogram --bins 65536 --dist zipf --block 256 --keys 1048576 --seed 4
DD_PRIVATIZE_POLICY=adaptive DD_PRIVATIZE_VERBOSE=1 EXPECT_DD_STDERR="probe: privatized took" \
  run privatize --bins 1000000 --dist uniform --block 256 --keys 3000017 --seed 8
unset DD_PRIVATIZE_POLICY

# SpMV COO and SSSP on the real graphs and the generated ones.
graph_args=(
  "$graphs/chesapeake.mtx"
  "$graphs/wiki-Vote.txt"
  "--base 1 $graphs/luxembourg_osm.edges"
)
for g in "$graphs"/*.gr; do
  [ -e "$g" ] && graph_args+=("$g")
done
for g in "${graph_args[@]}"; do
  for seed in 1 2 3; do
    for block in 128 1000; do
      # shellcheck disable=SC2086
      run spmv_coo --seed $seed --block $block $g
    done
  done
  for src in 0 1 17; do
    # shellcheck disable=SC2086
    run sssp_topology --src $src --seed $src --block 256 $g
  done
done
# Undirected road network: symmetric weights.
run sssp_topology --src 5 --base 1 --symmetrize 1 "$graphs/luxembourg_osm.edges"

echo "examples-differential: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
