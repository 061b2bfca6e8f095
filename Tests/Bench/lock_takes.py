#!/usr/bin/env python3
"""Engine lock takes per request, from the two callgrind runs `bench.sh profile MODE` leaves.

    python3 Tests/Bench/lock_takes.py MODE

Counts the calls of `NSLock.lock()` and `NSCondition.lock()` made from URLStubs' own code
(`Locked.withLock` is inlined into its callers, which callgrind names with their file), in the
1,200-request run minus the 200-request run, divided by 1,000: start-up cancels out as in
bench.sh. Foundation's own locks (corelibs' task registry, the cookie store) are not counted.
"""
import re
import subprocess
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "stubbed"


def callers(n):
    text = subprocess.run(
        f"callgrind_annotate --threshold=100 --tree=caller --inclusive=yes .build/callgrind/{mode}.{n}.out"
        " | swift demangle --simplified",
        shell=True, capture_output=True, text=True).stdout
    counts = {}
    block = []
    for line in text.splitlines():
        if not line.strip():
            block = []
            continue
        if re.search(r"\*  \?\?\?:(NSLock|NSCondition)\.lock\(\)", line):
            for caller in block:
                m = re.match(r"\s*[\d,]+ \([^)]*\)\s+< (\S+?\.swift):(.*) \(([\d,]+)x\)", caller)
                if not m or "URLStubs/" not in m.group(1):
                    continue
                name = m.group(2).split(" [")[0]
                counts[name] = counts.get(name, 0) + int(m.group(3).replace(",", ""))
            block = []
            continue
        block.append(line)
    return counts


small, big = callers(200), callers(1200)
total = 0.0
for name in sorted(set(small) | set(big)):
    per = (big.get(name, 0) - small.get(name, 0)) / 1000
    if per >= 0.05:
        total += per
        print(f"{per:6.2f}  {name}")
print(f"{total:6.2f}  engine lock takes per request ({mode})")
