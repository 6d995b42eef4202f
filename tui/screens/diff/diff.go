package diff

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// Diff is screen 3: the file list beside every file's hunks in one
// virtualised scroll, with each finding drawn under the line it cites.
//
// The whole diff is flattened once into a slice of small row structs (file
// headers, hunk headers, diff lines, inline findings). Moving around is
// index arithmetic and binary search over that slice; drawing, highlighting
// and intra-line diffs touch only the rows on screen.
type Diff struct {
	ctx  *common.Context
	keys ui.KeyMap // the screen's own copy, so disabling a binding here affects no other screen

	files []*packet.DiffFile
	// built is set once the marks are collected and the rows flattened: on
	// first use, not when the workbench opens (~10 ms on a 200,000-line
	// diff, which a first screen elsewhere need not wait for).
	built bool
	marks []diffMark // every (finding, cited diff line), in row order
	// fileFindings counts the distinct findings on each file.
	fileFindings []int
	// fileHigh counts the high attention items on each file, once the
	// attention scan has been made (highKnown); the screen never makes it,
	// so a big diff opens without waiting for the scan.
	fileHigh  []int
	highKnown bool

	// The flattened rows of the current layout and their indexes.
	rows      []diffRow
	fileRow   []int32 // header row of each file
	hunkBase  []int32 // global index of each file's first hunk
	hunkRow   []int32 // header row of each hunk, by global index
	anchorRow []int32 // every inline finding row, in order
	markRow   []int32 // the row of each mark
	digits    int     // width of the largest line number

	width, height int
	sized         bool // the first SetSize picks the layout
	sbs           bool // side-by-side
	wrap          bool
	list          ui.List // the cursor row and the first row on screen
	xOff          int
	fileList      ui.List // the file list: the cursor's file, the first on screen

	// The cited range of the last Open, on the new side of hlFile.
	hlFile, hlFrom, hlTo int
	// hlHunk/hlLine mark one line exactly when the cite has no new-side number.
	hlHunk, hlLine int

	query   string
	matches []int32 // rows whose line text holds the query

	dmp   *diffmatchpatch.DiffMatchPatch
	sgrs  *diffSGR
	long  map[lineKey][2]string // styled very long lines, kept between frames
	emph  map[lineKey][]span    // intra-line changes of drawn lines, by line
	plain map[lineKey]plainLine // drawn lines' text as shown, and its width

	// listCache holds drawn file-list entries (unselected) for listCacheW.
	listCache  map[int]string
	listCacheW int

	// colouring holds the lines a command is colouring (AsyncHighlight).
	colouring map[hlText]struct{}
}

// rowKind says what a flattened row shows.
type rowKind uint8

const (
	rowFile    rowKind = iota // a file's header
	rowNote                   // why a file shows no lines (binary, mode only, pure rename)
	rowHunk                   // an @@ header
	rowLine                   // a diff line (unified) or a pair of lines (side by side)
	rowFinding                // a finding under the line it cites
)

// diffRow is one row of the flattened diff. It stays small: the 200,000
// lines of a big diff cost one slice of these and nothing per line besides.
type diffRow struct {
	file, hunk int32 // hunk is -1 on file and note rows
	// Unified line rows: a is the line's index in Hunk.Lines and b the index
	// of the line it is paired with for intra-line emphasis (-1 for none).
	// Side-by-side line rows: a is the left (old) line and b the right (new)
	// line, either -1 when that side is blank. Finding rows: a is the line
	// the finding sits under and b the index into Diff.marks.
	a, b int32
	kind rowKind
}

// diffMark is one finding citing one diff line.
type diffMark struct {
	file, hunk, line int32
	f                *packet.Finding
}

type lineKey struct{ file, hunk, line int32 }

// span is a run of cells of a drawn line.
type span = common.Span

// sideBySideMin is the diff pane width (beside the file list) from which
// the screen opens side by side: each side then gets about 70 cells.
const sideBySideMin = 140

// New builds the diff screen for ctx's packet.
func New(ctx *common.Context) *Diff {
	d := &Diff{ctx: ctx, keys: ctx.Keys, hlFile: -1, hlHunk: -1, hlLine: -1, dmp: diffmatchpatch.New()}
	d.list.SetRowHeight(d.rowHeight)
	d.dmp.DiffTimeout = 0 // lines are short and capped; a deadline only adds a clock read
	if ctx.Packet != nil && ctx.Packet.Diff != nil {
		d.files = ctx.Packet.Diff.Files
	}
	return d
}

// ensureBuilt collects the marks and flattens the rows in the current
// layout, once; every entry point that reads them calls it.
func (d *Diff) ensureBuilt() {
	if d.built {
		return
	}
	d.built = true
	d.collectMarks()
	d.build()
	d.clampTop()
	d.ensureVisible()
}

// collectMarks finds every finding's diff citations, one mark per finding
// and cited line, sorted in diff order.
func (d *Diff) collectMarks() {
	d.fileFindings = make([]int, len(d.files))
	if d.ctx.Packet == nil {
		return
	}
	type seenKey struct {
		f    *packet.Finding
		file int
	}
	onFile := map[seenKey]bool{}
	seen := map[diffMark]bool{}
	for _, f := range d.ctx.Packet.Findings {
		for _, c := range f.Citations {
			if c.Kind != packet.CiteDiff && c.Kind != packet.CiteDiffFile {
				continue
			}
			if c.DiffFile < 0 || c.DiffFile >= len(d.files) {
				continue
			}
			if k := (seenKey{f, c.DiffFile}); !onFile[k] {
				onFile[k] = true
				d.fileFindings[c.DiffFile]++
			}
			if c.Kind != packet.CiteDiff || !d.validLine(c.DiffFile, c.DiffHunk, c.DiffLine) {
				continue
			}
			m := diffMark{file: int32(c.DiffFile), hunk: int32(c.DiffHunk), line: int32(c.DiffLine), f: f}
			if !seen[m] {
				seen[m] = true
				d.marks = append(d.marks, m)
			}
		}
	}
	sort.SliceStable(d.marks, func(i, j int) bool {
		a, b := d.marks[i], d.marks[j]
		if a.file != b.file {
			return a.file < b.file
		}
		if a.hunk != b.hunk {
			return a.hunk < b.hunk
		}
		if a.line != b.line {
			return a.line < b.line
		}
		return a.f.Number < b.f.Number
	})
}

func (d *Diff) validLine(f, h, l int) bool {
	return f >= 0 && f < len(d.files) && h >= 0 && h < len(d.files[f].Hunks) &&
		l >= 0 && l < len(d.files[f].Hunks[h].Lines)
}

// build flattens the diff for the current layout in one pass over its lines.
func (d *Diff) build() {
	n, hunks, maxLine := 0, 0, 1
	for _, f := range d.files {
		n++
		if len(f.Hunks) == 0 {
			n++
		}
		for _, h := range f.Hunks {
			n += 1 + len(h.Lines)
			hunks++
			maxLine = max(maxLine, h.OldStart+h.OldLines, h.NewStart+h.NewLines)
		}
	}
	n += len(d.marks)
	d.digits = len(strconv.Itoa(maxLine))
	d.rows = make([]diffRow, 0, n)
	d.fileRow = make([]int32, len(d.files))
	d.hunkBase = make([]int32, len(d.files))
	d.hunkRow = make([]int32, 0, hunks)
	d.anchorRow = make([]int32, 0, len(d.marks))
	d.markRow = make([]int32, len(d.marks))

	mi := 0 // the first mark not yet placed; marks are in diff order
	for fi, f := range d.files {
		d.fileRow[fi] = int32(len(d.rows))
		d.hunkBase[fi] = int32(len(d.hunkRow))
		d.rows = append(d.rows, diffRow{file: int32(fi), hunk: -1, a: -1, b: -1, kind: rowFile})
		if len(f.Hunks) == 0 {
			d.rows = append(d.rows, diffRow{file: int32(fi), hunk: -1, a: -1, b: -1, kind: rowNote})
		}
		for hi, h := range f.Hunks {
			d.hunkRow = append(d.hunkRow, int32(len(d.rows)))
			d.rows = append(d.rows, diffRow{file: int32(fi), hunk: int32(hi), a: -1, b: -1, kind: rowHunk})
			// The marks of this hunk, for placing them under their lines.
			lo := mi
			for mi < len(d.marks) && d.marks[mi].file == int32(fi) && d.marks[mi].hunk == int32(hi) {
				mi++
			}
			d.flattenHunk(int32(fi), int32(hi), h.Lines, d.marks[lo:mi], lo)
		}
	}
}

// flattenHunk appends a hunk's line rows, pairing each run of removed lines
// with the added lines that follow it one to one, and each finding row
// after the row that holds its line.
func (d *Diff) flattenHunk(fi, hi int32, lines []packet.DiffLine, marks []diffMark, markBase int) {
	emit := func(a, b int32) {
		d.rows = append(d.rows, diffRow{file: fi, hunk: hi, a: a, b: b, kind: rowLine})
		if len(marks) == 0 {
			return
		}
		d.placeMarks(fi, hi, a, marks, markBase)
		if d.sbs && b >= 0 && b != a {
			d.placeMarks(fi, hi, b, marks, markBase)
		}
	}
	n := len(lines)
	for i := 0; i < n; {
		if lines[i].Kind != packet.LineRemoved && lines[i].Kind != packet.LineAdded {
			// A context line: unified it pairs with nothing, side by side
			// it is on both sides.
			b := int32(-1)
			if d.sbs {
				b = int32(i)
			}
			emit(int32(i), b)
			i++
			continue
		}
		j := i
		for j < n && lines[j].Kind == packet.LineRemoved {
			j++
		}
		k := j
		for k < n && lines[k].Kind == packet.LineAdded {
			k++
		}
		rem, add := j-i, k-j
		if d.sbs {
			for t := range max(rem, add) {
				l, r := int32(-1), int32(-1)
				if t < rem {
					l = int32(i + t)
				}
				if t < add {
					r = int32(j + t)
				}
				emit(l, r)
			}
		} else {
			for t := range rem {
				p := int32(-1)
				if t < add {
					p = int32(j + t)
				}
				emit(int32(i+t), p)
			}
			for t := range add {
				p := int32(-1)
				if t < rem {
					p = int32(i + t)
				}
				emit(int32(j+t), p)
			}
		}
		i = k
	}
}

// placeMarks appends the finding rows of line li, found by binary search
// among the hunk's marks.
func (d *Diff) placeMarks(fi, hi, li int32, marks []diffMark, markBase int) {
	if li < 0 {
		return
	}
	k := sort.Search(len(marks), func(x int) bool { return marks[x].line >= li })
	for ; k < len(marks) && marks[k].line == li; k++ {
		d.markRow[markBase+k] = int32(len(d.rows))
		d.anchorRow = append(d.anchorRow, int32(len(d.rows)))
		d.rows = append(d.rows, diffRow{file: fi, hunk: hi, a: li, b: int32(markBase + k), kind: rowFinding})
	}
}

// ---- the Screen interface --------------------------------------------------

// Init has no background work: the rows are built on the screen's first
// use (ensureBuilt), not in NewDiff.
func (d *Diff) Init() tea.Cmd { return nil }

// SetSize gives the body's size. The first size picks side by side when
// the diff pane is wide enough; later resizes keep the reader's choice.
func (d *Diff) SetSize(width, height int) {
	d.width, d.height = max(width, 0), max(height, 0)
	if !d.sized && width > 0 {
		d.sized = true
		if want := d.paneWidth() >= sideBySideMin; !d.built {
			d.sbs = want // flattened in this layout when first used
		} else if want != d.sbs {
			d.setSideBySide(want)
		}
	}
	if !d.built {
		return
	}
	d.clampTop()
	d.ensureVisible()
}

// Update handles keys and the mouse wheel.
func (d *Diff) Update(msg tea.Msg) tea.Cmd {
	if !d.built {
		switch msg.(type) {
		case tea.KeyPressMsg, tea.MouseWheelMsg:
			d.ensureBuilt()
		default:
			return nil // nothing coloured or cached yet
		}
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return d.handleKey(msg)
	case diffColouredMsg:
		d.coloured(msg)
	case common.ThemeChangedMsg:
		// The colours were chosen for the old background.
		d.sgrs, d.long = nil, nil
	case tea.MouseWheelMsg:
		m := msg.Mouse()
		// Over the file list the wheel walks the files; over the diff it scrolls.
		if lw := d.listWidth(); lw > 0 && m.X < lw {
			switch m.Button {
			case tea.MouseWheelDown:
				d.jump(d.fileRow, 1, placeTop)
			case tea.MouseWheelUp:
				d.jump(d.fileRow, -1, placeTop)
			}
			return nil
		}
		switch m.Button {
		case tea.MouseWheelDown:
			d.scroll(3)
		case tea.MouseWheelUp:
			d.scroll(-3)
		case tea.MouseWheelRight:
			d.scrollX(8)
		case tea.MouseWheelLeft:
			d.scrollX(-8)
		}
	}
	return nil
}

func (d *Diff) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	cmd, _ := d.keyTable().Dispatch(msg)
	return cmd
}

// follow leads from an inline finding (or a line with findings under it)
// to the finding on the Findings screen.
func (d *Diff) follow() tea.Cmd {
	f := d.findingAtCursor()
	if f == nil {
		return nil
	}
	return common.Follow(common.Target{Screen: common.ScreenFindings, Finding: f.ID, File: -1, Hunk: -1, DiffLine: -1})
}

// Status says where the cursor is.
func (d *Diff) Status() string {
	d.ensureBuilt()
	if len(d.files) == 0 {
		return "no diff"
	}
	r := d.row(d.list.Cursor)
	f := d.files[r.file]
	parts := []string{fmt.Sprintf("file %d/%d %s", r.file+1, len(d.files), ui.SanitizeLine(f.Path()))}
	if dl := d.rowLine(r); dl != nil {
		if dl.New > 0 {
			parts = append(parts, "line "+strconv.Itoa(dl.New))
		} else {
			parts = append(parts, "old line "+strconv.Itoa(dl.Old))
		}
	}
	if r.hunk >= 0 {
		parts = append(parts, fmt.Sprintf("hunk %d/%d", int(d.hunkBase[r.file])+int(r.hunk)+1, len(d.hunkRow)))
	}
	if len(d.anchorRow) > 0 {
		// The finding at or last before the cursor; 0 before the first.
		k := sort.Search(len(d.anchorRow), func(i int) bool { return int(d.anchorRow[i]) > d.list.Cursor })
		k += d.findingsUnder(k)
		parts = append(parts, fmt.Sprintf("finding %d/%d", k, len(d.anchorRow)))
	}
	if d.sbs {
		parts = append(parts, "split")
	}
	return strings.Join(parts, " · ")
}

// keyTable is the screen's keys in the order help lists them, those that
// would do nothing now disabled, so help never offers them and they are
// not answered.
func (d *Diff) keyTable() common.KeyTable {
	d.ensureBuilt()
	k := &d.keys
	has := len(d.rows) > 0
	for _, b := range []*key.Binding{&k.Up, &k.Down, &k.HalfPageUp, &k.HalfPageDown, &k.PageUp, &k.PageDown, &k.Top, &k.Bottom, &k.SideBySide, &k.ToggleWrap} {
		b.SetEnabled(has)
	}
	k.Left.SetEnabled(has && !d.wrap)
	k.Right.SetEnabled(has && !d.wrap)
	k.NextHunk.SetEnabled(len(d.hunkRow) > 0)
	k.PrevHunk.SetEnabled(len(d.hunkRow) > 0)
	k.NextFile.SetEnabled(len(d.fileRow) > 1)
	k.PrevFile.SetEnabled(len(d.fileRow) > 1)
	k.NextAnchor.SetEnabled(len(d.anchorRow) > 0)
	k.PrevAnchor.SetEnabled(len(d.anchorRow) > 0)
	k.Follow.SetEnabled(d.follow() != nil)
	do := func(f func()) func(tea.KeyPressMsg) tea.Cmd {
		return func(tea.KeyPressMsg) tea.Cmd {
			f()
			return nil
		}
	}
	return common.KeyTable{
		{Key: k.Down, Handler: do(func() { d.moveCursor(d.list.Cursor + 1) })},
		{Key: k.Up, Handler: do(func() { d.moveCursor(d.list.Cursor - 1) })},
		{Key: k.HalfPageDown, Handler: do(func() { d.scroll(max(d.paneHeight()/2, 1)) })},
		{Key: k.HalfPageUp, Handler: do(func() { d.scroll(-max(d.paneHeight()/2, 1)) })},
		{Key: k.PageDown, Handler: do(func() { d.scroll(max(d.paneHeight(), 1)) })},
		{Key: k.PageUp, Handler: do(func() { d.scroll(-max(d.paneHeight(), 1)) })},
		{Key: k.Top, Handler: do(func() { d.list.Cursor, d.list.Offset = 0, 0 })},
		{Key: k.Bottom, Handler: do(func() {
			d.list.Cursor = max(len(d.rows)-1, 0)
			d.list.Offset = d.walkBack(d.list.Cursor, d.paneHeight())
		})},
		{Key: k.NextHunk, Handler: do(func() { d.jump(d.hunkRow, 1, placeTop) })},
		{Key: k.PrevHunk, Handler: do(func() { d.jump(d.hunkRow, -1, placeTop) })},
		{Key: k.NextFile, Handler: do(func() { d.jump(d.fileRow, 1, placeTop) })},
		{Key: k.PrevFile, Handler: do(func() { d.jump(d.fileRow, -1, placeTop) })},
		{Key: k.NextAnchor, Handler: do(func() { d.jump(d.anchorRow, 1, placeCenter) })},
		{Key: k.PrevAnchor, Handler: do(func() { d.jump(d.anchorRow, -1, placeCenter) })},
		{Key: k.Follow, Handler: func(tea.KeyPressMsg) tea.Cmd { return d.follow() }},
		{Key: k.SideBySide, Handler: do(func() { d.setSideBySide(!d.sbs) })},
		{Key: k.ToggleWrap, Handler: do(func() {
			d.wrap = !d.wrap
			d.xOff = 0
			d.clampTop()
			d.ensureVisible()
		})},
		{Key: k.Left, Handler: do(func() { d.scrollX(-8) })},
		{Key: k.Right, Handler: do(func() { d.scrollX(8) })},
	}
}

// Bindings are the keys that do something here now: the key table's.
func (d *Diff) Bindings() []key.Binding { return d.keyTable().Keys() }

// row returns row i, or a zero file row when there is none.
func (d *Diff) row(i int) diffRow {
	if i < 0 || i >= len(d.rows) {
		return diffRow{hunk: -1, a: -1, b: -1}
	}
	return d.rows[i]
}

// rowLine is the diff line a row is on: the line itself, the new side of a
// side-by-side pair (else its old side), or the line a finding sits under.
func (d *Diff) rowLine(r diffRow) *packet.DiffLine {
	li := r.a
	switch r.kind {
	case rowLine:
		if d.sbs && r.b >= 0 {
			li = r.b
		}
	case rowFinding:
	default:
		return nil
	}
	if !d.validLine(int(r.file), int(r.hunk), int(li)) {
		return nil
	}
	return &d.files[r.file].Hunks[r.hunk].Lines[li]
}

// rowLineIndex is rowLine's index in Hunk.Lines, or -1.
func (d *Diff) rowLineIndex(r diffRow) int {
	switch r.kind {
	case rowLine:
		if d.sbs && r.b >= 0 {
			return int(r.b)
		}
		return int(r.a)
	case rowFinding:
		return int(r.a)
	}
	return -1
}

// syncHigh counts the high attention items on each file once the packet's
// attention scan has been made elsewhere (the decision screen makes it
// behind the first screen); until then the file list shows none, and the
// entries drawn without them are dropped when they arrive.
func (d *Diff) syncHigh() {
	if d.highKnown || d.ctx.Packet == nil {
		return
	}
	items, ok := d.ctx.Packet.ScannedAttention()
	if !ok {
		return
	}
	d.highKnown = true
	d.fileHigh = make([]int, len(d.files))
	for _, a := range items {
		if a.Severity == packet.AttentionHigh && a.File >= 0 && a.File < len(d.files) {
			d.fileHigh[a.File]++
		}
	}
	d.listCache = nil
}

// high is the number of high attention items on file i, 0 before the scan.
func (d *Diff) high(i int) int {
	if i < 0 || i >= len(d.fileHigh) {
		return 0
	}
	return d.fileHigh[i]
}
