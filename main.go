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
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"vetter/packet"
	"vetter/ui"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

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
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if theme != "" && theme != "dark" && theme != "light" {
				return fmt.Errorf("--theme takes dark or light, not %q", theme)
			}
			if len(args) == 1 && packet.IsInboxDir(args[0]) {
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
			p, err := loadArgWith(args, stderr, packet.Options{DeferLogIndex: true, DeferAbove: packet.SmallLog})
			if err != nil {
				return err
			}
			defer p.Close()
			if plain {
				return writeSanitized(stdout, func(w io.Writer) { p.Summarize().WriteText(w) })
			}
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
	root.AddCommand(newCheckCmd(stdout, stderr), newSummaryCmd(stdout, stderr),
		newSampleCmd(stdout), newVersionCmd(stdout))
	addTriageCommands(root, stdout, stderr)
	addCompareCommand(root, stdout, stderr)
	return root
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
	p, err := packet.Load(args[0], opts)
	if err != nil {
		fmt.Fprintln(stderr, "vetter:", ui.Sanitize(err.Error()))
		return nil, exitError{2}
	}
	return p, nil
}

func newCheckCmd(stdout, stderr io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check [PACKET]",
		Short: "Audit a packet: is it complete, consistent and safe to read?",
		Long: `check lists the packet's problems grouped by file, with line numbers.
Exit status: 0 when there is no error-severity problem, 1 when there is one,
2 when PACKET cannot be read as a packet at all.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := loadArg(args, stderr)
			if err != nil {
				return err
			}
			defer p.Close()
			probs := append([]packet.Problem{}, p.Problems...)
			packet.SortProblems(probs)
			if asJSON {
				if err := writeJSON(stdout, struct {
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
	fmt.Fprintf(w, "\n%d errors, %d warnings, %d info\n", e, wn, in)
}

func newSummaryCmd(stdout, stderr io.Writer) *cobra.Command {
	var asJSON, asMarkdown bool
	cmd := &cobra.Command{
		Use:   "summary [PACKET]",
		Short: "Print the header, verdict, evidence, diff stats, findings and gate",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON && asMarkdown {
				return errors.New("summary: --json and --markdown are exclusive")
			}
			p, err := loadArg(args, stderr)
			if err != nil {
				return err
			}
			defer p.Close()
			s := p.Summarize()
			switch {
			case asJSON:
				return writeJSON(stdout, s)
			case asMarkdown:
				return writeSanitized(stdout, s.WriteMarkdown)
			default:
				return writeSanitized(stdout, s.WriteText)
			}
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the JSON contract of PACKET.md")
	cmd.Flags().BoolVar(&asMarkdown, "markdown", false, "print a comment to paste into the pull request")
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
			fmt.Fprintf(stdout, "vetter %s\n", version)
		},
	}
}

// writeSanitized runs write into a buffer and prints it line by line through
// the sanitiser, so no byte from the packet acts on the terminal.
func writeSanitized(w io.Writer, write func(io.Writer)) error {
	var buf bytes.Buffer
	write(&buf)
	out := bufio.NewWriter(w)
	sc := bufio.NewScanner(&buf)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<30)
	for sc.Scan() {
		out.WriteString(ui.Sanitize(sc.Text()))
		out.WriteByte('\n')
	}
	return out.Flush()
}

// writeJSON writes v as indented JSON with every character that a terminal
// could act on, or that hides text, escaped as \uXXXX (encoding/json leaves
// C1 controls, DEL and bidirectional controls raw).
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := jsonEncoder(&buf)
	if err := enc.Encode(v); err != nil {
		return err
	}
	var b strings.Builder
	for _, r := range buf.String() {
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) || packet.IsHidden(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	_, err := io.WriteString(w, b.String())
	return err
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
