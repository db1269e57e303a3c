#!/bin/sh
# A stand-in for dd-mst in bench-apps-paired.test: prints the next time of
# its way (written: --algo=locks; shipped: --algo=delegate; delegated: the
# same with DD_DELEGATE_POLICY set) from WAY.times beside it, one line per
# call; a line "FAIL" fails the call.
way=written
case " $* " in
*" --algo=delegate "*) way=shipped; [ -n "${DD_DELEGATE_POLICY:-}" ] && way=delegated ;;
esac
dir=$(dirname "$0")
n=$(($(cat "$dir/$way.n" 2>/dev/null || echo 0) + 1))
echo "$n" > "$dir/$way.n"
t=$(sed -n "${n}p" "$dir/$way.times")
[ "$t" = FAIL ] && exit 1
echo "weight 1 trees 1 edges 0 time_ms $t"
