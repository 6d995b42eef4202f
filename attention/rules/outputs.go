package rules

import (
	"regexp"
	"strings"
	"sync"
)

// A step's outputs are written to the file GITHUB_OUTPUT names, in any
// language and in two forms: name=value on one line, or name<<DELIM, the
// value's lines, then DELIM. Whatever text a step writes there is expanded
// by ${{ steps.x.outputs.name }} (or a job's outputs, by needs.x.outputs)
// wherever a later step names it, quoting and all.

var outputRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:echo|printf)\s+(?:-\w+\s+)?["']?([A-Za-z_][\w-]*)(?:=|<<)|\bsetOutput\(\s*['"]([\w-]+)['"]|` +
		`(?:^|[\s(,|=\[{])[fr]?["'` + "`" + `]([A-Za-z_][\w-]*)(?:=|<<)`)
})

var outputOpenRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`["'` + "`" + `]?([A-Za-z_][\w-]*)<<-?["']?([A-Za-z_][\w-]*)`)
})

// OutputName returns the step output a line writes: an echo or printf of
// name=… or name<<DELIM, core.setOutput, or a string that starts name=
// written to the outputs file (or to a handle opened on it: toFile says an
// earlier line of the step opened it). "" when the line writes none.
func OutputName(t string, toFile bool) string {
	m := outputRe().FindStringSubmatch(t)
	if m == nil {
		return ""
	}
	switch {
	case m[1] != "" && (strings.Contains(t, "GITHUB_OUTPUT") || toFile):
		return m[1]
	case m[2] != "":
		return m[2]
	case m[3] != "" && (strings.Contains(t, "GITHUB_OUTPUT") || toFile && writes(t)):
		return m[3]
	}
	return ""
}

// OutputOpen returns the name and delimiter of a multi-line output a line
// starts (name<<EOF), whose value is the lines up to the delimiter.
func OutputOpen(t string) (name, delim string) {
	if m := outputOpenRe().FindStringSubmatch(t); m != nil && !strings.HasPrefix(strings.TrimSpace(t), "cat") {
		return m[1], m[2]
	}
	return "", ""
}

// OutputClose reports a line that ends a multi-line output: the
// delimiter alone, echoed or printed.
func OutputClose(t, delim string) bool {
	t = strings.TrimSpace(t)
	for _, p := range []string{"echo ", "printf ", "print(", "Write-Output ", "fh.write(", "f.write("} {
		t = strings.TrimPrefix(t, p)
	}
	t = strings.Trim(t, "\"'`()\\n;{} ")
	t = strings.TrimSuffix(t, `\n`)
	t = strings.Trim(t, "\"'`")
	return t == delim || strings.HasPrefix(t, delim+`"`) || strings.HasPrefix(t, delim+" >>")
}

// OpensOutputs reports a line that opens or names the outputs file
// without writing a name on it: a Python open(os.environ["GITHUB_OUTPUT"]),
// a Node appendFileSync target bound to a name, a redirection that
// follows a group.
func OpensOutputs(t string) bool {
	return strings.Contains(t, "GITHUB_OUTPUT")
}

func writes(t string) bool {
	return strings.Contains(t, ".write(") || strings.Contains(t, "print(") || strings.Contains(t, "puts ") ||
		strings.Contains(t, "appendFileSync(") || strings.Contains(t, "Add-Content") || strings.Contains(t, "Out-File") ||
		strings.Contains(t, "fmt.Fprint") || strings.Contains(t, "writeln")
}

var stepStartRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*-\s+(?:name|id|run|uses|shell|if|env|with|working-directory|continue-on-error|timeout-minutes)\s*:`)
})

// StepStart reports a line that starts a workflow step, where what an
// earlier step was writing to its outputs ends.
func StepStart(t string) bool { return stepStartRe().MatchString(t) }

// OutputWrite is where a step is in writing its outputs file: a handle
// opened on it, a multi-line value (name<<DELIM) not yet closed.
type OutputWrite struct {
	toFile      bool
	open, delim string
}

// Name returns the output the line writes text into, and moves past it.
func (o *OutputWrite) Name(t string) string {
	if o.open != "" && OutputClose(t, o.delim) {
		o.open = ""
		return ""
	}
	if n, d := OutputOpen(t); n != "" {
		o.open, o.delim = n, d
		// printf 'name<<EOF\n%s\nEOF\n' "$BODY": opened and closed at once.
		return n
	}
	if n := OutputName(t, o.toFile); n != "" {
		return n
	}
	o.toFile = o.toFile || OpensOutputs(t)
	return o.open
}
