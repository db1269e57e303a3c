#!/bin/sh
# A stand-in for dd-sp in bench-sp-loops.test: prints the result line of
# its algo and round loop from ALGO-LOOP.time beside it ("MS ROUNDS"; the
# word FAIL fails the call), and records its command line in calls.
algo=atomic loop=host
for a in "$@"; do
  case $a in
  --algo=*) algo=${a#--algo=} ;;
  --round-loop=*) loop=${a#--round-loop=} ;;
  esac
done
dir=$(dirname "$0")
echo "$*" >> "$dir/calls"
read -r ms rounds < "$dir/$algo-$loop.time"
[ "$ms" = FAIL ] && exit 1
echo "dd-sp: verified" >&2
echo "unsolved walksat fixed 0 rounds $rounds sp_ms $ms time_ms 1.0"
