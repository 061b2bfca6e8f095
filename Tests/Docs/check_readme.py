#!/usr/bin/env python3
"""Checks the ```swift blocks of README.md and of the DocC articles against the local package:
every block compiles, and the README's blocks also run, as tests of a package that depends on
this one by path, the way a new user's test target does.

The documents: README.md and every .md file of the DocC catalogs listed below (or the files given
on the command line; the blocks of a file named README.md run).

Imports. A block that has `import` lines (with the `#if canImport(FoundationNetworking)` dance)
compiles with those imports and no others, so a block a user pastes compiles as written. A
block without any gets the usual ones (Foundation, FoundationNetworking, Testing, URLStubs,
URLStubsTesting, URLStubsOpenAPI).

Compiled only (the DocC articles). A block that declares things at top level (imports, @Test
functions, types) is complete: the rest of it is wrapped in a type of its own, so two
documents may both declare `loadsProfile()` or `ProfileTests`. Any other block is a fragment:
it is wrapped in a function whose prelude defines the names fragments use (`registry`, `url`,
`body`, `session`, ...). Both may use the stand-ins of an app under test that
Tests/Docs/DocSupport.swift defines (`UsersClient`, `ProfileClient`, `FeedModel`, ...). A body
written `{ … }` compiles as an empty one.

Run (README.md). A complete block is a test file as written (its @Test functions and XCTestCase
classes run); a fragment runs inside `@Test(.stubbed)`, with `registry` being
`StubRegistry.current`. The test target is set up as the README's Install section says:
`resources: [.copy("Fixtures")]` holding `users.json` and `avatar.png`, and Tests/Docs/openapi.yaml
beside the test files (excluded from the target). A block that shows a failure on purpose ends
with a comment `// Fails …:` followed by the message: it runs on its own, must fail, and its
output must hold that message; a `(File.swift:12)` location in it stands for line 12 of the
block in whatever file (the line is checked when the block has its own imports).

Blocks fenced as ```swift-nocompile are skipped (a package manifest excerpt, or code that needs
a dependency the package does not take); other fences (```text, ```sh) are not Swift.
Everything is built under .build/doc-blocks-check, so a second run builds only what changed.
Usage: Tests/Docs/check_readme.py [file.md ...]   (exit 1 when a block does not compile or run)
"""
import glob, os, re, shutil, subprocess, sys, time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if len(sys.argv) > 1:
    documents = [os.path.abspath(path) for path in sys.argv[1:]]
else:
    documents = [os.path.join(root, "README.md")]
    for catalog in ("Sources/URLStubs/URLStubs.docc", "Sources/URLStubsTesting/URLStubsTesting.docc",
                    "Sources/URLStubsOpenAPI/URLStubsOpenAPI.docc", "Sources/URLStubsServer/URLStubsServer.docc",
                    "Sources/URLStubsMigration/URLStubsMigration.docc", "Sources/URLStubsTestRunnerLink/URLStubsTestRunnerLink.docc",
                    "Sources/URLStubsScenarios/URLStubsScenarios.docc", "Sources/URLStubsRecording/URLStubsRecording.docc",
                    "Sources/URLStubsGraphQL/URLStubsGraphQL.docc", "Sources/URLStubsMultipart/URLStubsMultipart.docc",
                    "Sources/URLStubsStreaming/URLStubsStreaming.docc", "Sources/URLStubsWireMock/URLStubsWireMock.docc"):
        documents += sorted(glob.glob(os.path.join(root, catalog, "*.md")))

# (document, line of the fence, code, whether it runs)
blocks = []
for document in documents:
    text = open(document, encoding="utf-8").read()
    for match in re.finditer(r"^```swift\n(.*?)^```", text, flags=re.S | re.M):
        blocks.append((os.path.relpath(document, root), text.count("\n", 0, match.start()) + 1, match.group(1),
                       os.path.basename(document) == "README.md"))

PRELUDE = """
    let registry = StubRegistry()
    let configuration = URLSessionConfiguration.ephemeral
    let url = URL(fileURLWithPath: "/tmp/users.json")
    let video = url, imageURL = url, harURL = url
    let body = Data("body".utf8), data = body, big = body
    struct Payload: Codable { var id = 1 }
    let someEncodable = Payload()
    let session = registry.makeSession()
    let feed = PriceFeed(session: session)
    let app = ShopApp(session: session)
    _ = (registry, configuration, url, video, imageURL, harURL, body, data, big, someEncodable, session, feed, app)
"""
HEADER = """import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsTesting
import URLStubsOpenAPI
"""
FIXTURES = {"users.json": b'{"users": [{"id": 1, "name": "Ada"}]}\n',
            # A PNG signature and an empty image header chunk: bytes to serve, not to draw.
            "avatar.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR" + bytes(17)}
PRODUCTS = ("URLStubs", "URLStubsTesting", "URLStubsOpenAPI", "URLStubsOpenAPITesting", "URLStubsServer", "URLStubsMigration",
            "URLStubsTestRunnerLink", "URLStubsScenarios", "URLStubsRecording", "URLStubsGraphQL", "URLStubsMultipart",
            "URLStubsStreaming", "URLStubsWireMock")


def is_complete(block):
    return re.search(r"^(import |@Test|@Suite|struct |final class |class |func |extension |enum )", block, re.M)


def split_imports(block):
    """The block's leading import lines (with #if canImport, blank and comment lines), and the rest."""
    lines = block.splitlines()
    count = 0
    while count < len(lines) and re.match(r"(import \w|#if canImport|#endif|\s*$|//)", lines[count]):
        count += 1
    prologue = lines[:count]
    if not any(l.startswith("import ") for l in prologue):
        return HEADER, lines
    return "".join(l + "\n" for l in prologue), lines[count:]


def expected_failure(block):
    """The message a block shows failing on purpose, as the parts between its locations, and the
    lines of the block those locations name; or None."""
    lines = block.splitlines()
    starts = [i for i, l in enumerate(lines) if re.match(r"\s*// Fails\b.*:\s*$", l)]
    if not starts:
        return None
    message = " ".join(l.strip()[2:].strip() for l in lines[starts[-1] + 1:] if l.strip().startswith("//"))
    parts = [" ".join(p.split()) for p in re.split(r"\([\w./-]+\.swift:\d+\)", message)]
    named_lines = [int(n) for n in re.findall(r"\([\w./-]+\.swift:(\d+)\)", message)]
    return [p.strip('"') for p in parts if p.strip('"').strip()], named_lines


# Under .build, so a second run builds only what changed.
work = os.path.join(root, ".build", "doc-blocks-check")
folders = {name: os.path.join(work, "Tests", name) for name in ("DocBlocks", "DocRun", "DocRunFailing")}
for folder in folders.values():
    shutil.rmtree(folder, ignore_errors=True)
origins, expected_messages, used = {}, {}, set()
for index, (document, line, block, runs) in enumerate(blocks):
    block = block.replace("{ … }", "{}")
    failing = expected_failure(block) if runs else None
    target = "DocRunFailing" if failing else "DocRun" if runs else "DocBlocks"
    name = f"{'Readme' if runs else 'Block'}{index:03d}"
    origins[name] = f"{document}:{line}"
    used.add(target)
    if failing:
        parts, named_lines = failing
        # A block with its own imports is written line for line below the origin comment, so
        # line n of the block is line n + 1 of the file; otherwise the lines are not checked.
        own_imports = is_complete(block) and split_imports(block)[0] != HEADER
        # (what the output must hold, what to say when it does not)
        expected_messages[name] = [(p, f"the message the block shows: {p}") for p in parts] + (
            [(f"{name}.swift:{n + 1})", f"a location at line {n} of the block") for n in named_lines] if own_imports else [])
    os.makedirs(folders[target], exist_ok=True)
    with open(os.path.join(folders[target], name + ".swift"), "w") as f:
        f.write(f"// {document}:{line}\n")
        if is_complete(block):
            imports, rest = split_imports(block)
            f.write(imports)
            if runs or any(l.startswith("extension ") for l in rest):
                # A test file as written (test discovery sees top-level types only); an extension
                # must stay at top level too.
                f.write("\n".join(rest) + "\n")
            else:
                # A type of its own, so top-level names of different blocks never collide.
                f.write(f"struct {name} {{\n" + "".join("    " + l + "\n" for l in rest) + "}\n")
        elif runs:
            indented = "".join("        " + l + "\n" for l in block.splitlines())
            f.write(f"{HEADER}\n@Test(.stubbed) func readme{index:03d}() async throws {{\n"
                    f"    let registry = StubRegistry.current\n    _ = registry\n    do {{\n{indented}    }}\n}}\n")
        else:
            indented = "".join("        " + l + "\n" for l in block.splitlines())
            # A nested scope, so a block may declare a name the prelude also declares.
            f.write(f"{HEADER}\n@Sendable func run{name}() async throws {{\n{PRELUDE}\n    do {{\n{indented}    }}\n}}\n")
for target in used:
    shutil.copy(os.path.join(root, "Tests", "Docs", "DocSupport.swift"), folders[target])
    if target == "DocBlocks":
        os.makedirs(os.path.join(folders[target], "Resources"))
        open(os.path.join(folders[target], "Resources", "users.json"), "w").write("{}")
    else:
        shutil.copy(os.path.join(root, "Tests", "Docs", "openapi.yaml"), folders[target])
        os.makedirs(os.path.join(folders[target], "Fixtures"))
        for file, content in FIXTURES.items():
            open(os.path.join(folders[target], "Fixtures", file), "wb").write(content)

package = os.path.basename(root)
dependencies = ", ".join(f'.product(name: "{p}", package: "{package}")' for p in PRODUCTS)
manifest_targets = []
if "DocBlocks" in used:
    # A library target, not a test target: Linux test discovery names XCTestCase classes at top
    # level and cannot see those nested in a block's type. Building type-checks everything.
    manifest_targets.append(f'.target(name: "DocBlocks", dependencies: [{dependencies}], path: "Tests/DocBlocks", '
                            'resources: [.copy("Resources")])')
for target in ("DocRun", "DocRunFailing"):
    if target in used:
        # As the README's Install section says: the fixtures folder copied as a resource.
        manifest_targets.append(f'.testTarget(name: "{target}", dependencies: [{dependencies}], path: "Tests/{target}", '
                                'exclude: ["openapi.yaml"], resources: [.copy("Fixtures")])')
with open(os.path.join(work, "Package.swift"), "w") as f:
    f.write(f"""// swift-tools-version:6.1
import PackageDescription
let package = Package(
    name: "DocBlocksCheck",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .visionOS(.v1)],
    dependencies: [.package(path: "{root}")],
    targets: [
        {(','+chr(10)+'        ').join(manifest_targets)}
    ],
    swiftLanguageModes: [.v6])
""")


def where(text):
    """`text` with each generated file's name followed by the document line it comes from."""
    return re.sub(r"((Block|Readme)\d{3})\.swift(:\d+)*", lambda m: f"{m.group(0)} [{origins.get(m.group(1), '?')}]", text)


started = time.monotonic()
runs = sum(1 for b in blocks if b[3])
print(f"compiling {len(blocks)} code blocks of {len(documents)} documents in {work}, then running the {runs} of README.md")
result = subprocess.run(["swift", "build", "--build-tests", "--package-path", work], capture_output=True, text=True)
if result.returncode != 0:
    errors = sorted({l for l in (result.stdout + result.stderr).splitlines() if ": error:" in l})
    for error in errors:
        print(where(error))
    if not errors:
        print(result.stdout[-4000:] + result.stderr[-4000:])
    print(f"Documentation code blocks: FAILED to compile (sources in {work}/Tests)")
    sys.exit(1)
print(f"built in {time.monotonic() - started:.0f} s")

failed = False
for target in ("DocRun", "DocRunFailing"):
    if target not in used:
        continue
    command = ["swift", "test", "--skip-build", "--package-path", work, "--filter", f"^{target}\\."]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=600)
        output, code = result.stdout + result.stderr, result.returncode
    except subprocess.TimeoutExpired as timeout:
        output, code = f"{timeout.stdout or ''}{timeout.stderr or ''}\n(no end after 600 s)", None
    # A crash's backtrace would push its cause out of a tail: the failures, then the tail.
    failures = [l for l in output.splitlines() if re.search(r"Fatal error|: error|✘|exited with", l)]
    if target == "DocRun":
        if code != 0:
            print(where("\n".join(failures[:40]) + "\n…\n" + output[-3000:]))
            print(f"README code blocks: FAILED when run (exit {code}; sources in {folders[target]})")
            failed = True
        continue
    # Each block must fail, with its message; a crash or a time-out is not the failure shown.
    flat = " ".join(output.split())
    missing = [(name, said) for name, expected in expected_messages.items() for text, said in expected if text not in flat]
    if code in (0, None) or missing or "Fatal error" in output:
        print(where("\n".join(failures[:40]) + "\n…\n" + output[-3000:]))
        for name, said in missing:
            print(f"[{origins[name]}] the output does not hold {said}")
        print(f"README code blocks that fail on purpose: FAILED (exit {code}; sources in {folders[target]})")
        failed = True
if failed:
    sys.exit(1)
print(f"Documentation code blocks: all {len(blocks)} compile, the {runs} of README.md run as shown "
      f"({time.monotonic() - started:.0f} s)")
