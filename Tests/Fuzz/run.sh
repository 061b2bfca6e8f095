#!/usr/bin/env bash
# Builds and runs libFuzzer targets. Usage: Tests/Fuzz/run.sh <target|all> [seconds]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${2:-60}"
targets=("$1")
if [ "$1" = "all" ]; then
    targets=()
    for file in Tests/Fuzz/*.swift; do targets+=("$(basename "$file" .swift)"); done
fi
mkdir -p .build-fuzz
for target in "${targets[@]}"; do
    out=".build-fuzz/$target"
    mkdir -p "$out/corpus"
    echo "== building $target"
    # A target that tests an add-on names its sources on a "// fuzz-also-compiles:" line: they
    # are compiled into the same module, copied without their imports of this package's
    # modules and LoopbackSockets (`import URLStubs` would be ignored; `import URLStubsRecording`
    # would not be found).
    extra=$(sed -n 's|^// fuzz-also-compiles: ||p' "Tests/Fuzz/$target.swift")
    staged="$out/sources"
    rm -rf "$staged" && mkdir -p "$staged"
    # shellcheck disable=SC2086
    for file in $( [ -n "$extra" ] && find $extra -name '*.swift' ); do
        sed -E '/^(@_spi\([A-Za-z]+\) )*(@_exported )?import (URLStubs[A-Za-z]*|LoopbackSockets)$/d' "$file" >"$staged/$(echo "$file" | tr / _)"
    done
    # shellcheck disable=SC2046
    rm -f "$out/fuzzer"
    if ! swiftc -swift-version 6 -O -suppress-warnings -sanitize=fuzzer,address -parse-as-library -module-name URLStubs -package-name URLStubs \
        $(find Sources/URLStubs "$staged" -name '*.swift') "Tests/Fuzz/$target.swift" -o "$out/fuzzer"; then
        echo "error: the $target fuzz target does not compile" >&2
        exit 1
    fi
    echo "== fuzzing $target for $seconds s"
    seeds="Fixtures/FuzzCorpus/$target"
    "$out/fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix="$out/" "$out/corpus" ${seeds:+$( [ -d "$seeds" ] && echo "$seeds")} 2>&1 | tail -n 4
done
