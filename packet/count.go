package packet

import "strconv"

// Count is "1 warning", "2 warnings": a number with its noun agreeing, for
// every line a person reads ("1 warnings" reads as a mistake, and a reader
// who sees one starts doubting the numbers).
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
