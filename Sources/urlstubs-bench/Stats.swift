import Foundation

/// One figure the benchmark reports.
struct Figure {
    let name: String
    let value: Double
    let unit: String
    /// A target the figure is checked against, in words ("≤ 1.15"), and whether it holds.
    var target: Target?

    struct Target {
        let words: String
        let holds: (Double) -> Bool
    }

    var verdict: String {
        guard let target else { return "" }
        return (target.holds(value) ? "ok   " : "MISS ") + target.words
    }

    var json: String {
        let number = value.isFinite ? formatted(value, digits: 4) : "null"
        return "{\"name\":\"\(escaped(name))\",\"value\":\(number),\"unit\":\"\(escaped(unit))\"}"
    }
}

func target(_ words: String, _ holds: @escaping (Double) -> Bool) -> Figure.Target {
    Figure.Target(words: words, holds: holds)
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Fixed-point text without Foundation's locale-aware formatters.
func formatted(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (abs(value) * scale).rounded()
    let whole = Int(rounded / scale)
    var fraction = String(Int(rounded - Double(whole) * scale))
    while fraction.count < digits { fraction = "0" + fraction }
    let sign = value < 0 && rounded != 0 ? "-" : ""
    return digits == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
}

private func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
}

func padded(_ text: String, _ width: Int, right: Bool = false) -> String {
    let gap = String(repeating: " ", count: max(0, width - text.count))
    return right ? gap + text : text + gap
}

func printTable(_ figures: [Figure]) {
    let nameWidth = max(28, (figures.map(\.name.count).max() ?? 0) + 2)
    print(padded("figure", nameWidth) + padded("value", 14, right: true) + "  " + padded("unit", 10) + "target")
    print(String(repeating: "-", count: nameWidth + 14 + 2 + 10 + 16))
    for figure in figures {
        let digits = abs(figure.value) >= 100 ? 1 : (abs(figure.value) >= 10 ? 2 : 3)
        print(
            padded(figure.name, nameWidth) + padded(formatted(figure.value, digits: digits), 14, right: true)
                + "  " + padded(figure.unit, 10) + figure.verdict)
    }
}

/// Seconds since an arbitrary origin, monotonic.
func now() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}

/// Lines of stderr that show progress without polluting the JSON on stdout.
func progress(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// CPU seconds used by the whole process (every thread) so far. Unlike wall time it does not
/// grow while a shared host runs someone else (steal time), so its ratios stay steady.
func processCPUTime() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
