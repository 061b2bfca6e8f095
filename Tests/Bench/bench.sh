#!/usr/bin/env bash
# The benchmark, and the profile that goes with it.
#
#   Tests/Bench/bench.sh [options]          release build, then urlstubs-bench (--json, --quick, …)
#   Tests/Bench/bench.sh profile [mode]     callgrind instruction counts per request for one loop
#                                       (mode: stubbed (default), stubbedConstant, baseline, hopFloor, stubbed10k, stubbed10kSharedPath,
#                                       declared, declared1k, wireMock1, wireMock1000, wireMockStatic,
#                                       wireMockTemplated, wireMockAdmin, loopbackServer)
#
# The profile runs the loop twice (200 and 1,200 requests after the same warm-up) and
# subtracts, so start-up and one-time costs cancel: what is left is the cost of 1,000
# requests. Needs valgrind. The callgrind files stay in .build/callgrind/ for
# callgrind_annotate (pipe through `swift demangle --simplified`).
set -euo pipefail
cd "$(dirname "$0")/../.."

swift build -c release --product urlstubs-bench >&2
bench=".build/release/urlstubs-bench"

if [[ "${1:-}" != "profile" ]]; then
    exec "$bench" "$@"
fi

mode="${2:-stubbed}"
# The loopback server's loop: a python3 client in another process drives it, so what
# callgrind counts here is the server's request path (read, parse, match, answer, write).
only="$mode"
[[ "$mode" == "loopbackServer" ]] && only="loopbackServerProfile"
out=".build/callgrind"
mkdir -p "$out"
total() { grep -E "^(summary|totals):" "$1" | head -1 | awk '{print $2}'; }
for n in 200 1200; do
    valgrind --tool=callgrind --callgrind-out-file="$out/$mode.$n.out" "$bench" --only "$only" --requests "$n" \
        > /dev/null 2>&1
done
small=$(total "$out/$mode.200.out")
big=$(total "$out/$mode.1200.out")
echo "$mode: $(( (big - small) / 1000 )) instructions per request (callgrind, release)"
echo "top functions, inclusive, 1,200-request run: $out/$mode.1200.out"
callgrind_annotate --inclusive=yes "$out/$mode.1200.out" 2>/dev/null | swift demangle --simplified \
    | grep -E "URLStubs/|urlstubs-bench" | head -25
