#!/usr/bin/env python3
"""The public API of the library modules (URLStubs and the modules listed in MODULES), read
from the compiler's symbol graphs.

    python3 Tests/API/public_api.py count     # non-deprecated public declarations of URLStubs and
                                              # of every module, the public ways to build a
                                              # StubResponse, the public error types
    python3 Tests/API/public_api.py list      # them, one per line (add --all for deprecated too)
    python3 Tests/API/public_api.py check     # fails when the API differs from the baseline
    python3 Tests/API/public_api.py update    # writes the baseline after a reviewed change

A declaration is a symbol of the module's public symbol graph (types, functions, initializers,
properties, subscripts, operators, members of extensions to other modules' types), without the
cases of enums. Deprecated means marked deprecated itself or declared inside something
deprecated: such spellings still compile, with a fix-it, and are not part of the surface a
newcomer meets; they live in URLStubsMigration only, and `check` fails on a deprecated
declaration of any other module (except in Sources/URLStubsTesting/EarlierSpellings.swift:
URLStubsTesting's own earlier spellings, which stay beside the test frameworks it links). The baseline (Tests/API/<Module>.api) lists every public
declaration, deprecated ones marked, so that any growth or change of the surface shows up in
review; `.ci/run` runs `check`, which also fails past 10 public ways to build a `StubResponse`
(its initializers and static factories, every module): one spelling per kind of body, and on
any `open` declaration (no class of the library is meant to be subclassed by users), and past 6
public error types (types conforming to Swift's `Error`, directly or through a protocol that
refines it such as `LocalizedError`, every module, deprecated names not counted): one type per
domain, so that a `catch` never has to guess which of two types a problem comes as; and past
252 declarations of the engine or 553 for the library modules together (a capability added
later, such as URLStubsServer, is counted apart in its own reviewed baseline). The symbol
graphs are the Linux ones: Apple platforms see the same declarations.
"""
import glob, json, os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TYPE_KINDS = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias"}
MODULES = ["URLStubs", "URLStubsTesting", "URLStubsOpenAPI", "URLStubsOpenAPITesting", "URLStubsServer", "URLStubsMigration",
           "URLStubsTestRunnerLink", "URLStubsScenarios", "URLStubsRecording", "URLStubsGraphQL", "URLStubsMultipart", "URLStubsStreaming",
           "URLStubsWireMock"]
# The one module that holds deprecated spellings, so that no other carries any.
MIGRATION_MODULE = "URLStubsMigration"
# The one other file that may: URLStubsTesting's earlier spellings, kept beside the test
# frameworks it links so that URLStubsMigration need not import them.
DEPRECATED_FILE_EXCEPTIONS = {"URLStubsTesting": "Sources/URLStubsTesting/EarlierSpellings.swift"}
COUNTED_MODULE = "URLStubs"
# One spelling per idea: the public ways to build a `StubResponse` (its initializers and its
# static factories), across every module, deprecated forwards not counted.
MAX_RESPONSE_BUILDERS = 10
# One error type per domain (a stub, a file, the traffic a test expected, the UI-test link, an
# OpenAPI document, the stub server), across every module, deprecated names not counted.
MAX_ERROR_TYPES = 6
# A small engine: at most this many non-deprecated declarations in URLStubs (enum cases not
# counted), and the library modules together no more than the one module and its test and
# OpenAPI libraries had before the split into wings.
# 250, plus 3 for issue 44's one mechanism by which libraries extend `StubError`
# (`LibraryFailure`, its `code`, and `StubError.==`, which the compiler wrote, uncounted, while
# every case's values were Equatable), less `activeScenarios`, now URLStubsScenarios', reviewed.
MAX_ENGINE_DECLARATIONS = 252
# 531, plus 10 for URLStubsOpenAPI's check of declarations before they run (issue 41, item 5:
# `check(_:relativeTo:)`, `check(declarationsOf:relativeTo:)` and their result), reviewed.
# 541, plus 12 for issue 44's libraries' failures leaving `StubError` (whose cases are not
# counted) for a type per library (`StreamFailure`, `RecordingFailure`, `ScenarioFailure`: each
# type, `code` and `description` counted) and the engine's 3 above (`activeScenarios` only moved), reviewed.
MAX_TOTAL_DECLARATIONS = 553
# Capabilities that came after that total was set, each reviewed in its own baseline instead.
# The declarative stub's vocabulary (Sources/URLStubs/Declaration/: patterns, responses, their
# JSON form, the pattern-kind extension point) came after the engine's cap was set; it is
# counted apart from the engine, with its own cap, so the rest of the engine stays small.
DECLARATION_FOLDER = "Sources/URLStubs/Declaration/"
MAX_DECLARATION_VOCABULARY = 110
SEPARATELY_BUDGETED = {"URLStubsServer": "the loopback HTTP server", "URLStubsWireMock": "WireMock mappings"}
SWIFT_ERROR = "s:s5ErrorP"
# Foundation's protocols that refine `Error`; the symbol graph usually lists the implied
# `Error` conformance as well, but a type is counted even where it does not.
ERROR_REFINEMENTS = ("LocalizedError", "CustomNSError", "RecoverableError")


def symbol_graph_dir():
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()
    out = os.path.join(os.path.dirname(bin_path), "symbolgraph")
    subprocess.run(["swift", "package", "dump-symbol-graph", "--skip-synthesized-members",
                    "--minimum-access-level", "public", "--omit-extension-block-symbols"],
                   cwd=ROOT, check=True, capture_output=True, text=True)
    return out


def is_deprecated(symbol):
    return any(entry.get("isUnconditionallyDeprecated") or "deprecated" in entry
               for entry in symbol.get("availability", []))


def declarations(graphs, module, with_files=False):
    """(sort key, line, is deprecated, is enum case) for every public symbol of `module`."""
    symbols = []
    for path in [os.path.join(graphs, f"{module}.symbols.json")] + \
            sorted(glob.glob(os.path.join(graphs, f"{module}@*.symbols.json"))):
        graph = json.load(open(path, encoding="utf-8"))
        symbols.extend(graph["symbols"])
    # Deprecated itself, or inside a deprecated type: overloads share a path, so the symbol
    # itself is judged by its precise identifier and only its parents by path.
    deprecated_types = {tuple(s["pathComponents"]) for s in symbols
                        if is_deprecated(s) and s["kind"]["identifier"] in TYPE_KINDS}
    rows = []
    for symbol in symbols:
        components = tuple(symbol["pathComponents"])
        deprecated = is_deprecated(symbol) or any(components[:n] in deprecated_types for n in range(1, len(components)))
        kind = symbol["kind"]["identifier"].removeprefix("swift.")
        declaration = " ".join("".join(f["spelling"] for f in symbol.get("declarationFragments", [])).split())
        name = ".".join(components)
        line = f"{name} | {kind} | {declaration}" + (" | deprecated" if deprecated else "")
        file = symbol.get("location", {}).get("uri", "")
        rows.append(((name, kind, declaration), line, deprecated, kind == "enum.case", file))
    rows.sort(key=lambda row: (row[0], row[1]))
    return [row[:4] for row in rows] if not with_files else rows


def response_builders(graphs):
    """The non-deprecated initializers and static factories of `StubResponse`, every module."""
    builders = []
    for module in MODULES:
        for (name, kind, declaration), _, deprecated, _ in declarations(graphs, module):
            if deprecated or not name.startswith("StubResponse."):
                continue
            if kind == "init" or (kind == "type.method" and declaration.endswith("-> StubResponse")):
                builders.append(f"{module}: {name}")
    return builders


def error_types(graphs):
    """The non-deprecated public types that conform to `Error`, every module: directly, or
    through a protocol that refines it (Foundation's, or one the modules declare)."""
    symbols, conformances = {}, []
    for module in MODULES:
        for path in [os.path.join(graphs, f"{module}.symbols.json")] + \
                sorted(glob.glob(os.path.join(graphs, f"{module}@*.symbols.json"))):
            graph = json.load(open(path, encoding="utf-8"))
            for symbol in graph["symbols"]:
                symbols.setdefault(symbol["identifier"]["precise"], (module, symbol))
            conformances += [(r["source"], r["target"], r.get("targetFallback") or "")
                             for r in graph["relationships"] if r["kind"] in ("conformsTo", "inheritsFrom")]
    # Protocols that refine `Error`, to a fixed point (a protocol may refine another).
    refining = {SWIFT_ERROR}
    changed = True
    while changed:
        changed = False
        for source, target, fallback in conformances:
            if source in refining:
                continue
            if target in refining or fallback.split(".")[-1] in ERROR_REFINEMENTS:
                if symbols.get(source, (None, {"kind": {"identifier": ""}}))[1]["kind"]["identifier"] == "swift.protocol":
                    refining.add(source)
                    changed = True
    found = set()
    for source, target, fallback in conformances:
        if source not in symbols or not (target in refining or fallback.split(".")[-1] in ERROR_REFINEMENTS):
            continue
        module, symbol = symbols[source]
        if symbol["kind"]["identifier"] in ("swift.protocol", "swift.typealias") or is_deprecated(symbol):
            continue
        found.add(f"{module}: {'.'.join(symbol['pathComponents'])}")
    return sorted(found)


def open_declarations(graphs):
    """Declarations a user could subclass or override from outside (`open`), every module."""
    found = []
    for module in MODULES:
        for path in [os.path.join(graphs, f"{module}.symbols.json")] + \
                sorted(glob.glob(os.path.join(graphs, f"{module}@*.symbols.json"))):
            for symbol in json.load(open(path, encoding="utf-8"))["symbols"]:
                if symbol.get("accessLevel") == "open":
                    found.append(f"{module}: {'.'.join(symbol['pathComponents'])}")
    return sorted(found)


def surface_sizes(graphs):
    """Non-deprecated public declarations per module, enum cases not counted; the engine's
    without its declarative vocabulary (see `vocabulary_size`)."""
    sizes = {module: sum(1 for row in declarations(graphs, module) if not row[2] and not row[3]) for module in MODULES}
    sizes[COUNTED_MODULE] -= vocabulary_size(graphs)
    return sizes


def vocabulary_size(graphs):
    """Non-deprecated public declarations of the engine declared in DECLARATION_FOLDER, or
    members of a type declared there (the compiler's synthesized members have no file)."""
    rows = declarations(graphs, COUNTED_MODULE, with_files=True)
    types = {row[0][0] for row in rows if DECLARATION_FOLDER in row[4] and row[0][1] in {k.removeprefix("swift.") for k in TYPE_KINDS}}
    return sum(1 for row in rows if not row[2] and not row[3]
               and (DECLARATION_FOLDER in row[4] or (not row[4] and row[0][0].split(".")[0] in types)))


def budgeted_total(per_module):
    return sum(count for module, count in per_module.items() if module not in SEPARATELY_BUDGETED)


def baseline_path(module):
    return os.path.join(ROOT, "Tests", "API", f"{module}.api")


def main(argv):
    command = argv[1] if len(argv) > 1 else "count"
    graphs = symbol_graph_dir()
    if command == "count":
        rows = declarations(graphs, COUNTED_MODULE)
        counted = [r for r in rows if not r[2] and not r[3]]
        deprecated = [r for r in rows if r[2] and not r[3]]
        print(f"{COUNTED_MODULE}: {len(counted)} public declarations that are not deprecated "
              f"({len(deprecated)} deprecated spellings kept as forwards; enum cases not counted)")
        print(f"StubResponse: {len(response_builders(graphs))} public ways to build one, every module "
              f"(at most {MAX_RESPONSE_BUILDERS})")
        errors = error_types(graphs)
        print(f"Error types: {len(errors)} public, every module (at most {MAX_ERROR_TYPES}): "
              + ", ".join(line.split(": ", 1)[1] for line in errors))
        per_module = surface_sizes(graphs)
        print("Non-deprecated declarations per module: "
              + ", ".join(f"{module} {count}" for module, count in per_module.items()))
        print(f"The declarative vocabulary ({DECLARATION_FOLDER}): {vocabulary_size(graphs)} "
              f"(at most {MAX_DECLARATION_VOCABULARY}; not in {COUNTED_MODULE}'s count above)")
        print(f"Together: {budgeted_total(per_module)} (at most {MAX_TOTAL_DECLARATIONS}; "
              + ", ".join(f"{m}, {why}, counted apart" for m, why in SEPARATELY_BUDGETED.items()) + ")")
    elif command == "list":
        show_all = "--all" in argv
        for module in MODULES:
            for _, line, deprecated, case in declarations(graphs, module):
                if show_all or not (deprecated or case):
                    print(f"{module}: {line}")
    elif command == "update":
        for module in MODULES:
            lines = [row[1] for row in declarations(graphs, module)]
            with open(baseline_path(module), "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
            print(f"wrote {os.path.relpath(baseline_path(module), ROOT)} ({len(lines)} declarations)")
    elif command == "check":
        failed = False
        for module in MODULES:
            rows = declarations(graphs, module, with_files=True)
            current = [row[1] for row in rows]
            allowed_file = DEPRECATED_FILE_EXCEPTIONS.get(module)
            deprecated = [row[1] for row in rows
                          if row[2] and not (allowed_file and row[4].endswith("/" + allowed_file))]
            if deprecated and module != MIGRATION_MODULE:
                failed = True
                print(f"error: {module} declares {len(deprecated)} deprecated spellings; move each to {MIGRATION_MODULE} "
                      "as a deprecated forward:")
                for line in deprecated:
                    print(f"  {line}")
            try:
                recorded = open(baseline_path(module), encoding="utf-8").read().splitlines()
            except FileNotFoundError:
                recorded = []
            added = sorted(set(current) - set(recorded))
            removed = sorted(set(recorded) - set(current))
            if added or removed:
                failed = True
                print(f"error: the public API of {module} differs from {os.path.relpath(baseline_path(module), ROOT)}:")
                for line in removed:
                    print(f"  - {line}")
                for line in added:
                    print(f"  + {line}")
        opened = open_declarations(graphs)
        if opened:
            failed = True
            print(f"error: {len(opened)} open declarations; users never subclass the library's classes, "
                  "so make each `public` (or `public final`):")
            for line in opened:
                print(f"  {line}")
        builders = response_builders(graphs)
        if len(builders) > MAX_RESPONSE_BUILDERS:
            failed = True
            print(f"error: {len(builders)} public ways to build a StubResponse, at most {MAX_RESPONSE_BUILDERS} "
                  "(one per kind of body); move the extra spelling to URLStubsMigration as a deprecated forward:")
            for line in builders:
                print(f"  {line}")
        per_module = surface_sizes(graphs)
        if per_module[COUNTED_MODULE] > MAX_ENGINE_DECLARATIONS:
            failed = True
            print(f"error: {COUNTED_MODULE} has {per_module[COUNTED_MODULE]} non-deprecated public declarations, at most "
                  f"{MAX_ENGINE_DECLARATIONS}: keep the engine small (a wing, an `@_spi(AddOns)` seam, or one spelling per idea)")
        if vocabulary_size(graphs) > MAX_DECLARATION_VOCABULARY:
            failed = True
            print(f"error: the declarative vocabulary ({DECLARATION_FOLDER}) has {vocabulary_size(graphs)} public declarations, "
                  f"at most {MAX_DECLARATION_VOCABULARY}: one spelling per idea")
        if budgeted_total(per_module) > MAX_TOTAL_DECLARATIONS:
            failed = True
            print(f"error: the library modules together have {budgeted_total(per_module)} non-deprecated public declarations, "
                  f"at most {MAX_TOTAL_DECLARATIONS}")
        errors = error_types(graphs)
        if len(errors) > MAX_ERROR_TYPES:
            failed = True
            print(f"error: {len(errors)} public error types, at most {MAX_ERROR_TYPES} (one per domain); fold the extra "
                  "type's problems into the type of its domain (a case or a kind) and keep its name in URLStubsMigration "
                  "as a deprecated typealias:")
            for line in errors:
                print(f"  {line}")
        if failed:
            print("If the change is intended, review it and run `python3 Tests/API/public_api.py update`, "
                  "then commit the baseline with the change.")
            return 1
        print("public API matches the baseline (" + ", ".join(os.path.relpath(baseline_path(m), ROOT) for m in MODULES) + ")")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
