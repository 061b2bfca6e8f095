import Foundation

/// `depth` arrays nested in one another around a `1` (`[[1]]` for 2): JSON that a reader must
/// refuse as too deep past its limit (512 levels), without a stack overflow.
func nestedJSON(_ depth: Int) -> Data {
    Data((String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)).utf8)
}
