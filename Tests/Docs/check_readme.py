#!/usr/bin/env python3
"""Compiles every ```swift block of README.md and of the DocC articles against the local package.

The documents: README.md and every .md file of Sources/URLStubs/URLStubs.docc,
Sources/URLStubsTesting/URLStubsTesting.docc and Sources/URLStubsOpenAPI/URLStubsOpenAPI.docc (or
the files given on the command line).

A block that declares things at top level (imports, @Test functions, types) is complete: its
imports go to the top of a file of its own, after the usual ones (Foundation,
FoundationNetworking, Testing, URLStubs, URLStubsTesting, URLStubsOpenAPI), and the rest is wrapped in a type of
its own, so two documents may both declare `loadsProfile()` or `ProfileTests`. Any other block is
a fragment: it is wrapped in a function whose prelude defines the names fragments use
(`registry`, `url`, `body`, `session`, ...). Both may use the stand-ins of an app under test that
Tests/Docs/DocSupport.swift defines (`UsersClient`, `ProfileClient`, `FeedModel`, `APIClient`,
...). A body written `{ … }` compiles as an empty one.

Blocks fenced as ```swift-nocompile are skipped (a package manifest excerpt, for example); other
fences (```text, ```sh) are not Swift.
Usage: Tests/Docs/check_readme.py [file.md ...]   (exit 1 when a block does not compile)
"""
import glob, os, re, shutil, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if len(sys.argv) > 1:
    documents = [os.path.abspath(path) for path in sys.argv[1:]]
else:
    documents = [os.path.join(root, "README.md")]
    for catalog in ("Sources/URLStubs/URLStubs.docc", "Sources/URLStubsTesting/URLStubsTesting.docc",
                    "Sources/URLStubsOpenAPI/URLStubsOpenAPI.docc"):
        documents += sorted(glob.glob(os.path.join(root, catalog, "*.md")))

# (document, line of the fence, code)
blocks = []
for document in documents:
    text = open(document, encoding="utf-8").read()
    for match in re.finditer(r"^```swift\n(.*?)^```", text, flags=re.S | re.M):
        blocks.append((os.path.relpath(document, root), text.count("\n", 0, match.start()) + 1, match.group(1)))

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

def is_complete(block):
    return re.search(r"^(import |@Test|@Suite|struct |final class |class |func |extension |enum )", block, re.M)

# Under .build, so a second run builds only what changed.
work = os.path.join(root, ".build", "doc-blocks-check")
target = os.path.join(work, "Tests", "DocBlocks")
shutil.rmtree(target, ignore_errors=True)
os.makedirs(os.path.join(target, "Resources"))
open(os.path.join(target, "Resources", "users.json"), "w").write("{}")
shutil.copy(os.path.join(root, "Tests", "Docs", "DocSupport.swift"), target)
# A library target, not a test target: Linux test discovery names XCTestCase classes at top level
# and cannot see those nested in a block's type. Building type-checks everything all the same.
with open(os.path.join(work, "Package.swift"), "w") as f:
    f.write(f"""// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "DocBlocksCheck",
    dependencies: [.package(path: "{root}")],
    targets: [.target(name: "DocBlocks", dependencies: [
        .product(name: "URLStubs", package: "{os.path.basename(root)}"),
        .product(name: "URLStubsTesting", package: "{os.path.basename(root)}"),
        .product(name: "URLStubsOpenAPI", package: "{os.path.basename(root)}"),
        .product(name: "URLStubsOpenAPITesting", package: "{os.path.basename(root)}")],
        path: "Tests/DocBlocks", resources: [.copy("Resources")])],
    swiftLanguageModes: [.v6])
""")
origins = {}
for index, (document, line, block) in enumerate(blocks):
    name = f"Block{index:03d}"
    origins[name] = f"{document}:{line}"
    block = block.replace("{ … }", "{}")
    with open(os.path.join(target, name + ".swift"), "w") as f:
        f.write(f"// {document}:{line}\n")
        if is_complete(block):
            lines = block.splitlines()
            imports = [l for l in lines if l.startswith("import ")]
            rest = [l for l in lines if l not in imports]
            # The header's imports are dropped (`import FoundationNetworking` leaves an empty #if).
            f.write(HEADER + "".join(l + "\n" for l in imports if l not in HEADER.splitlines()))
            if any(l.startswith("extension ") for l in rest):
                # An extension must stay at top level: such a block is compiled as written.
                f.write("\n".join(rest) + "\n")
            else:
                # A type of its own, so top-level names of different blocks never collide.
                f.write(f"struct {name} {{\n" + "".join("    " + l + "\n" for l in rest) + "}\n")
        else:
            indented = "".join("        " + l + "\n" for l in block.splitlines())
            # A nested scope, so a block may declare a name the prelude also declares.
            f.write(f"{HEADER}\n@Sendable func run{name}() async throws {{\n{PRELUDE}\n    do {{\n{indented}    }}\n}}\n")
print(f"compiling {len(blocks)} code blocks of {len(documents)} documents in {work}")
result = subprocess.run(["swift", "build", "--package-path", work], capture_output=True, text=True)
errors = sorted({l for l in (result.stdout + result.stderr).splitlines() if ": error:" in l})
if result.returncode != 0:
    for error in errors:
        found = re.search(r"(Block\d{3})\.swift:(\d+)", error)
        where = f"[{origins[found.group(1)]}] " if found else ""
        print(where + error)
    if not errors:
        print(result.stdout[-4000:] + result.stderr[-4000:])
    print(f"Documentation code blocks: FAILED (sources in {target})")
    sys.exit(1)
print(f"Documentation code blocks: all {len(blocks)} compile")
