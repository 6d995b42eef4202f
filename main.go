// Command vetter is a terminal workbench for deciding whether an automatically
// produced change is safe and sound: it loads a work-item packet (plan, change,
// diff, validation runs and logs, advisory review) and lets a person walk it.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	// The attention scan registers itself with packet when imported: every
	// command that shows the gate, the summary or an export reads it.
	_ "github.com/vetter-dev/vetter/attention"
	"github.com/vetter-dev/vetter/github"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/report"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/ui"
)

// version is vetter's version as `vetter version` prints it and exports name
// it. A release sets it and commit with -ldflags "-X main.version=v1.2.3
// -X main.commit=<revision>" (.goreleaser.yaml), which holds whatever the
// build's VCS stamping (-buildvcs=false, a source archive without .git);
// otherwise it comes from the build info (buildVersion).
var version string

// commit is the revision a release was built from, set with -ldflags.
var commit string

func init() {
	if version == "" {
		bi, _ := debug.ReadBuildInfo()
		version = buildVersion(bi)
	}
}

// versionLine is what `vetter version` and `vetter --version` print: the
// version, and the commit when the build was told it.
func versionLine() string {
	if commit == "" {
		return "vetter " + version
	}
	c := commit
	if len(c) > 12 {
		c = c[:12]
	}
	return "vetter " + version + " (commit " + c + ")"
}

// pseudoVersion matches the version Go stamps on a build of a checkout that
// no tag names exactly ("v0.0.0-20261201140000-1bb1c70f4285+dirty").
var pseudoVersion = regexp.MustCompile(`-(?:[0-9a-z.]+\.)?[0-9]{14}-[0-9a-f]{12}(?:\+dirty)?$`)

// buildVersion is the module's version when the build names a release
// (go install vetter@v1.2.3), else dev+<revision>[-dirty] from the VCS
// stamp of a build in a checkout, else dev: go test, go run and builds with
// -buildvcs=false (as .ci/run does) carry no revision.
func buildVersion(bi *debug.BuildInfo) string {
	if bi == nil {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" && !pseudoVersion.MatchString(v) {
		return v
	}
	var rev string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		return "dev+" + rev + "-dirty"
	}
	return "dev+" + rev
}

// exitError carries an exit status out of a command without os.Exit inside it.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	relaxGC()
	err := newRootCmd(os.Stdout, os.Stderr).Execute()
	var ee exitError
	switch {
	case errors.As(err, &ee):
		os.Exit(ee.code)
	case err != nil:
		fmt.Fprintln(os.Stderr, "vetter:", err)
		os.Exit(2)
	}
}

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	var theme, openAt string
	var plain, watch bool
	var sinceArg string
	root := &cobra.Command{
		Use:   "vetter [PACKET | DIR]",
		Short: "Walk a work-item packet and decide whether the change may run on CI",
		Long: `vetter loads a work-item packet — plan.md, change.md, change.diff,
change-validation.md, review.md, validation/registry.jsonl and its logs — from a
directory, a .zip, .tar, .tar.gz or .tgz, and opens it in a full-screen workbench.
With no PACKET it opens a built-in sample packet.

When PACKET is a folder of packets (sub-folders or archives) rather than a
packet, vetter opens an inbox: one row per packet, what needs a person first;
enter opens one, backspace returns to the inbox.`,
		Args:          cobra.MaximumNArgs(1),
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if theme != "" && theme != "dark" && theme != "light" {
				return fmt.Errorf("--theme takes dark or light, not %q", theme)
			}
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			if theme == "" {
				theme = cfg.Theme // the config file's, where --theme does not say
			}
			if len(args) == 1 && review.IsInboxDir(args[0]) {
				if plain || openAt != "" {
					return fmt.Errorf("%s is a folder of packets: --print and --open take one packet", args[0])
				}
				return runInbox(args[0], theme, watch, stdout)
			}
			if openAt != "" && !plain && sinceArg == "" && len(args) == 1 {
				if pv, t, ok := previewFor(args[0], openAt); ok {
					return runPreview(pv, t, theme, watch, stdout)
				}
			}
			if plain {
				// The summary's own loading, the reviewer's state included:
				// --print and summary print one value for one state.
				prOpts.fresh = true
				p, _, err := loadReviewed(args, stderr)
				if err != nil {
					return err
				}
				defer p.Close()
				return writeReport(stdout, report.Summarize(p), false, false)
			}
			prOpts.cachedFirst = true
			p, err := loadArgWith(args, stderr, packet.Options{DeferLogIndex: true, DeferAbove: packet.SmallLog})
			if err != nil {
				return err
			}
			defer p.Close()
			var old *packet.Packet
			if sinceArg != "" {
				if old, err = loadRound(sinceArg, stderr); err != nil {
					return err
				}
				defer old.Close()
			}
			return runWorkbench(p, theme, openAt, watch, old, stdout)
		},
	}
	root.Flags().StringVar(&theme, "theme", "", "dark or light (default: detect the terminal's background)")
	root.Flags().StringVar(&openAt, "open", "", "start at a citation: change-validation.md:269, validation/logs/x.log:40-52, path/in/diff.go:120, review.md#2")
	root.Flags().BoolVar(&plain, "print", false, "print the summary instead of opening the workbench")
	root.Flags().StringVar(&sinceArg, "since", "", "an earlier round of the same packet (a path, or sample): screen 8 shows what changed since")
	root.Flags().BoolVar(&watch, "watch", true, "reload a folder packet in place when its files change (--watch=false to keep what was read)")
	root.SetOut(stdout)
	root.SetErr(stderr)
	// --version prints what `vetter version` prints.
	root.SetVersionTemplate(versionLine() + "\n")
	root.AddCommand(newCheckCmd(stdout, stderr), newSummaryCmd(stdout, stderr),
		newSampleCmd(stdout), newVersionCmd(stdout), newConfigCmd(stdout))
	addTriageCommands(root, stdout, stderr)
	addCompareCommand(root, stdout, stderr)
	addQueueCommand(root, stdout, stderr)
	addCompletions(root)
	strictCompletion(root)
	addPRFlags(root)
	return root
}

// archiveExts are the archive names packet.Load reads, as completion offers
// them.
var archiveExts = []string{".zip", ".tar", ".tar.gz", ".tgz"}

// completePacket completes a PACKET argument: the directories and archives
// whose path starts with what was typed. It lists them itself rather than
// asking the shell to filter file names by extension, since cobra adds
// subcommand names and required flags to the same list and a shell would
// take those for extensions. A path it cannot list ("~/…") falls back to
// the shell's own file completion.
func completePacket(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	dir, base := filepath.Split(toComplete)
	list := dir
	if list == "" {
		list = "."
	}
	entries, err := os.ReadDir(list)
	if err != nil {
		return nil, cobra.ShellCompDirectiveDefault
	}
	var out []string
	directive := cobra.ShellCompDirectiveNoFileComp
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, base) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".")) {
			continue
		}
		if fi, err := os.Stat(filepath.Join(list, name)); err == nil && fi.IsDir() {
			// A directory is a packet or leads to one: no space after it,
			// so the next tab goes on into it.
			out = append(out, dir+name+string(filepath.Separator))
			directive |= cobra.ShellCompDirectiveNoSpace
			continue
		}
		lower := strings.ToLower(name)
		for _, ext := range archiveExts {
			if strings.HasSuffix(lower, ext) {
				out = append(out, dir+name)
				break
			}
		}
	}
	return out, directive
}

// completeWords completes a flag that takes one of a fixed set of words.
func completeWords(words ...string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return words, cobra.ShellCompDirectiveNoFileComp
	}
}

// addCompletions teaches cobra's `completion` command vetter's arguments:
// every argument named PACKET (or OLD and NEW) is a packet, sample's DIR is
// a directory, and each flag that takes a fixed set of words offers them.
// It runs once the tree is built, so a command added later with a PACKET
// argument completes without being listed here.
func addCompletions(root *cobra.Command) {
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.ValidArgsFunction == nil {
			switch f := strings.Fields(c.Use); {
			case c.Name() == "sample":
				c.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
					return nil, cobra.ShellCompDirectiveFilterDirs
				}
			case len(f) > 1 && (strings.Contains(f[1], "PACKET") || f[1] == "OLD"):
				c.ValidArgsFunction = completePacketArgs(f[1] == "OLD")
			}
		}
		flags := map[string]cobra.CompletionFunc{
			"theme":    completeWords("dark", "light"),
			"format":   completeWords(report.ExportFormats...),
			"severity": completeWords("blocker", "major", "minor", "nit"),
			"since":    completePacket,
		}
		for name, fn := range flags {
			if c.Flags().Lookup(name) != nil {
				if _, ok := c.GetFlagCompletionFunc(name); !ok {
					c.RegisterFlagCompletionFunc(name, fn)
				}
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// strictCompletion makes `completion SHELL` refuse a shell it has no script
// for (tcsh, say) as a usage error, exit 2: cobra's own completion command
// has no Run, so an unknown shell printed its help and exited 0, and a
// script expecting a completion file got a help text.
func strictCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		var shells []string
		for _, sub := range c.Commands() {
			shells = append(shells, sub.Name())
		}
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fmt.Errorf("completion: name a shell: %s", strings.Join(shells, ", "))
			}
			return fmt.Errorf("completion: no script for %q; the shells are %s", args[0], strings.Join(shells, ", "))
		}
	}
}

// completePacketArgs completes the first argument as a packet (both, for
// compare's OLD NEW); the arguments after it (finding ids) are not files.
func completePacketArgs(two bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) == 0 || (two && len(args) == 1) {
			return completePacket(cmd, args, toComplete)
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}

// needPacket is the Args of a command that reads a packet and has no use for
// the built-in sample: without PACKET it is a usage error naming where a
// packet comes from, not a silent run on the sample.
func needPacket(name string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return fmt.Errorf("%s needs a PACKET (a folder, an archive; `vetter sample DIR` writes one)", name)
		}
		return cobra.ExactArgs(1)(cmd, args)
	}
}

// loadArg loads the packet named by args, or the built-in sample. A path that
// cannot be read as a packet at all is exit status 2.
func loadArg(args []string, stderr io.Writer) (*packet.Packet, error) {
	return loadArgWith(args, stderr, packet.Options{})
}

func loadArgWith(args []string, stderr io.Writer, opts packet.Options) (*packet.Packet, error) {
	if len(args) == 0 {
		return packet.LoadSample(opts), nil
	}
	path, _, err := resolvePacketArg(args[0])
	if err != nil {
		fmt.Fprintln(stderr, "vetter:", ui.Sanitize(err.Error()))
		return nil, exitError{2}
	}
	opts.OriginRoot = originRoot()
	p, err := packet.Load(path, opts)
	if err != nil {
		fmt.Fprintln(stderr, "vetter:", ui.Sanitize(err.Error()))
		return nil, exitError{2}
	}
	return p, nil
}

// originRoot is where vetter keeps the packets it builds from pull requests:
// only there is a packet's pr.json its own (packet.Options.OriginRoot).
func originRoot() string {
	d, err := github.DefaultCacheDir()
	if err != nil {
		return ""
	}
	return d
}

// loadReviewed loads the packet named by args (or the built-in sample) with
// the reviewer's state of its work item: triage, the gate decision and the
// rounds seen, from the state directory (never from the packet).
func loadReviewed(args []string, stderr io.Writer) (*packet.Packet, *review.Store, error) {
	p, err := loadArg(args, stderr)
	if err != nil {
		return nil, nil, err
	}
	s, err := review.OpenStore(p, "")
	if err != nil {
		p.Close()
		return nil, nil, err
	}
	if u := s.Unsaved(); u != "" {
		// Reading needs no writing: the command carries on, and says what
		// the disk would not keep.
		fmt.Fprintln(stderr, "vetter:", ui.Sanitize("the state disk refused a write: "+u))
	}
	return p, s, nil
}

func newCheckCmd(stdout, stderr io.Writer) *cobra.Command {
	var asJSON bool
	var jf jsonFormat
	cmd := &cobra.Command{
		Use:   "check PACKET",
		Short: "Audit a packet: is it complete, consistent and safe to read?",
		Long: `check lists the packet's problems grouped by file, with line numbers.
Exit status: 0 when there is no error-severity problem, 1 when there is one,
2 when PACKET cannot be read as a packet at all.`,
		Args: needPacket("check"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := jf.check("check", asJSON); err != nil {
				return err
			}
			p, err := loadArg(args, stderr)
			if err != nil {
				return err
			}
			defer p.Close()
			probs := append([]packet.Problem{}, p.Problems...)
			packet.SortProblems(probs)
			if asJSON {
				if err := jf.write(stdout, struct {
					Problems []packet.Problem `json:"problems"`
				}{probs}); err != nil {
					return err
				}
			} else {
				writeSanitized(stdout, func(w io.Writer) { writeProblems(w, p.Path, probs) })
			}
			for _, pr := range probs {
				if pr.Severity == packet.SevError {
					return exitError{1}
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"problems": [...]} as JSON`)
	jf.addFlags(cmd)
	return cmd
}

// writeProblems prints problems grouped by file, packet-wide ones first.
func writeProblems(w io.Writer, path string, probs []packet.Problem) {
	if len(probs) == 0 {
		fmt.Fprintf(w, "%s: no problems\n", path)
		return
	}
	byFile := map[string][]packet.Problem{}
	var files []string
	for _, pr := range probs {
		if _, ok := byFile[pr.File]; !ok {
			files = append(files, pr.File)
		}
		byFile[pr.File] = append(byFile[pr.File], pr)
	}
	sort.Strings(files)
	for _, f := range files {
		name := f
		if name == "" {
			name = "(packet)"
		}
		fmt.Fprintln(w, name)
		for _, pr := range byFile[f] {
			line := "-"
			if pr.Line > 0 {
				line = fmt.Sprint(pr.Line)
			}
			fmt.Fprintf(w, "  %5s  %-7s  %-26s %s\n", line, pr.Severity, pr.Code, pr.Message)
		}
	}
	var e, wn, in int
	for _, pr := range probs {
		switch pr.Severity {
		case packet.SevError:
			e++
		case packet.SevWarning:
			wn++
		default:
			in++
		}
	}
	fmt.Fprintf(w, "\n%s, %s, %d info\n", packet.Count(e, "error", "errors"), packet.Count(wn, "warning", "warnings"), in)
}

func newSummaryCmd(stdout, stderr io.Writer) *cobra.Command {
	var asJSON, asMarkdown, exitStatus bool
	var jf jsonFormat
	cmd := &cobra.Command{
		Use:   "summary PACKET",
		Short: "Print the header, verdict, evidence, diff stats, findings and gate",
		Args:  needPacket("summary"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON && asMarkdown {
				return errors.New("summary: --json and --markdown are exclusive")
			}
			if err := jf.check("summary", asJSON); err != nil {
				return err
			}
			prOpts.fresh = true
			p, _, err := loadReviewed(args, stderr)
			if err != nil {
				return err
			}
			defer p.Close()
			sum := report.Summarize(p)
			if jf.set() {
				err = jf.write(stdout, sum)
			} else {
				err = writeReport(stdout, sum, asJSON, asMarkdown)
			}
			if err != nil || !exitStatus {
				return err
			}
			if code := gateExitStatus(p, sum.Gate); code != 0 {
				return exitError{code}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the JSON contract of PACKET.md")
	cmd.Flags().BoolVar(&asMarkdown, "markdown", false, "print a comment to paste into the pull request")
	cmd.Flags().BoolVar(&exitStatus, "exit-status", false, "exit 0 when the gate is ready, 1 when it is not, 8 when it is ready but required CI is still pending")
	jf.addFlags(cmd)
	return cmd
}

func newSampleCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "sample DIR",
		Short: "Write the built-in sample packet to DIR so you can see the format",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := packet.WriteSample(args[0]); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "wrote the sample packet to %s\n", args[0])
			return nil
		},
	}
}

func newVersionCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print vetter's version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, args []string) {
			fmt.Fprintln(stdout, versionLine())
		},
	}
}

// writeSanitized runs write into a buffer and prints it line by line through
// the sanitiser, so no byte from the packet acts on the terminal. Hidden
// characters (packet's hidden table) are written as <U+XXXX>, the form every
// text output shares, so a comment pasted into a pull request shows them too;
// the screen's ⟦U+XXXX⟧ markers are for the screen.
func writeSanitized(w io.Writer, write func(io.Writer)) error {
	var buf bytes.Buffer
	write(&buf)
	out := bufio.NewWriter(w)
	sc := bufio.NewScanner(&buf)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<30)
	for sc.Scan() {
		out.WriteString(ui.Sanitize(packet.EscapeHidden(sc.Text())))
		out.WriteByte('\n')
	}
	return out.Flush()
}

// writeJSON writes v as indented JSON through escapeJSONText.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := jsonEncoder(&buf)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escapeJSONText(buf.Bytes()))
	return err
}

// printable is what summary and compare print, in the three forms both offer.
type printable interface {
	WriteText(io.Writer)
	WriteMarkdown(io.Writer)
}

// writeReport prints r as JSON, as a Markdown comment or as text, the
// last two sanitised.
func writeReport(w io.Writer, r printable, asJSON, asMarkdown bool) error {
	switch {
	case asJSON:
		return writeJSON(w, r)
	case asMarkdown:
		return writeSanitized(w, r.WriteMarkdown)
	default:
		return writeSanitized(w, r.WriteText)
	}
}

// escapeJSONText escapes, inside encoded JSON, every character a terminal
// could act on or that hides text: DEL, the C1 controls and packet's hidden
// table, which encoding/json leaves raw (it escapes C0 itself). The escapes
// are lowercase \uXXXX, as encoding/json writes its own, and a surrogate pair
// for a tag character (\udb40\udc41 for U+E0041), so a JSON reader gets the
// text exactly and a terminal sees only ASCII. Every JSON vetter prints
// passes through here.
func escapeJSONText(js []byte) []byte {
	var out []byte
	done := 0 // js[:done] is in out
	for i := 0; i < len(js); {
		c := js[i]
		if c < utf8.RuneSelf && c != 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRune(js[i:])
		// A byte that is not UTF-8 (encoding/json never writes one, another
		// encoder might) becomes \ufffd, as encoding/json writes it.
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) || packet.IsHidden(r) || (r == utf8.RuneError && n == 1) {
			out = append(out, js[done:i]...)
			out = packet.AppendJSONEscape(out, r)
			done = i + n
		}
		i += n
	}
	if out == nil {
		return js
	}
	return append(out, js[done:]...)
}

func jsonEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc
}

// startGC is the collector's target while vetter starts: the start-up's
// allocations (loading a packet allocates ~35 MB of short-lived parse state
// on a big one and keeps ~20; the first screens) are mostly garbage at once,
// and at the default 100 the collector ran through most of them: a third of
// loading a big packet (bench/loadtime: 55 -> 35 ms) and three cycles of
// ~4 ms before a log preview's first frame. settleGC puts the default back
// once the workbench is up; the headless commands end first.
const startGC = 400

// startMemoryLimit caps the heap while the target is relaxed: at 400 a
// start-up that keeps 25 MB (a big packet, its first screens) could grow
// to 125 MB of heap before collecting, and vetter's peak memory target is
// 150 MB. Near the cap the collector runs as if GOGC were lower.
const startMemoryLimit = 96 << 20

// relaxGC raises the collector's target for the start-up, unless GOGC or
// GOMEMLIMIT says otherwise.
func relaxGC() {
	if gcSetByUser() {
		return
	}
	debug.SetGCPercent(startGC)
	debug.SetMemoryLimit(startMemoryLimit)
}

// settleGC returns the collector to Go's default a second after the
// workbench started: the packet is read and the first screens drawn by then,
// and a long session keeps its heap near twice what it holds.
func settleGC() {
	if gcSetByUser() {
		return
	}
	time.AfterFunc(time.Second, func() {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	})
}

// gcSetByUser reports whether GOGC or GOMEMLIMIT is set: then vetter leaves
// the collector alone.
func gcSetByUser() bool {
	_, gogc := os.LookupEnv("GOGC")
	_, limit := os.LookupEnv("GOMEMLIMIT")
	return gogc || limit
}
