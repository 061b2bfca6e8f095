#!/usr/bin/env python3
"""Compiles every ```swift block of README.md against the local URLStubs package.

A block that declares things at top level (imports, @Test functions, types) is compiled as a
file of its own. Any other block is a fragment: it is wrapped in a function whose prelude
defines the names fragments use (`registry`, `url`, `body`, ...). Blocks fenced as
```swift-nocompile are skipped (a package manifest excerpt, for example).
Usage: Tests/Docs/check_readme.py [README.md]   (exit 1 when a block does not compile)
"""
import os, re, shutil, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
readme = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "README.md")
text = open(readme, encoding="utf-8").read()
blocks = re.findall(r"^```swift\n(.*?)^```", text, flags=re.S | re.M)

PRELUDE = """
    let registry = StubRegistry()
    let configuration = URLSessionConfiguration.ephemeral
    let url = URL(fileURLWithPath: "/tmp/users.json")
    let video = url, imageURL = url, harURL = url
    let body = Data("body".utf8), data = body
    struct Payload: Codable { var id = 1 }
    let someEncodable = Payload()
    let session = registry.makeSession()
    _ = (registry, configuration, url, video, imageURL, harURL, body, data, someEncodable, session)
"""
HEADER = """import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsOpenAPI
"""

def is_complete(block):
    return re.search(r"^(import |@Test|@Suite|struct |final class |class |func |extension |enum )", block, re.M)

work = tempfile.mkdtemp(prefix="readme-check-")
target = os.path.join(work, "Tests", "ReadmeBlocks")
os.makedirs(os.path.join(target, "Resources"))
open(os.path.join(target, "Resources", "users.json"), "w").write("{}")
with open(os.path.join(work, "Package.swift"), "w") as f:
    f.write(f"""// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "ReadmeCheck",
    dependencies: [.package(path: "{root}")],
    targets: [.testTarget(name: "ReadmeBlocks", dependencies: [
        .product(name: "URLStubs", package: "{os.path.basename(root)}"),
        .product(name: "URLStubsTesting", package: "{os.path.basename(root)}"),
        .product(name: "URLStubsOpenAPI", package: "{os.path.basename(root)}"),
        .product(name: "URLStubsOpenAPITesting", package: "{os.path.basename(root)}")],
        resources: [.copy("Resources")])],
    swiftLanguageModes: [.v6])
""")
for index, block in enumerate(blocks):
    path = os.path.join(target, f"Block{index:02d}.swift")
    with open(path, "w") as f:
        if is_complete(block):
            imports = "" if re.search(r"^import URLStubs", block, re.M) else "import URLStubs\n"
            f.write(f"// README block {index}\n{imports}{block}")
        else:
            indented = "".join("        " + line + "\n" for line in block.splitlines())
            # A nested scope, so a block may declare a name the prelude also declares.
            f.write(f"{HEADER}\n// README block {index}\n@Sendable func readmeBlock{index}() async throws {{\n{PRELUDE}\n    do {{\n{indented}    }}\n}}\n")
print(f"compiling {len(blocks)} README blocks in {work}")
result = subprocess.run(["swift", "build", "--build-tests", "--package-path", work], capture_output=True, text=True)
errors = sorted({line for line in (result.stdout + result.stderr).splitlines() if ": error:" in line})
if result.returncode != 0:
    print("\n".join(errors) or result.stdout[-4000:] + result.stderr[-4000:])
    print(f"README code blocks: FAILED (sources kept in {work})")
    sys.exit(1)
shutil.rmtree(work)
print(f"README code blocks: all {len(blocks)} compile")
