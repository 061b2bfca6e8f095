#!/usr/bin/env bash
# The package's shape, checked by `.ci/run`: how many `@_spi` declarations Sources holds, and
# which wing imports which. Usage: Tests/Architecture/check_shape.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

# `@_spi` is only for what a user may opt into, each with its reason in a doc comment; code
# shared between this package's modules is `package`. Imports of an SPI (`@_spi(Reflection)
# import Swift`) are not declarations.
max_spi=40
spi=$(grep -rhE '@_spi\(' Sources --include='*.swift' | grep -vcE '^\s*@_spi\([A-Za-z]+\) import ' || true)
echo "@_spi declarations in Sources: $spi (at most $max_spi)"
if [ "$spi" -gt "$max_spi" ]; then
    grep -rnE '@_spi\(' Sources --include='*.swift' | grep -vE ':\s*@_spi\([A-Za-z]+\) import ' | head -20
    echo "error: more than $max_spi @_spi declarations; share code between modules with \`package\` access" >&2
    exit 1
fi

# Wing-to-wing imports: each must be listed with its reason in wing_imports.txt. The test
# library, the OpenAPI test library and the migration library exist to gather wings.
allowed=$(grep -vE '^\s*(#|$)' Tests/Architecture/wing_imports.txt | awk '{print $1}' | sort -u)
found=$(for dir in Sources/URLStubs?*/; do
    wing=$(basename "$dir")
    case "$wing" in URLStubsTesting | URLStubsOpenAPITesting | URLStubsMigration) continue ;; esac
    grep -rhoE '^\s*(@[A-Za-z_]+(\([A-Za-z, ]+\))? )*import URLStubs[A-Za-z]+\b' "$dir" --include='*.swift' |
        grep -oE 'URLStubs[A-Za-z]+$' | sort -u | grep -vx "$wing" | sed "s/^/$wing>/" || true
done | sort -u)
unlisted=$(comm -23 <(echo "$found" | sed '/^$/d') <(echo "$allowed") || true)
stale=$(comm -13 <(echo "$found" | sed '/^$/d') <(echo "$allowed") || true)
echo "wing-to-wing imports: $(echo "$found" | sed '/^$/d' | wc -l) (each listed with its reason in Tests/Architecture/wing_imports.txt)"
if [ -n "$unlisted" ]; then
    echo "$unlisted"
    echo "error: a wing imports another wing; put the shared vocabulary in the engine's declarative stub, or list the import with its reason in Tests/Architecture/wing_imports.txt" >&2
    exit 1
fi
if [ -n "$stale" ]; then
    echo "$stale"
    echo "error: Tests/Architecture/wing_imports.txt lists an import no wing makes any more; remove its line" >&2
    exit 1
fi

# One test target per library, testing that library: the engine's tests import no wing (a test
# that needs one lives in that wing's test target, and the engine's target links none).
engine_test_imports=$(grep -rnE '^\s*(@[A-Za-z_]+(\([A-Za-z, ]+\))? )*import URLStubs[A-Za-z]+\b' Tests/URLStubsTests --include='*.swift' || true)
echo "wing imports in the engine's tests (Tests/URLStubsTests): $(echo "$engine_test_imports" | sed '/^$/d' | wc -l) (none allowed)"
if [ -n "$engine_test_imports" ]; then
    echo "$engine_test_imports"
    echo "error: an engine test imports a wing; move it to that wing's test target (Tests/URLStubs<Wing>Tests)" >&2
    exit 1
fi

# The engine's shared state is guarded by one wrapper (`Locked`, Sources/URLStubs/Support/Locked.swift):
# a hand-written `lock()`/`unlock()` pair can be left taken on an early return and lets a field
# be touched without the lock. The user-code runner's condition variable, which must wait with
# its lock taken, is the one exception.
lock_calls=$(grep -rnE '\.(lock|unlock)\(\)' Sources/URLStubs --include='*.swift' |
    grep -vE '^Sources/URLStubs/(Support/Locked\.swift|Loading/UserCodeRunner\.swift):' || true)
echo "hand-written lock()/unlock() calls in the engine: $(echo "$lock_calls" | sed '/^$/d' | wc -l) (none allowed; use Locked)"
if [ -n "$lock_calls" ]; then
    echo "$lock_calls" | head -20
    echo "error: guard shared state with Locked (Sources/URLStubs/Support/Locked.swift): state.withLock { \$0.field }" >&2
    exit 1
fi

# The article "How the package is built" gives each allowed import its reason in prose: an
# import listed here and not there (or there and not here) fails.
article=Sources/URLStubs/URLStubs.docc/Architecture.md
in_article=$(grep -oE '^- `URLStubs[A-Za-z]+` imports `URLStubs[A-Za-z]+`' "$article" | sed -E 's/^- `([A-Za-z]+)` imports `([A-Za-z]+)`/\1>\2/' | sort -u)
if [ "$in_article" != "$allowed" ]; then
    diff <(echo "$allowed") <(echo "$in_article") || true
    echo "error: $article and Tests/Architecture/wing_imports.txt list different wing-to-wing imports; give each its reason in both" >&2
    exit 1
fi
echo "the architecture article names the same $(echo "$allowed" | wc -l) wing-to-wing imports"

# Tests start children with `SpawnedProcess` (Tests/LoopbackTestServer): corelibs' `Process.run`
# reads past its directory buffer while closing descriptors, which ends the address sanitizer's
# run (and, with ~1,400 descriptors open, a plain run with SIGSEGV).
process_calls=$(grep -rnE '\bProcess\(\)' Tests --include='*.swift' | grep -v '^Tests/LoopbackTestServer/SpawnedProcess\.swift:' || true)
echo "tests starting a child with Process(): $(echo "$process_calls" | sed '/^$/d' | wc -l) (none allowed; use runChildProcess or SpawnedProcess)"
if [ -n "$process_calls" ]; then
    echo "$process_calls"
    echo "error: start the child with runChildProcess(_:arguments:environment:timeLimit:) (Tests/TestSupport/ChildProcess.swift)" >&2
    exit 1
fi

# "How a Request Travels" names the file of each step: every path it names must exist (paths
# start at Sources/URLStubs/ unless they start with Sources/), so a move or a rename that
# leaves the article behind fails here.
travels=Sources/URLStubs/URLStubs.docc/HowARequestTravels.md
missing_paths=$(grep -oE '`[A-Za-z0-9_+/.-]+\.swift`' "$travels" | tr -d '`' | sort -u | while read -r path; do
    case "$path" in
        Sources/*) full="$path" ;;
        */*) full="Sources/URLStubs/$path" ;;
        *) continue ;;
    esac
    [ -f "$full" ] || echo "$full"
done)
echo "file paths named in $travels: $(grep -oE '`[A-Za-z0-9_+/.-]+/[A-Za-z0-9_+.-]+\.swift`' "$travels" | sort -u | wc -l), missing: $(echo "$missing_paths" | sed '/^$/d' | wc -l)"
if [ -n "$missing_paths" ]; then
    echo "$missing_paths"
    echo "error: $travels names files that do not exist; follow the code to where the step now lives and name that file" >&2
    exit 1
fi

# One idea per file: no engine source file over 350 lines.
long_files=$(find Sources/URLStubs -name '*.swift' -exec wc -l {} + | awk '$2 != "total" && $1 > 350 {print $2 " (" $1 " lines)"}')
echo "engine source files over 350 lines: $(echo "$long_files" | sed '/^$/d' | wc -l) (none allowed)"
if [ -n "$long_files" ]; then
    echo "$long_files"
    echo "error: split the file by concept (one main type and its close helpers per file)" >&2
    exit 1
fi
