package rules

// A runtime or tool fetched into a directory, then a program started from
// that directory: a shell command string that downloads an archive into
// ${dir} and unpacks it there, and a process started as join(dir, …, 'bun')
// lines later (or defined lines earlier). What starts is whatever the
// download held: a runtime the project never declared, running a payload
// outside the package manager's and the language's own tooling.

import (
	"regexp"
	"strings"
	"sync"
)

var (
	// A download or unpack in a command string or argument list.
	fetchCmdRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:curl|wget|aria2c|Invoke-WebRequest|iwr)\b|\burlretrieve\(|\.DownloadFile\(`)
	})
	// Where a download or an unpack writes: -o ${dir}/x.zip, -d "$dir",
	// -C {root}, --output=#{dir}, -OutFile " + dir + ".
	fetchDirRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:\s-[oOdCP]|--output(?:-document)?|--directory(?:-prefix)?|-OutFile|-DestinationPath|,)[\s=]*["'\x60]?(?:\$\{|\{|#\{|\$|["'\x60]\s*\+\s*)([A-Za-z_]\w*)`)
	})
	// A process started by a program held in a name: the call and its
	// first argument.
	startRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:\bexecFile(?:Sync)?|\bspawn(?:Sync)?|\bexeca|\bPopen|\bsubprocess\.(?:run|call|check_call|check_output)|\bos\.exec\w*|\bCommand::new|\bexec\.Command(?:Context)?|(?:^|[^.\w])system|\bProcess\.spawn|\bProcessBuilder|\bStart-Process)\s*\(?\s*\[?\s*&?((?:[^,()\]\s]|\([^()]*\))+)`)
	})
)

// RuntimeRuns returns, for each line that starts a program from a
// directory an earlier or later line downloads into, that line and the
// download's.
func RuntimeRuns(lines []UnitLine) []Leak {
	fetched := map[string]int{} // directory names a download writes into
	for _, l := range lines {
		if !l.Added || !fetchCmdRe().MatchString(l.Text) {
			continue
		}
		for _, m := range fetchDirRe().FindAllStringSubmatch(l.Text, -1) {
			if _, ok := fetched[m[1]]; !ok {
				fetched[m[1]] = l.N
			}
		}
	}
	if len(fetched) == 0 {
		return nil
	}
	// Names built from such a directory: bun = join(dir, 'bin', 'bun').
	for pass := 0; pass < 2; pass++ {
		for _, l := range lines {
			m := leaveRe().envName.FindStringSubmatch(l.Text)
			if m == nil {
				continue
			}
			if _, ok := fetched[m[1]]; ok {
				continue
			}
			rhs := l.Text[strings.Index(l.Text, m[0])+len(m[0])-1:]
			for name, n := range fetched {
				if wordIn(rhs, name) {
					fetched[m[1]] = n
					break
				}
			}
		}
	}
	var out []Leak
	for _, l := range lines {
		if !l.Added {
			continue
		}
		m := startRe().FindStringSubmatch(l.Text)
		if m == nil || fetchCmdRe().MatchString(l.Text) {
			continue
		}
		for name, n := range fetched {
			if n != l.N && wordIn(m[1], name) {
				out = append(out, Leak{Sink: l.N, Source: n, Severity: High,
					Title: "starts a program from where line " + itoa(n) + " downloaded"})
				break
			}
		}
	}
	return out
}

// MayFetch is a cheap test for a line RuntimeRuns needs: most files have
// no downloader and are read no further.
func MayFetch(s string) bool {
	for _, k := range []string{"curl", "wget", "aria2c", "WebRequest", "iwr", "urlretrieve", "DownloadFile"} {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

// HidesOutput reports a process started with its output thrown away:
// Node's stdio 'ignore', Python's DEVNULL, a shell's >/dev/null, a
// window-less Windows process.
func HidesOutput(stmt string) bool { return hiddenOutputRe().MatchString(stmt) }

var hiddenOutputRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bstdio\s*:\s*\[?\s*["']ignore["']|\bstd(?:out|err)\s*=\s*(?:subprocess\.)?DEVNULL\b|>\s*/dev/null|\bCREATE_NO_WINDOW\b|(?i:-WindowStyle\s+Hidden)`)
})
