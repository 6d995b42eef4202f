// Package source is the file system a packet is read from: a folder
// through os.Root, or a .zip, .tar or .tar.gz read in place, never
// extracted. A packet is untrusted, so nothing read through it leaves the
// packet (absolute names, "..", links that lead out), blocks (devices,
// pipes) or costs more than its bounds (archive bombs); what it refuses or
// cuts it reports as Problems, which the packet turns into its own.
package source

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Limits on what vetter reads from a packet. A packet is untrusted, so every
// read is bounded: an archive bomb must cost seconds and little memory.
const (
	// EntryLimit is how many archive entries vetter looks at.
	EntryLimit = 10_000
	// MemLimit caps the bytes of a compressed tar held in memory in all,
	// and the bytes decompressed from a zip's entries in all.
	MemLimit = 512 << 20
	// FileLimit caps one compressed-tar entry held in memory; a longer log
	// is cut there and reported as Cut.
	FileLimit = 256 << 20
	// StreamLimit caps the decompressed bytes read through a .tar.gz,
	// including entries skipped, so a gzip bomb stops early.
	StreamLimit = 1 << 30
)

// limits are the archive limits in force; tests lower them to exercise the
// cuts without gigabytes of data.
var limits = struct {
	entries           int
	mem, file, stream int64
}{EntryLimit, MemLimit, FileLimit, StreamLimit}

// Source kinds.
const (
	KindDir      = "dir"
	KindZip      = "zip"
	KindTar      = "tar"
	KindTgz      = "tgz"
	KindEmbedded = "embedded"
)

var (
	// ErrNotAPacket means a path is neither a directory nor a readable archive.
	ErrNotAPacket = errors.New("not a packet (neither a directory nor a readable .zip, .tar or .tar.gz archive)")
	// ErrOutsidePacket means a name leads outside the packet: absolute, with
	// "..", or through a symbolic link that leaves it.
	ErrOutsidePacket = errors.New("path leads outside the packet")
	// ErrSpecialFile refuses devices, pipes and sockets: reading one could
	// block forever or touch hardware.
	ErrSpecialFile = errors.New("not a regular file or directory")
	// ErrDuplicate refuses an archive holding two entries with one name, or
	// two whose names differ only in case (review.md and REVIEW.md): which
	// one is read would depend on the tool that unpacks it. Its text is the
	// code PACKET.md gives the refusal.
	ErrDuplicate = errors.New("archive-duplicate-entry")
)

// Trouble is what went wrong with an entry or with the archive as a whole.
type Trouble uint8

const (
	// Unsafe is an entry skipped because it leads outside the packet
	// (absolute, with ".."), is a link, device, pipe or sparse file, or
	// conflicts with another entry.
	Unsafe Trouble = iota + 1
	// OverLimit is an archive with more entries or bytes than vetter reads.
	OverLimit
	// Cut is one entry cut at FileLimit or the memory budget.
	Cut
	// Unreadable is an archive that could not be read past some entry, or an
	// entry that could not be read.
	Unreadable
	// duplicate is a name held twice; the archive is refused (ErrDuplicate).
	duplicate
)

// Problem is one thing reading the source refused or cut: File is the
// entry as the archive names it ("" for the whole archive).
type Problem struct {
	Trouble Trouble
	File    string
	Message string
}

// Source is an opened packet: a read-only fs.FS rooted at the packet, plus what
// went wrong reading it.
type Source struct {
	FS       fs.FS
	Kind     string // "dir", "zip", "tar", "tgz", "embedded"
	Path     string
	Problems []Problem

	closer io.Closer
}

// Close releases the directory or archive file. Logs opened from an archive
// read through it, so close them first.
func (s *Source) Close() error {
	if s == nil || s.closer == nil {
		return nil
	}
	c := s.closer
	s.closer = nil
	return c.Close()
}

func problem(t Trouble, file, message string) Problem {
	return Problem{Trouble: t, File: file, Message: message}
}

// typeRegOld is the NUL type flag that tar writers before POSIX used for a
// regular file (archive/tar's deprecated TypeRegA); such archives still
// exist, and their files are read like any other.
const typeRegOld = '\x00'

// FromFS wraps a file system that needs no guarding, such as the embedded
// sample: it cannot hold symbolic links or devices.
func FromFS(fsys fs.FS, kind, path string) *Source {
	return &Source{FS: fsys, Kind: kind, Path: path}
}

// Open opens a packet directory or archive (.zip, .tar, .tar.gz, .tgz,
// recognised by content as well as by name). It fails, wrapping
// ErrNotAPacket, only when path does not exist or is neither a directory nor
// a readable archive, or, wrapping ErrDuplicate too, when the archive holds
// one name twice; entries it cannot use become Problems.
func Open(p string) (*Source, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("opening packet %s: %w (%w)", p, ErrNotAPacket, err)
	}
	if fi.IsDir() {
		root, err := os.OpenRoot(p)
		if err != nil {
			return nil, fmt.Errorf("opening packet directory %s: %w (%w)", p, ErrNotAPacket, err)
		}
		return &Source{FS: &dirFS{root: root}, Kind: KindDir, Path: p, closer: root}, nil
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("opening packet %s: %w (%s)", p, ErrNotAPacket, ErrSpecialFile)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("opening packet archive %s: %w (%w)", p, ErrNotAPacket, err)
	}
	src, err := openArchive(f, p, fi.Size())
	if err != nil {
		f.Close()
		return nil, err
	}
	var dups []string
	for _, pr := range src.Problems {
		if pr.Trouble == duplicate {
			dups = append(dups, pr.Message)
		}
	}
	if len(dups) > 0 {
		// Two files behind one name: a person who unpacks the archive may
		// read another review.md than vetter would show, so neither is.
		src.Close()
		f.Close()
		if len(dups) > 3 {
			dups = append(dups[:3], fmt.Sprintf("and %d more", len(dups)-3))
		}
		return nil, fmt.Errorf("opening packet archive %s: %w (%w: %s)", p, ErrNotAPacket, ErrDuplicate, strings.Join(dups, "; "))
	}
	return src, nil
}

// openArchive recognises the archive by its magic bytes first and by its
// name second, so a misnamed archive still opens.
func openArchive(f *os.File, p string, size int64) (*Source, error) {
	head := make([]byte, 512)
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	lower := strings.ToLower(p)
	isZipName := strings.HasSuffix(lower, ".zip")
	isTgzName := strings.HasSuffix(lower, ".tgz") || strings.HasSuffix(lower, ".tar.gz")
	isTarName := strings.HasSuffix(lower, ".tar")
	zipMagic := bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06"))
	gzMagic := bytes.HasPrefix(head, []byte{0x1f, 0x8b})
	tarMagic := len(head) >= 262 && string(head[257:262]) == "ustar"
	notPacket := func(why error) error {
		return fmt.Errorf("opening packet archive %s: %w (%w)", p, ErrNotAPacket, why)
	}

	switch {
	case zipMagic:
		return openZip(f, p, size)
	case gzMagic:
		return openTgz(f, p)
	case tarMagic:
		return openTar(f, p)
	case isZipName:
		return openZip(f, p, size)
	case isTgzName:
		return nil, notPacket(errors.New("no gzip header"))
	case isTarName:
		return openTar(f, p)
	}
	// An unknown name and no magic at the start: a zip may still carry a
	// prefix (self-extracting), and its directory sits at the end.
	if src, err := openZip(f, p, size); err == nil {
		return src, nil
	}
	return nil, notPacket(errors.New("unrecognised file format"))
}

// ---- directories -----------------------------------------------------------

// dirFS reads a packet directory through os.Root, which refuses to leave the
// directory. It also resolves symbolic links itself first, to tell a link
// leaving the packet (ErrOutsidePacket) from a missing file, and refuses
// devices and pipes before opening them.
type dirFS struct {
	root *os.Root
}

// maxLinkHops bounds symbolic link resolution, as the kernel does (ELOOP).
const maxLinkHops = 40

// resolve follows symbolic links in name inside the root and returns the
// packet-relative path they lead to.
func (d *dirFS) resolve(name string) (string, error) {
	if !fs.ValidPath(name) {
		if Outside(name) {
			return "", ErrOutsidePacket
		}
		return "", fs.ErrInvalid
	}
	var done []string
	todo := splitPath(name)
	hops := 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(done) == 0 {
				return "", ErrOutsidePacket
			}
			done = done[:len(done)-1]
			continue
		}
		cur := strings.Join(append(done, c), "/")
		fi, err := d.root.Lstat(cur)
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			done = append(done, c)
			continue
		}
		hops++
		if hops > maxLinkHops {
			return "", fmt.Errorf("following links in %s: too many levels of symbolic links", name)
		}
		target, err := d.root.Readlink(cur)
		if err != nil {
			return "", err
		}
		target = filepath.ToSlash(target)
		if target == "" || path.IsAbs(target) || filepath.IsAbs(target) || hasVolume(target) {
			return "", ErrOutsidePacket
		}
		// The link is relative to the directory holding it, which is done.
		todo = append(splitPath(target), todo...)
	}
	if len(done) == 0 {
		return ".", nil
	}
	return strings.Join(done, "/"), nil
}

func splitPath(p string) []string { return strings.Split(p, "/") }

// openFlags opens without blocking where the platform can, so a pipe swapped
// in between the check and the open still cannot hang vetter.
func openFlags() int {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		return os.O_RDONLY
	}
	return os.O_RDONLY | syscall.O_NONBLOCK
}

func (d *dirFS) Open(name string) (fs.File, error) {
	real, err := d.resolve(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: unwrapPathErr(err)}
	}
	fi, err := d.root.Stat(real)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: unwrapPathErr(err)}
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrSpecialFile}
	}
	f, err := d.root.OpenFile(real, openFlags(), 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: unwrapPathErr(err)}
	}
	if fi, err = f.Stat(); err != nil || (!fi.Mode().IsRegular() && !fi.IsDir()) {
		f.Close()
		if err == nil {
			err = ErrSpecialFile
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return f, nil
}

func (d *dirFS) Stat(name string) (fs.FileInfo, error) {
	real, err := d.resolve(name)
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: unwrapPathErr(err)}
	}
	fi, err := d.root.Stat(real)
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: unwrapPathErr(err)}
	}
	return fi, nil
}

func (d *dirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rd, ok := f.(fs.ReadDirFile)
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	list, err := rd.ReadDir(-1)
	slices.SortFunc(list, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return list, err
}

// unwrapPathErr keeps the cause of an os.Root error and maps os.Root's own
// refusal to leave the directory onto ErrOutsidePacket.
func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	// os.Root's escape error is not exported; its text is its only mark.
	if strings.Contains(err.Error(), "escapes from parent") {
		return ErrOutsidePacket
	}
	return err
}

// Outside reports whether a name is absolute or climbs with "..".
func Outside(name string) bool {
	n := strings.ReplaceAll(name, "\\", "/")
	if strings.HasPrefix(n, "/") || hasVolume(n) || filepath.IsAbs(name) {
		return true
	}
	return slices.Contains(splitPath(n), "..")
}

// hasVolume reports a Windows drive letter ("C:"), absolute on that system.
func hasVolume(n string) bool {
	return len(n) >= 2 && n[1] == ':' && (n[0]|0x20 >= 'a' && n[0]|0x20 <= 'z')
}

// ---- archives --------------------------------------------------------------

// archFile is one archive entry. Its bytes come from one of: data (held in
// memory, compressed tar), ra at off (uncompressed tar or stored zip entry,
// read in place), or zf (a compressed zip entry, decompressed on each open).
type archFile struct {
	name      string // packet-relative
	size      int64
	mode      fs.FileMode
	modTime   time.Time
	data      []byte
	ra        io.ReaderAt
	off       int64
	zf        *zip.File
	truncated bool // cut at ArchiveFileLimit or the memory budget
}

// archFS is a read-only file system over archive entries; nothing is ever
// extracted to disk.
type archFS struct {
	files    map[string]*archFile // files and directories by packet-relative name
	children map[string][]string  // directory → sorted child base names
	// inflate bounds the bytes decompressed from a zip's entries in all;
	// nil for other archives.
	inflate *inflateBudget
}

// ErrInflateBudget stops reading a zip whose entries together expand past
// ArchiveMemLimit: per-entry caps alone let a zip of many bombs, or of many
// entries sharing one bomb's data, multiply them.
var ErrInflateBudget = errors.New("the archive expands to more than its budget of decompressed bytes; vetter reads no more of it")

// inflateBudget is what is left of a zip's decompressed-bytes budget.
type inflateBudget struct {
	mu   sync.Mutex
	left int64
}

// take reserves up to n bytes and returns how many it may read.
func (b *inflateBudget) take(n int) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	k := int(min(int64(n), b.left))
	b.left -= int64(k)
	return k
}

func (b *inflateBudget) give(n int) {
	b.mu.Lock()
	b.left += int64(n)
	b.mu.Unlock()
}

// archEntry is what the archive readers hand to the builder.
type archEntry struct {
	raw       string // name as written in the archive
	dir       bool
	size      int64
	modTime   time.Time
	data      []byte
	ra        io.ReaderAt
	off       int64
	zf        *zip.File
	truncated bool
}

// archiveName cleans an entry name; ok is false when it is absolute or climbs
// with "..". An empty clean name (the root itself) is returned as "".
func archiveName(raw string) (string, bool) {
	n := strings.ReplaceAll(raw, "\\", "/")
	if strings.HasPrefix(n, "/") || hasVolume(n) || strings.ContainsRune(n, 0) {
		return "", false
	}
	var parts []string
	for _, c := range splitPath(n) {
		switch c {
		case "", ".":
			continue
		case "..":
			return "", false
		}
		parts = append(parts, c)
	}
	clean := strings.Join(parts, "/")
	if clean != "" && !fs.ValidPath(clean) {
		return "", false
	}
	return clean, true
}

// stripTop finds the single top-level folder the entries may sit under
// (PACKET.md: entries are at the root or under one top-level folder).
func stripTop(names []string, dirs []bool) string {
	top := ""
	for i, n := range names {
		first, _, found := strings.Cut(n, "/")
		if !found && !dirs[i] {
			return "" // a file at the root
		}
		if top == "" {
			top = first
		} else if first != top {
			return ""
		}
	}
	if top == "" {
		return ""
	}
	// "validation" alone is the packet's own folder of runs and logs, unless
	// a packet's documents sit inside it.
	if top == "validation" {
		for _, n := range names {
			rest, ok := strings.CutPrefix(n, top+"/")
			if ok && (strings.HasPrefix(rest, "validation/") || (!strings.Contains(rest, "/") && strings.HasSuffix(rest, ".md"))) {
				return top
			}
		}
		return ""
	}
	return top
}

// buildArchFS turns the entries into a file system, reporting the unsafe and
// the conflicting ones.
func buildArchFS(entries []archEntry, problems *[]Problem) *archFS {
	type kept struct {
		name string
		e    *archEntry
	}
	var keep []kept
	for i := range entries {
		e := &entries[i]
		name, ok := archiveName(e.raw)
		if !ok {
			*problems = append(*problems, problem(Unsafe, e.raw,
				fmt.Sprintf("archive entry %q leads outside the packet (absolute or with \"..\"); skipped", e.raw)))
			continue
		}
		if name == "" || name == "__MACOSX" || strings.HasPrefix(name, "__MACOSX/") {
			continue // the root itself, or macOS resource-fork clutter
		}
		keep = append(keep, kept{name, e})
	}
	names := make([]string, len(keep))
	dirs := make([]bool, len(keep))
	for i, k := range keep {
		names[i], dirs[i] = k.name, k.e.dir
	}
	top := stripTop(names, dirs)

	a := &archFS{
		files:    map[string]*archFile{".": {name: ".", mode: fs.ModeDir | 0o555}},
		children: map[string][]string{},
	}
	// folded finds two entries whose names differ only in case: unpacked on
	// a Mac or Windows one overwrites the other, on Linux both are there,
	// so which review.md a person sees depends on where they unpack it.
	folded := map[string]string{}
	for _, k := range keep {
		name := k.name
		if top != "" {
			name = strings.TrimPrefix(strings.TrimPrefix(name, top), "/")
			if name == "" {
				continue
			}
		}
		if conflict := a.addParents(name); conflict != "" {
			*problems = append(*problems, problem(Unsafe, k.e.raw,
				fmt.Sprintf("archive entry %q needs %q to be a folder, but it is a file; skipped", k.e.raw, conflict)))
			continue
		}
		old := a.files[name]
		if k.e.dir {
			if old != nil && !old.mode.IsDir() {
				*problems = append(*problems, problem(Unsafe, k.e.raw,
					fmt.Sprintf("archive entry %q is a folder and a file; the folder is skipped", k.e.raw)))
				continue
			}
			if old == nil {
				a.add(name, &archFile{name: name, mode: fs.ModeDir | 0o555, modTime: k.e.modTime})
			}
			continue
		}
		if old != nil && old.mode.IsDir() {
			*problems = append(*problems, problem(Unsafe, k.e.raw,
				fmt.Sprintf("archive entry %q is a file and a folder; the file is skipped", k.e.raw)))
			continue
		}
		switch twin, seen := folded[strings.ToLower(name)]; {
		case old != nil:
			*problems = append(*problems, problem(duplicate, name,
				fmt.Sprintf("the archive holds %s twice; which one is the packet depends on the tool that unpacks it", name)))
		case seen && twin != name:
			*problems = append(*problems, problem(duplicate, name,
				fmt.Sprintf("the archive holds %s and %s, names that differ only in case; unpacked where case does not count, one replaces the other", twin, name)))
		default:
			folded[strings.ToLower(name)] = name
		}
		f := &archFile{
			name: name, size: k.e.size, mode: 0o444, modTime: k.e.modTime,
			data: k.e.data, ra: k.e.ra, off: k.e.off, zf: k.e.zf, truncated: k.e.truncated,
		}
		if old != nil {
			a.files[name] = f // a later entry of the same name replaces it, as tar does
		} else {
			a.add(name, f)
		}
	}
	for _, c := range a.children {
		slices.Sort(c)
	}
	return a
}

// addParents creates the folders above name; it returns the first of them
// that is already a file.
func (a *archFS) addParents(name string) string {
	dir := path.Dir(name)
	if dir == "." {
		return ""
	}
	if f, ok := a.files[dir]; ok {
		if !f.mode.IsDir() {
			return dir
		}
		return ""
	}
	if c := a.addParents(dir); c != "" {
		return c
	}
	a.add(dir, &archFile{name: dir, mode: fs.ModeDir | 0o555})
	return ""
}

func (a *archFS) add(name string, f *archFile) {
	a.files[name] = f
	dir := path.Dir(name)
	a.children[dir] = append(a.children[dir], path.Base(name))
}

func (a *archFS) lookup(op, name string) (*archFile, error) {
	if !fs.ValidPath(name) {
		err := fs.ErrInvalid
		if Outside(name) {
			err = ErrOutsidePacket
		}
		return nil, &fs.PathError{Op: op, Path: name, Err: err}
	}
	f, ok := a.files[name]
	if !ok {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	}
	return f, nil
}

func (a *archFS) Open(name string) (fs.File, error) {
	f, err := a.lookup("open", name)
	if err != nil {
		return nil, err
	}
	if f.mode.IsDir() {
		return &archDir{fs: a, f: f}, nil
	}
	switch {
	case f.data != nil:
		return &archSeekFile{f: f, SectionReader: io.NewSectionReader(bytes.NewReader(f.data), 0, int64(len(f.data)))}, nil
	case f.ra != nil:
		return &archSeekFile{f: f, SectionReader: io.NewSectionReader(f.ra, f.off, f.size)}, nil
	case f.zf != nil:
		rc, err := f.zf.Open()
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return &archStreamFile{f: f, rc: rc, budget: a.inflate}, nil
	}
	// An empty entry.
	return &archSeekFile{f: f, SectionReader: io.NewSectionReader(bytes.NewReader(nil), 0, 0)}, nil
}

func (a *archFS) Stat(name string) (fs.FileInfo, error) {
	f, err := a.lookup("stat", name)
	if err != nil {
		return nil, err
	}
	return archInfo{f}, nil
}

func (a *archFS) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := a.lookup("readdir", name)
	if err != nil {
		return nil, err
	}
	if !f.mode.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	return a.entries(name), nil
}

func (a *archFS) entries(dir string) []fs.DirEntry {
	var out []fs.DirEntry
	for _, base := range a.children[dir] {
		full := base
		if dir != "." {
			full = dir + "/" + base
		}
		out = append(out, fs.FileInfoToDirEntry(archInfo{a.files[full]}))
	}
	return out
}

// archInfo is an entry's fs.FileInfo; Sys returns the *archFile so Truncated
// can see that an entry was cut.
type archInfo struct{ f *archFile }

func (i archInfo) Name() string       { return path.Base(i.f.name) }
func (i archInfo) Size() int64        { return i.f.size }
func (i archInfo) Mode() fs.FileMode  { return i.f.mode }
func (i archInfo) ModTime() time.Time { return i.f.modTime }
func (i archInfo) IsDir() bool        { return i.f.mode.IsDir() }
func (i archInfo) Sys() any           { return i.f }

// archSeekFile is an entry readable in place: it offers ReadAt and Seek, so a
// log inside it is read on demand.
type archSeekFile struct {
	*io.SectionReader
	f *archFile
}

func (s *archSeekFile) Stat() (fs.FileInfo, error) { return archInfo{s.f}, nil }
func (s *archSeekFile) Close() error               { return nil }

// archStreamFile is a compressed zip entry: read once, front to back,
// within the archive's budget of decompressed bytes.
type archStreamFile struct {
	f      *archFile
	rc     io.ReadCloser
	budget *inflateBudget
}

func (s *archStreamFile) Stat() (fs.FileInfo, error) { return archInfo{s.f}, nil }
func (s *archStreamFile) Read(p []byte) (int, error) {
	if s.budget == nil || len(p) == 0 {
		return s.rc.Read(p)
	}
	k := s.budget.take(len(p))
	if k == 0 {
		return 0, fmt.Errorf("reading %s: %w", s.f.name, ErrInflateBudget)
	}
	n, err := s.rc.Read(p[:k])
	s.budget.give(k - n)
	return n, err
}
func (s *archStreamFile) Close() error { return s.rc.Close() }

type archDir struct {
	fs   *archFS
	f    *archFile
	list []fs.DirEntry
	read bool
}

func (d *archDir) Stat() (fs.FileInfo, error) { return archInfo{d.f}, nil }
func (d *archDir) Close() error               { return nil }
func (d *archDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.f.name, Err: errors.New("is a directory")}
}

func (d *archDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if !d.read {
		d.list, d.read = d.fs.entries(d.f.name), true
	}
	if n <= 0 {
		out := d.list
		d.list = nil
		return out, nil
	}
	if len(d.list) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(d.list))
	out := d.list[:n]
	d.list = d.list[n:]
	return out, nil
}

// ---- zip -------------------------------------------------------------------

// openZip reads only the zip's central directory; entries are decompressed
// when opened, so a zip bomb costs nothing until a capped read touches it.
func openZip(f *os.File, p string, size int64) (*Source, error) {
	zr, err := zip.NewReader(f, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, fmt.Errorf("opening packet archive %s: %w (%w)", p, ErrNotAPacket, err)
	}
	src := &Source{Kind: KindZip, Path: p, closer: f}
	files := zr.File
	if len(files) > limits.entries {
		src.Problems = append(src.Problems, problem(OverLimit, "",
			fmt.Sprintf("archive %s has %d entries; only the first %d are read", p, len(files), limits.entries)))
		files = files[:limits.entries]
	}
	entries := make([]archEntry, 0, len(files))
	for _, zf := range files {
		mode := zf.Mode()
		e := archEntry{raw: zf.Name, modTime: zf.Modified}
		switch {
		case mode.IsDir() || strings.HasSuffix(zf.Name, "/"):
			e.dir = true
		case mode&fs.ModeType != 0:
			src.Problems = append(src.Problems, unsafeKind(zf.Name, mode))
			continue
		default:
			e.size = int64(zf.UncompressedSize64)
			if e.size < 0 {
				e.size = 0
			}
			// A stored entry is read in place (no CRC check, which buys
			// random access for logs); a compressed one through zip.
			e.zf = zf
			if zf.Method == zip.Store && zf.CompressedSize64 == zf.UncompressedSize64 {
				if off, err := zf.DataOffset(); err == nil && off >= 0 && off <= size && e.size <= size-off {
					e.ra, e.off, e.zf = f, off, nil
				}
			}
		}
		entries = append(entries, e)
	}
	afs := buildArchFS(entries, &src.Problems)
	afs.inflate = &inflateBudget{left: limits.mem}
	src.FS = afs
	return src, nil
}

func unsafeKind(name string, mode fs.FileMode) Problem {
	kind := "a special file"
	switch {
	case mode&fs.ModeSymlink != 0:
		kind = "a symbolic link"
	case mode&fs.ModeDevice != 0:
		kind = "a device"
	case mode&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	}
	return problem(Unsafe, name,
		fmt.Sprintf("archive entry %q is %s; skipped", name, kind))
}

// ---- tar and tar.gz --------------------------------------------------------

// openTar lists an uncompressed tar on disk; entries are read in place at
// their data offset, nothing is held in memory.
func openTar(f *os.File, p string) (*Source, error) {
	src := &Source{Kind: KindTar, Path: p, closer: f}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("opening packet archive %s: %w (%w)", p, ErrNotAPacket, err)
	}
	tr := tar.NewReader(f)
	entries, err := readTar(tr, src, func() bool { return false }, func(hdr *tar.Header, e *archEntry) error {
		off, err := f.Seek(0, io.SeekCurrent)
		if err != nil {
			return err
		}
		e.ra, e.off = f, off
		return nil
	})
	if err != nil {
		return nil, err
	}
	src.FS = buildArchFS(entries, &src.Problems)
	return src, nil
}

// openTgz decompresses a .tar.gz once, front to back, holding entries in
// memory within ArchiveFileLimit, ArchiveMemLimit and ArchiveStreamLimit.
func openTgz(f *os.File, p string) (*Source, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("opening packet archive %s: %w (%w)", p, ErrNotAPacket, err)
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("opening packet archive %s: %w (%w)", p, ErrNotAPacket, err)
	}
	defer zr.Close()
	src := &Source{Kind: KindTgz, Path: p}
	stream := &limitedStream{r: zr, left: limits.stream}
	tr := tar.NewReader(stream)
	budget := limits.mem
	budgetReported := false
	entries, err := readTar(tr, src, func() bool { return stream.hit }, func(hdr *tar.Header, e *archEntry) error {
		keep := max(min(hdr.Size, limits.file, budget), 0)
		// Held in blocks, not one growing buffer, which would briefly need
		// twice a large entry (a 4 GiB bomb's first 256 MiB cost 900 MiB).
		blk, err := ReadBlocks(io.LimitReader(tr, keep))
		if err != nil && !stream.hit {
			return err
		}
		n := blk.Size()
		budget -= n
		e.ra, e.off, e.size = blk, 0, n
		if n < hdr.Size {
			// Find out whether the entry was short or cut: a cut one has more.
			var one [1]byte
			if m, _ := io.ReadFull(tr, one[:]); m > 0 || stream.hit {
				e.truncated = true
				src.Problems = append(src.Problems, problem(Cut, hdr.Name,
					fmt.Sprintf("%s is %d bytes; only the first %d are read from the compressed archive", hdr.Name, hdr.Size, n)))
				if budget <= 0 && !budgetReported {
					budgetReported = true
					src.Problems = append(src.Problems, problem(OverLimit, "",
						fmt.Sprintf("archive %s expands to more than %d MiB; later entries are cut", p, limits.mem>>20)))
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if stream.hit {
		src.Problems = append(src.Problems, problem(OverLimit, "",
			fmt.Sprintf("archive %s expands to more than %d MiB; entries past that are not read", p, limits.stream>>20)))
	}
	src.FS = buildArchFS(entries, &src.Problems)
	f.Close() // everything needed is in memory now
	return src, nil
}

// limitedStream stops a decompressed stream at a byte budget, remembering
// that it did.
type limitedStream struct {
	r    io.Reader
	left int64
	hit  bool
}

func (l *limitedStream) Read(p []byte) (int, error) {
	if l.left <= 0 {
		l.hit = true
		return 0, io.EOF
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// readTar walks the headers, classifying each entry; data is given a regular
// file entry to fill in. Only a tar whose first header is unreadable fails;
// stopped says the stream was cut on purpose, which is reported elsewhere.
func readTar(tr *tar.Reader, src *Source, stopped func() bool, data func(*tar.Header, *archEntry) error) ([]archEntry, error) {
	var entries []archEntry
	for count := 0; ; count++ {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil && !(errors.Is(err, tar.ErrInsecurePath) && hdr != nil) {
			if stopped() {
				break
			}
			if count == 0 {
				return nil, fmt.Errorf("opening packet archive %s: %w (%w)", src.Path, ErrNotAPacket, err)
			}
			src.Problems = append(src.Problems, problem(Unreadable, "",
				fmt.Sprintf("reading archive %s after %d entries: %v; the rest is not read", src.Path, count, err)))
			break
		}
		if hdr.Typeflag == tar.TypeXGlobalHeader {
			count-- // metadata for the whole archive (git archive writes one), not an entry
			continue
		}
		if count >= limits.entries {
			src.Problems = append(src.Problems, problem(OverLimit, "",
				fmt.Sprintf("archive %s has more than %d entries; only the first %d are read", src.Path, limits.entries, limits.entries)))
			break
		}
		e := archEntry{raw: hdr.Name, modTime: hdr.ModTime}
		switch hdr.Typeflag {
		case tar.TypeDir:
			e.dir = true
		case tar.TypeReg, typeRegOld, tar.TypeCont:
			if isSparse(hdr) {
				src.Problems = append(src.Problems, problem(Unsafe, hdr.Name,
					fmt.Sprintf("archive entry %q is a sparse file, which vetter does not read; skipped", hdr.Name)))
				continue
			}
			e.size = max(hdr.Size, 0)
			if _, ok := archiveName(hdr.Name); ok {
				if err := data(hdr, &e); err != nil {
					src.Problems = append(src.Problems, problem(Unreadable, hdr.Name,
						fmt.Sprintf("reading %s from archive %s: %v", hdr.Name, src.Path, err)))
					continue
				}
			}
		case tar.TypeSymlink:
			src.Problems = append(src.Problems, unsafeKind(hdr.Name, fs.ModeSymlink))
			continue
		case tar.TypeLink:
			src.Problems = append(src.Problems, problem(Unsafe, hdr.Name,
				fmt.Sprintf("archive entry %q is a hard link; skipped", hdr.Name)))
			continue
		case tar.TypeChar, tar.TypeBlock:
			src.Problems = append(src.Problems, unsafeKind(hdr.Name, fs.ModeDevice))
			continue
		case tar.TypeFifo:
			src.Problems = append(src.Problems, unsafeKind(hdr.Name, fs.ModeNamedPipe))
			continue
		default:
			src.Problems = append(src.Problems, problem(Unsafe, hdr.Name,
				fmt.Sprintf("archive entry %q has type %q, which vetter does not read; skipped", hdr.Name, hdr.Typeflag)))
			continue
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// isSparse reports a GNU or PAX sparse file, whose data is not laid out in
// place and whose size may be mostly holes.
func isSparse(hdr *tar.Header) bool {
	if hdr.Typeflag == tar.TypeGNUSparse {
		return true
	}
	for k := range hdr.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			return true
		}
	}
	return false
}

// ---- reading ---------------------------------------------------------------

// ReadCapped reads a whole packet file up to limit bytes; truncated is true
// when the file was longer (the caller reports file-too-large).
func ReadCapped(fsys fs.FS, name string, limit int64) (data []byte, truncated bool, err error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", name, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", name, err)
	}
	if fi.IsDir() {
		return nil, false, fmt.Errorf("reading %s: is a directory", name)
	}
	if !fi.Mode().IsRegular() {
		return nil, false, fmt.Errorf("reading %s: %w", name, ErrSpecialFile)
	}
	limit = max(limit, 0)
	var buf bytes.Buffer
	// The declared size may lie (archives); trust it only for a first guess.
	buf.Grow(int(min(max(fi.Size(), 0), limit, 8<<20) + 1))
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", name, err)
	}
	data = buf.Bytes()
	if int64(len(data)) > limit {
		return data[:limit], true, nil
	}
	return data, Truncated(fi), nil
}

// Truncated reports whether fi is an archive entry cut while the archive was
// opened (at FileLimit or the memory budget), which the source's Problems
// already report, once.
func Truncated(fi fs.FileInfo) bool {
	af, ok := fi.Sys().(*archFile)
	return ok && af.truncated
}
