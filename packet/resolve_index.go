package packet

// diffIndex finds diff files by path in constant time for Reresolve, which
// resolves every citation of the documents and findings against the diff:
// with the linear Diff.FileIndex and Diff.Locate that was citations × files
// string comparisons (a third of loading a 2,000-finding, 1,000-file packet).
// Its answers are exactly those of Diff.FileIndex and Diff.Locate.
type diffIndex struct {
	d            *Diff
	byNew, byOld map[string]int   // the first file with that new / old path
	byPath       map[string][]int // the files whose Path() it is, in diff order
}

func newDiffIndex(d *Diff) *diffIndex {
	if d == nil {
		return nil
	}
	ix := &diffIndex{
		d:      d,
		byNew:  make(map[string]int, len(d.Files)),
		byOld:  make(map[string]int, len(d.Files)),
		byPath: make(map[string][]int, len(d.Files)),
	}
	for i, f := range d.Files {
		if _, ok := ix.byNew[f.NewPath]; !ok {
			ix.byNew[f.NewPath] = i
		}
		if _, ok := ix.byOld[f.OldPath]; !ok {
			ix.byOld[f.OldPath] = i
		}
		p := f.Path()
		ix.byPath[p] = append(ix.byPath[p], i)
	}
	return ix
}

// fileIndex answers as Diff.FileIndex; a nil index asks the diff.
func (ix *diffIndex) fileIndex(d *Diff, path string) int {
	if ix == nil {
		return d.FileIndex(path)
	}
	if path == "" {
		return -1
	}
	if i, ok := ix.byNew[path]; ok {
		return i
	}
	if i, ok := ix.byOld[path]; ok {
		return i
	}
	return -1
}

// locate answers as Diff.Locate; a nil index asks the diff.
func (ix *diffIndex) locate(d *Diff, path string, line int) (fileIdx, hunkIdx, lineIdx int, inHunk bool) {
	if ix == nil {
		return d.Locate(path, line)
	}
	files := ix.byPath[path]
	if path == "" || len(files) == 0 {
		return -1, -1, -1, false
	}
	if line > 0 {
		for _, fi := range files {
			for hi, h := range d.Files[fi].Hunks {
				for li := range h.Lines {
					if h.Lines[li].New == line {
						return fi, hi, li, true
					}
				}
			}
		}
	}
	return files[0], -1, -1, false
}
