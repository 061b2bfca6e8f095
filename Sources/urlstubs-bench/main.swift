// urlstubs-bench: how close URLStubs comes to the floor of the URLProtocol approach, and how
// far ahead of a real local server it is. Build in release:
//
//     swift run -c release urlstubs-bench            # table (progress on stderr)
//     swift run -c release urlstubs-bench --json     # one {"name","value","unit"} per line
//     swift run -c release urlstubs-bench --quick    # CI smoke run, well under a minute
//     urlstubs-bench --only requests,pacing,live     # some sections of the full run
//     urlstubs-bench --only parsers --json           # fixture loading speed (.response, HAR)
//     urlstubs-bench --only record --json            # recording 1,000 exchanges of 100 KB
//     urlstubs-bench --only openapi --json           # OpenAPI document loading and response checks
//     urlstubs-bench --only wiremock --json          # WireMock folder loading, 1,000 mappings vs one
//     urlstubs-bench --only appBackend               # a UI test driving its app's fake backend
//     urlstubs-bench --only stubbed --requests 2000  # one loop alone, for callgrind/perf
//
// Per-request figures are sequential `try await session.data(for:)` calls (1 KB body), run in
// interleaved rounds after a warm-up; each figure is the median of the rounds, and each ratio
// is the median of the per-round ratios. `stream` reports the median throughput and the largest memory growth;
// `liveStream` the delay from a LiveStream write to the delegate's didReceive (median and 99th percentile).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

#if os(macOS) || os(Linux)
struct Options {
    var json = false
    var quick = false
    var only: String?
    var requests: Int?
    var rounds: Int?
    var streamMB: Int?
    var check = false

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst() else { throw BenchError("\(flag) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": json = true
            case "--quick": quick = true
            case "--check": check = true
            case "--only": only = try value(argument)
            case "--requests": requests = Int(try value(argument))
            case "--rounds": rounds = Int(try value(argument))
            case "--stream-mb": streamMB = Int(try value(argument))
            case "-h", "--help":
                print(
                    """
                    usage: urlstubs-bench [--json] [--quick] [--check] [--rounds N] [--requests N] [--stream-mb N]
                                          [--only requests,stream,pacing,live,parsers,record,openapi,appBackend,loopbackServer,wiremock | baseline | hopFloor | stubbed | stubbedConstant | stubbed10k | stubbed10kSharedPath | declared | declared1k
                                                 | wireMock1 | wireMock1000 | wireMockStatic | wireMockTemplated | wireMockLoad]
                    """)
                exit(0)
            default: throw BenchError("unknown argument \(argument) (try --help)")
            }
        }
    }
}

func runOnly(_ name: String, requests: Int) async throws {
    let scenario: RequestScenario
    var keepAlive: [AnyObject] = []
    switch name {
    case "baseline": scenario = baselineScenario()
    case "hopFloor": scenario = hopFloorScenario()
    case "stubbed":
        let (made, registry) = stubbedScenario(name: name, others: 0)
        scenario = made; keepAlive.append(registry)
    case "stubbedConstant":
        let (made, registry) = constantScenario(name: name)
        scenario = made; keepAlive.append(registry)
    case "stubbed10k":
        let (made, registry) = stubbedScenario(name: name, others: 10_000)
        scenario = made; keepAlive.append(registry)
    case "stubbed10kSharedPath":
        let (made, registry) = sharedPathScenario(name: name)
        scenario = made; keepAlive.append(registry)
    case "declared", "declared1k":
        let (made, registry) = try declaredScenario(name: name, others: name == "declared" ? 0 : 1_000)
        scenario = made; keepAlive.append(registry)
    default:
        throw BenchError("--only takes baseline, hopFloor, stubbed, stubbedConstant, stubbed10k, stubbed10kSharedPath, declared or declared1k")
    }
    _ = try await scenario.run(min(200, requests))
    let (perRequest, cpu) = try await scenario.run(requests)
    print("\(name): \(formatted(perRequest, digits: 2)) µs/request, \(formatted(cpu, digits: 2)) µs CPU/request, over \(requests) requests")
    withExtendedLifetime(keepAlive) {}
}

/// Which parts of the full run to do (`--only requests|stream|pacing|live|parsers|record|openapi|appBackend|loopbackServer|wiremock`, default all).
struct Sections {
    var requests = true, stream = true, pacing = true, live = true, parsers = true, record = true, openAPI = true, appBackend = true
    var loopbackServer = true, wireMock = true

    init(_ only: String?) {
        guard let only else { return }
        let names = Set(only.split(separator: ",").map(String.init))
        requests = names.contains("requests")
        stream = names.contains("stream")
        pacing = names.contains("pacing")
        live = names.contains("live")
        parsers = names.contains("parsers")
        record = names.contains("record")
        openAPI = names.contains("openapi")
        appBackend = names.contains("appBackend")
        loopbackServer = names.contains("loopbackServer")
        wireMock = names.contains("wiremock")
    }
}

func runAll(_ options: Options) async throws -> [Figure] {
    let quick = options.quick
    let sections = Sections(options.only)
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("urlstubs-bench-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    var figures: [Figure] = []
    if sections.requests {
        figures += try await runRequests(
            rounds: options.rounds ?? (quick ? 15 : 151),
            requests: options.requests ?? (quick ? 50 : 60), directory: directory)
    }
    if sections.stream {
        figures += try await runStreams(
            bytes: (options.streamMB ?? (quick ? 64 : 1024)) << 20,
            repetitions: quick ? 1 : 3, directory: directory)
    }
    if sections.pacing {
        figures += try await runPacings(bytes: quick ? 400_000 : 2_000_000, requestTime: 0.5, repetitions: quick ? 1 : 3)
    }
    if sections.live {
        figures += try await runLiveStream(writes: quick ? 200 : 5_000)
    }
    if sections.parsers {
        figures += try runParsers()
        figures += try runDeclarationReading()
    }
    if sections.record {
        figures += try await runRecording(exchanges: quick ? 100 : 1000, bodyBytes: 100 * 1024, directory: directory)
    }
    if sections.openAPI {
        figures += try runOpenAPI()
    }
    if sections.appBackend {
        figures += try await runAppBackend(rounds: quick ? 100 : 1_000)
    }
    if sections.loopbackServer {
        figures += try runLoopbackServer(quick: quick)
        figures += try runLoopbackServerCost(quick: quick)
    }
    if sections.wireMock {
        figures += try await runWireMock(directory: directory, quick: quick)
    }
    return figures
}

func benchMain(_ arguments: [String]) async -> Int32 {
    do {
        let options = try Options(arguments)
        if options.only == "loopbackServerProfile" {
            try runLoopbackServerProfile(requests: options.requests ?? 2000)
            return 0
        }
        if let only = options.only,
            [
                "baseline", "hopFloor", "stubbed", "stubbedConstant", "stubbed10k", "stubbed10kSharedPath", "declared", "declared1k",
            ].contains(only)
        {
            try await runOnly(only, requests: options.requests ?? 2000)
            return 0
        }
        if let only = options.only, wireMockModes.contains(only) {
            try await runWireMockOnly(only, count: options.requests ?? 2000)
            return 0
        }
        let figures = try await runAll(options)
        if options.json {
            figures.forEach { print($0.json) }
        } else {
            printTable(figures)
        }
        let checked = figures.filter { $0.target != nil }
        let missed = checked.filter { !$0.target!.holds($0.value) }
        if !options.json {
            print("\ntargets met: \(checked.count - missed.count)/\(checked.count)")
        }
        if options.check, !missed.isEmpty {
            progress("urlstubs-bench: missed \(missed.map(\.name).joined(separator: ", "))")
            return 2
        }
        return 0
    } catch {
        progress("urlstubs-bench: \(error)")
        return 1
    }
}

// Not an async top-level: valgrind cannot run a program whose main thread parks in
// dispatch_main (it crashes creating the next thread), and callgrind is how this
// benchmark is profiled. The main thread just waits; the work runs on the global executor.
let arguments = Array(CommandLine.arguments.dropFirst())
Task.detached {
    let status = await benchMain(arguments)
    exit(status)
}
while true { sleep(3600) }
#else
// The benchmark compares with a loopback server it starts as a child process, and Process
// exists on macOS and Linux only. Elsewhere the target builds (the package scheme builds every
// target) and says where to run it.
print("urlstubs-bench runs on macOS and Linux: swift run -c release urlstubs-bench")
#endif
