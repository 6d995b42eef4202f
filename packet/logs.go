package packet

// Log is one validation log. Placeholder: the loader work replaces this file.
type Log struct {
	Path string
	Size int64
	Exit *ExitLine
}

// ExitLine is the recorder's closing "[exit N after S s]" line.
type ExitLine struct {
	Code    int
	Seconds float64
	Line    int // 1-based line number in the log; 0 when not yet known
	Text    string
}
