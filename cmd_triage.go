package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/report"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/ui"
)

// clock is when a decision is made; tests pin it so goldens hold still.
var clock = time.Now

// addTriageCommands adds the headless triage, decide and export commands.
func addTriageCommands(root *cobra.Command, stdout, stderr io.Writer) {
	root.AddCommand(newTriageCmd(stdout, stderr), newDecideCmd(stdout, stderr), newExportCmd(stdout, stderr))
}

// openStore loads the packet and binds its triage store. A packet that cannot
// be read is exit status 2.
func openStore(path string, stderr io.Writer) (*packet.Packet, *review.Store, error) {
	p, s, err := loadReviewed([]string{path}, stderr)
	if err != nil {
		return nil, nil, err
	}
	if r := s.Repaired(); r != "" {
		say(stderr, "vetter: %s", r)
	}
	return p, s, nil
}

// say prints a line for people through the sanitiser.
func say(w io.Writer, format string, args ...any) {
	writeSanitized(w, func(b io.Writer) { fmt.Fprintf(b, format+"\n", args...) })
}

func reportMerge(stderr io.Writer, rep review.MergeReport) {
	if rep.Merged() {
		say(stderr, "vetter: %s", rep.String())
	}
}

func newTriageCmd(stdout, stderr io.Writer) *cobra.Command {
	var accept, dismiss, deferF, reopen, list, asJSON, all bool
	var jf jsonFormat
	var note, severity, importFile string
	cmd := &cobra.Command{
		Use:   "triage PACKET [FINDING-ID...]",
		Short: "Accept, dismiss, defer or reopen findings, or list their triage",
		Long: `triage records a decision on findings, saved at once in your state
(triage.json under $XDG_STATE_HOME/vetter/, else ~/.local/state/vetter/, one
folder per work item), never in the packet. A finding is named review.md#2,
#2 or 2.

  vetter triage PACKET 2 --accept [--note TEXT]
  vetter triage PACKET 4 --dismiss --note "why it is not valid"
  vetter triage PACKET --severity nit --defer --note "follow-up in ACME-99"
  vetter triage PACKET --list [--json]
  vetter triage PACKET 3 --note TEXT        (writes the note, keeps the state)
  vetter triage PACKET --import FILE        (another reviewer's triage.json)

A bulk action (--severity) touches open findings only, unless --all, so it
never overwrites a decision someone already made. --dismiss needs --note.
The user recorded is $VETTER_USER, else your global git user.email, else $USER.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			state := ""
			n := 0
			for _, f := range []struct {
				on    bool
				state string
			}{{accept, packet.TriageAccepted}, {dismiss, packet.TriageDismissed}, {deferF, packet.TriageDeferred}, {reopen, packet.TriageOpen}} {
				if f.on {
					state, n = f.state, n+1
				}
			}
			ids := args[1:]
			noteSet := cmd.Flags().Changed("note")
			if importFile != "" {
				if n > 0 || list || len(ids) > 0 || severity != "" || noteSet {
					return errors.New("triage: --import takes no finding, action or note")
				}
				return importTriage(args[0], importFile, stdout, stderr)
			}
			switch {
			case n > 1:
				return errors.New("triage: give one of --accept, --dismiss, --defer, --reopen")
			case list && (n > 0 || len(ids) > 0 || severity != "" || noteSet):
				return errors.New("triage: --list takes no finding and no action")
			case asJSON && !list:
				return errors.New("triage: --json goes with --list")
			case jf.set():
				if err := jf.check("triage", asJSON); err != nil {
					return err
				}
			case !list && len(ids) > 0 && severity != "":
				return errors.New("triage: name findings or give --severity, not both")
			case !list && len(ids) == 0 && severity == "":
				return errors.New("triage: name a finding, give --severity, or --list")
			case !list && n == 0 && (severity != "" || !noteSet):
				return errors.New("triage: give one of --accept, --dismiss, --defer, --reopen (or --note alone for one finding)")
			case all && severity == "":
				return errors.New("triage: --all goes with --severity")
			case dismiss && strings.TrimSpace(note) == "":
				return errors.New("triage: --dismiss needs --note saying why the finding is not valid")
			}
			p, s, err := openStore(args[0], stderr)
			if err != nil {
				return err
			}
			defer p.Close()
			if list {
				return listTriage(stdout, p, s, asJSON, &jf)
			}
			user, now := packet.CurrentUser(), clock()
			var rep review.MergeReport
			switch {
			case n == 0: // --note alone
				if len(ids) != 1 {
					return errors.New("triage: --note alone takes one finding")
				}
				rep, err = s.SetNote(ids[0], note, user, now)
			case severity != "":
				ids = nil
				for _, f := range p.Findings {
					if f.Severity != strings.ToLower(severity) {
						continue
					}
					if st, _, _ := review.TriageOf(p, f); st == packet.TriageOpen || all {
						ids = append(ids, f.ID)
					}
				}
				if len(ids) == 0 {
					which := "open "
					if all {
						which = ""
					}
					say(stderr, "vetter: no %sfinding of severity %s; nothing changed", which, severity)
					return nil
				}
				rep, err = s.Set(ids, state, note, user, now)
			default:
				rep, err = s.Set(ids, state, note, user, now)
			}
			if err != nil {
				// A finding the packet does not have, or a dismissal without
				// its reason, is a usage error: exit 2, as every other.
				if errors.Is(err, review.ErrUnknownFinding) || errors.Is(err, review.ErrNoteRequired) {
					say(stderr, "vetter: %v", err)
					return exitError{2}
				}
				return err
			}
			reportMerge(stderr, rep)
			for _, id := range ids {
				f := p.LookupFinding(id)
				st, stale, d := review.TriageOf(p, f)
				line := fmt.Sprintf("%s: %s", f.ID, st)
				if stale {
					line += " (stale)"
				}
				if d != nil && d.Note != "" {
					line += " — " + text.OneLine(d.Note)
				}
				say(stdout, "%s", line)
			}
			say(stderr, "saved to %s; %s", s.Where(), gateLine(review.Gate(p)))
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&accept, "accept", false, "the finding is valid")
	f.BoolVar(&dismiss, "dismiss", false, "the finding is not valid (needs --note)")
	f.BoolVar(&deferF, "defer", false, "the finding is valid; follow-up elsewhere")
	f.BoolVar(&reopen, "reopen", false, "back to open")
	f.StringVar(&note, "note", "", "the note (for --dismiss: why)")
	f.StringVar(&severity, "severity", "", "apply to every open finding of this severity (blocker, major, minor, nit)")
	f.BoolVar(&all, "all", false, "with --severity: also findings already decided")
	f.BoolVar(&list, "list", false, "list the findings and their triage")
	f.BoolVar(&asJSON, "json", false, "with --list: print JSON")
	jf.addFlags(cmd)
	f.StringVar(&importFile, "import", "", "take another reviewer's triage.json: decisions on findings with the same content, recorded as imported by you")
	return cmd
}

// importLimit caps an imported triage file; vetter writes far less.
const importLimit = 16 << 20

// importTriage records another reviewer's decisions as the user's explicit
// act: who imported what, from which file, whose decision it was.
func importTriage(pkt, file string, stdout, stderr io.Writer) error {
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("triage --import: %w", err)
	}
	data, err := io.ReadAll(io.LimitReader(f, importLimit+1))
	f.Close()
	if err != nil {
		return fmt.Errorf("triage --import: reading %s: %w", file, err)
	}
	if len(data) > importLimit {
		return fmt.Errorf("triage --import: %s is larger than %d MiB; not a triage file vetter wrote", file, importLimit>>20)
	}
	p, s, err := openStore(pkt, stderr)
	if err != nil {
		return err
	}
	defer p.Close()
	user := packet.CurrentUser()
	rep, merge, err := s.Import(data, file, user, clock())
	if err != nil {
		return err
	}
	reportMerge(stderr, merge)
	for _, id := range rep.Imported {
		st, _, d := review.TriageOf(p, p.Finding(id))
		line := fmt.Sprintf("%s: %s (imported from %s", id, st, file)
		if d != nil && d.Imported != nil && d.Imported.By != "" {
			line += ", decided by " + d.Imported.By
		}
		say(stdout, "%s)", line)
	}
	var notes []string
	if len(rep.Kept) > 0 {
		notes = append(notes, "kept your own decision on "+strings.Join(rep.Kept, ", "))
	}
	if rep.Unmatched > 0 {
		notes = append(notes, fmt.Sprintf("%d decisions match no finding of this round", rep.Unmatched))
	}
	if rep.GateSkipped {
		notes = append(notes, "the file's gate decision was not imported: deciding is yours (vetter decide)")
	}
	notes = append(notes, fmt.Sprintf("imported %d by %s", len(rep.Imported), user), gateLine(review.Gate(p)))
	say(stderr, "vetter: %s", strings.Join(notes, "; "))
	return nil
}

// gateLine is the gate's state in one line: "gate ready" or what fails.
func gateLine(g packet.Gate) string {
	if g.Ready {
		return "gate ready"
	}
	return "gate not ready: " + strings.Join(review.FailingChecks(g), ", ")
}

// triageEntry is one finding in `triage --list --json`.
type triageEntry struct {
	ID       string     `json:"id"`
	Number   int        `json:"number"`
	Severity string     `json:"severity"`
	Location string     `json:"location"`
	Claim    string     `json:"claim"`
	Triage   string     `json:"triage"`
	Stale    bool       `json:"stale"`
	Note     string     `json:"note,omitempty"`
	User     string     `json:"user,omitempty"`
	Time     *time.Time `json:"time,omitempty"`
	// Imported is where an imported decision came from.
	Imported *packet.ImportedFrom `json:"imported,omitempty"`
}

func listTriage(w io.Writer, p *packet.Packet, s *review.Store, asJSON bool, jf *jsonFormat) error {
	entries := []triageEntry{}
	for _, f := range p.Findings {
		st, stale, d := review.TriageOf(p, f)
		e := triageEntry{ID: f.ID, Number: f.Number, Severity: f.Severity, Location: f.Location, Claim: f.Claim, Triage: st, Stale: stale}
		if d != nil {
			e.Note, e.User, e.Imported = d.Note, d.User, d.Imported
			if !d.Time.IsZero() {
				t := d.Time
				e.Time = &t
			}
		}
		entries = append(entries, e)
	}
	if asJSON {
		return jf.write(w, struct {
			Where    string               `json:"where"`
			Findings []triageEntry        `json:"findings"`
			Gate     *packet.GateDecision `json:"decision,omitempty"`
			Ready    bool                 `json:"gate_ready"`
		}{s.Where(), entries, shownDecision(p), review.Gate(p).Ready})
	}
	return writeSanitized(w, func(b io.Writer) {
		fmt.Fprintf(b, "triage: %s\n", s.Where())
		for _, e := range entries {
			st := e.Triage
			if e.Stale {
				st += " (stale)"
			}
			// The location is the last column and is never cut: its line
			// number is what the reader looks for (a pager wraps or cuts).
			fmt.Fprintf(b, "  #%-3d %-7s %-17s %s\n", e.Number, e.Severity, st, text.OneLine(e.Location))
			if e.Note != "" {
				fmt.Fprintf(b, "       note (%s): %s\n", e.User, text.Clip(text.OneLine(e.Note), 100))
			}
			if im := e.Imported; im != nil {
				fmt.Fprintf(b, "       imported by %s from %s (decided by %s)\n", e.User, im.File, im.By)
			}
		}
		if gd := shownDecision(p); gd != nil {
			fmt.Fprintf(b, "decision: %s for %s by %s at %s\n", gd.Decision, gd.SHA, gd.User, gd.Time.UTC().Format(time.RFC3339))
		}
		fmt.Fprintln(b, gateLine(review.Gate(p)))
	})
}

// shownDecision is the decision the packet's round shows (its own head's,
// else an earlier one that no longer stands).
func shownDecision(p *packet.Packet) *packet.GateDecision {
	d, _ := review.DecisionStands(p)
	return d
}

func newDecideCmd(stdout, stderr io.Writer) *cobra.Command {
	var ok, hold, changes, force, post bool
	var note string
	cmd := &cobra.Command{
		Use:   "decide PACKET --ok-to-test|--hold|--request-changes [--note TEXT] [--force]",
		Short: "Record the gate decision for the head SHA",
		Long: `decide records ok-to-test, hold or request-changes for the packet's head SHA in
triage.json and appends it to decisions.jsonl beside it, with who, when and the
gate's state.

--ok-to-test is refused (exit status 1) while the gate is not ready, unless
--force is given with --note saying why. On success it prints the line to post,
"/ok to test <sha>", and, when the pull request is on GitHub, the gh command
that posts it.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			decision, n := "", 0
			for _, f := range []struct {
				on       bool
				decision string
			}{{ok, review.DecisionOkToTest}, {hold, review.DecisionHold}, {changes, review.DecisionRequestChanges}} {
				if f.on {
					decision, n = f.decision, n+1
				}
			}
			if n != 1 {
				return errors.New("decide: give one of --ok-to-test, --hold, --request-changes")
			}
			if force && strings.TrimSpace(note) == "" {
				return errors.New("decide: --force needs --note saying why the gate is overridden")
			}
			if post && decision != review.DecisionOkToTest {
				return errors.New("decide: --post posts ok-to-test only")
			}
			p, s, err := openStore(args[0], stderr)
			if err != nil {
				return err
			}
			defer p.Close()
			var pp *poster
			if post {
				if pp, err = newPoster(p, stderr); err != nil {
					return err
				}
				// A head that moved since the review refuses before
				// anything is recorded.
				if err := pp.checkHead(); err != nil {
					return err
				}
			}
			override := ""
			if force {
				override = note
			}
			user := packet.CurrentUser()
			if pp != nil {
				// Once a pull request is involved, the account that posts
				// is named beside the person.
				if login, err := pp.c.Login(context.Background()); err == nil {
					user += " (github: " + login + ")"
				}
			}
			gd, rep, err := s.Decide(decision, note, user, override, clock())
			switch {
			case errors.Is(err, review.ErrGateNotReady):
				// The error says what it was deciding; the refusal says it once.
				say(stderr, "vetter: refusing ok-to-test: %s\n(use --force --note REASON to override)", strings.TrimPrefix(err.Error(), "deciding ok-to-test: "))
				return exitError{1}
			case errors.Is(err, review.ErrNoHead):
				say(stderr, "vetter: refusing ok-to-test: %s", strings.TrimPrefix(err.Error(), "deciding ok-to-test: "))
				return exitError{1}
			case err != nil:
				return err
			}
			reportMerge(stderr, rep)
			msg := fmt.Sprintf("recorded %s for %s by %s in %s", gd.Decision, gd.SHA, gd.User, s.Where())
			if gd.Override != "" {
				msg += " (override: the gate was not ready)"
			}
			say(stderr, "%s", msg)
			if pp != nil {
				return pp.post()
			}
			if decision == review.DecisionOkToTest {
				return writeSanitized(stdout, func(b io.Writer) {
					for _, l := range review.OkToTestLines(p) {
						fmt.Fprintln(b, l)
					}
				})
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&ok, "ok-to-test", false, "the change may run on CI")
	f.BoolVar(&hold, "hold", false, "not yet")
	f.BoolVar(&changes, "request-changes", false, "the change must change first")
	f.StringVar(&note, "note", "", "a note; with --force, why the gate is overridden")
	f.BoolVar(&force, "force", false, "give ok-to-test although the gate is not ready (needs --note)")
	f.BoolVar(&post, "post", false, "on a pull request: post /ok to test <head sha> once the decision is recorded, if the head is still the one reviewed")
	return cmd
}

func newExportCmd(stdout, stderr io.Writer) *cobra.Command {
	var format, out string
	var post bool
	cmd := &cobra.Command{
		Use:   "export PACKET --format markdown|sarif|rdjsonl|github-review [-o FILE] [--post]",
		Short: "Write the triage and decision for other tools",
		Long: `export writes the findings with their triage and the gate decision:

  markdown       a review comment ready to paste
  sarif          SARIF 2.1.0 (code scanning); triage as external suppressions
  rdjsonl        reviewdog diagnostics, one a line, for findings not dismissed
  github-review  the JSON body of a pull-request review

For github-review, the gh command that posts the review is printed to standard
error when the JSON goes to standard output (it reads the review from "-"), and
to standard output when -o FILE is given (it reads FILE).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			known := false
			for _, f := range report.ExportFormats {
				known = known || f == format
			}
			if !known {
				return fmt.Errorf("export: --format takes %s, not %q", strings.Join(report.ExportFormats, ", "), format)
			}
			p, _, err := loadReviewed(args, stderr)
			if err != nil {
				return err
			}
			defer p.Close()
			var raw bytes.Buffer
			if err := report.Export(p, &raw, format, report.ExportOptions{ToolVersion: version}); err != nil {
				return err
			}
			if post {
				if format != report.FormatGitHubReview {
					return errors.New("export: --post posts --format github-review only")
				}
				pp, err := newPoster(p, stderr)
				if err != nil {
					return err
				}
				return pp.postReview(raw.Bytes())
			}
			var text bytes.Buffer
			if format == report.FormatMarkdown {
				writeSanitized(&text, func(w io.Writer) { w.Write(raw.Bytes()) })
			} else {
				text.Write(escapeJSONText(raw.Bytes()))
			}
			if out == "" || out == "-" {
				if _, err := stdout.Write(text.Bytes()); err != nil {
					return err
				}
				if format == report.FormatGitHubReview {
					postHint(stderr, p, "-")
				}
				return nil
			}
			if err := os.WriteFile(out, text.Bytes(), 0o644); err != nil {
				return fmt.Errorf("export: writing %s: %w", out, err)
			}
			say(stderr, "wrote %s (%s)", out, format)
			if format == report.FormatGitHubReview {
				postHint(stdout, p, out)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "markdown, sarif, rdjsonl or github-review")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to FILE instead of standard output (- is standard output)")
	cmd.Flags().BoolVar(&post, "post", false, "on a pull request, with --format github-review: post the review")
	cmd.MarkFlagRequired("format")
	return cmd
}

// postHint prints the gh command that posts the review, or why there is none.
func postHint(w io.Writer, p *packet.Packet, input string) {
	if c, ok := report.GitHubReviewCommand(p, input); ok {
		say(w, "%s", c)
		return
	}
	if u := strings.TrimSpace(review.PRURL(p)); u != "" {
		say(w, "# the change's URL %s is not a pull request address (https://HOST/OWNER/REPO/pull/N); post the review with gh api repos/OWNER/REPO/pulls/N/reviews --input %s", review.ShellQuote(ui.Sanitize(u)), input)
		return
	}
	say(w, "# the change names no pull request URL; post the review with gh api repos/OWNER/REPO/pulls/N/reviews --input %s", input)
}
