// Package triage is `vetter triage PACKET`: accept, dismiss, defer or
// reopen findings, list their triage, or import another reviewer's.
package triage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/cli/cmdutil"
	"github.com/vetter-dev/vetter/cli/factory"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// Options are triage's flags and arguments.
type Options struct {
	Factory *factory.Factory
	Packet  string
	IDs     []string
	// Accept, Dismiss, Defer and Reopen are the actions; one at most.
	Accept, Dismiss, Defer, Reopen bool
	Note                           string
	NoteSet                        bool
	Severity                       string
	All                            bool
	List, JSON                     bool
	Format                         cmdutil.JSONFormat
	Import                         string
}

// NewCmdTriage is `vetter triage`; runF, when not nil, runs instead.
func NewCmdTriage(f *factory.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Factory: f}
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
			opts.Packet, opts.IDs = args[0], args[1:]
			opts.NoteSet = cmd.Flags().Changed("note")
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return run(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.Accept, "accept", false, "the finding is valid")
	fl.BoolVar(&opts.Dismiss, "dismiss", false, "the finding is not valid (needs --note)")
	fl.BoolVar(&opts.Defer, "defer", false, "the finding is valid; follow-up elsewhere")
	fl.BoolVar(&opts.Reopen, "reopen", false, "back to open")
	fl.StringVar(&opts.Note, "note", "", "the note (for --dismiss: why)")
	fl.StringVar(&opts.Severity, "severity", "", "apply to every open finding of this severity (blocker, major, minor, nit)")
	fl.BoolVar(&opts.All, "all", false, "with --severity: also findings already decided")
	fl.BoolVar(&opts.List, "list", false, "list the findings and their triage")
	fl.BoolVar(&opts.JSON, "json", false, "with --list: print JSON")
	opts.Format.AddFlags(cmd)
	fl.StringVar(&opts.Import, "import", "", "take another reviewer's triage.json: decisions on findings with the same content, recorded as imported by you")
	return cmd
}

// action is the triage state the flags ask for, and how many asked.
func (o *Options) action() (state string, n int) {
	for _, f := range []struct {
		on    bool
		state string
	}{{o.Accept, packet.TriageAccepted}, {o.Dismiss, packet.TriageDismissed}, {o.Defer, packet.TriageDeferred}, {o.Reopen, packet.TriageOpen}} {
		if f.on {
			state, n = f.state, n+1
		}
	}
	return state, n
}

// usage is the rule for what goes with what; a mistake is a usage error
// before the packet is read.
func (o *Options) usage() error {
	_, n := o.action()
	list, ids, severity, noteSet := o.List, o.IDs, o.Severity, o.NoteSet
	if o.Import != "" {
		if n > 0 || list || len(ids) > 0 || severity != "" || noteSet {
			return errors.New("triage: --import takes no finding, action or note")
		}
		return nil
	}
	switch {
	case n > 1:
		return errors.New("triage: give one of --accept, --dismiss, --defer, --reopen")
	case list && (n > 0 || len(ids) > 0 || severity != "" || noteSet):
		return errors.New("triage: --list takes no finding and no action")
	case o.JSON && !list:
		return errors.New("triage: --json goes with --list")
	case o.Format.Set():
		return o.Format.Check("triage", o.JSON)
	case !list && len(ids) > 0 && severity != "":
		return errors.New("triage: name findings or give --severity, not both")
	case !list && len(ids) == 0 && severity == "":
		return errors.New("triage: name a finding, give --severity, or --list")
	case !list && n == 0 && (severity != "" || !noteSet):
		return errors.New("triage: give one of --accept, --dismiss, --defer, --reopen (or --note alone for one finding)")
	case o.All && severity == "":
		return errors.New("triage: --all goes with --severity")
	case o.Dismiss && strings.TrimSpace(o.Note) == "":
		return errors.New("triage: --dismiss needs --note saying why the finding is not valid")
	}
	return nil
}

func run(ctx context.Context, opts *Options) error {
	if err := opts.usage(); err != nil {
		return err
	}
	f := opts.Factory
	if opts.Import != "" {
		return importTriage(ctx, f, opts.Packet, opts.Import)
	}
	p, s, err := cmdutil.OpenStore(ctx, f, opts.Packet)
	if err != nil {
		return err
	}
	defer p.Close()
	if opts.List {
		return listTriage(f.IO.Out, p, s, opts.JSON, &opts.Format)
	}
	ids, rep, err := opts.record(p, s)
	if err != nil {
		// A finding the packet does not have, or a dismissal without
		// its reason, is a usage error: exit 2, as every other.
		if errors.Is(err, review.ErrUnknownFinding) || errors.Is(err, review.ErrNoteRequired) {
			cmdutil.Say(f.IO.ErrOut, "vetter: %v", err)
			return cmdutil.ExitError{Code: 2}
		}
		return err
	}
	if ids == nil {
		return nil // nothing of that severity; record said so
	}
	cmdutil.ReportMerge(f.IO.ErrOut, rep)
	for _, id := range ids {
		fd := p.LookupFinding(id)
		st, stale, d := review.TriageOf(p, fd)
		line := fmt.Sprintf("%s: %s", fd.ID, st)
		if stale {
			line += " (stale)"
		}
		if d != nil && d.Note != "" {
			line += " — " + text.OneLine(d.Note)
		}
		cmdutil.Say(f.IO.Out, "%s", line)
	}
	cmdutil.Say(f.IO.ErrOut, "saved to %s; %s", s.Where(), gateLine(review.Gate(p)))
	return nil
}

// record writes the decision the options ask for and returns the findings
// it touched; none (nil) when a severity has no finding to touch.
func (o *Options) record(p *packet.Packet, s *review.Store) ([]string, review.MergeReport, error) {
	f := o.Factory
	state, n := o.action()
	user, now := packet.CurrentUser(), f.Clock()
	switch {
	case n == 0: // --note alone
		if len(o.IDs) != 1 {
			return nil, review.MergeReport{}, errors.New("triage: --note alone takes one finding")
		}
		rep, err := s.SetNote(o.IDs[0], o.Note, user, now)
		return o.IDs, rep, err
	case o.Severity != "":
		var ids []string
		for _, fd := range p.Findings {
			if fd.Severity != strings.ToLower(o.Severity) {
				continue
			}
			if st, _, _ := review.TriageOf(p, fd); st == packet.TriageOpen || o.All {
				ids = append(ids, fd.ID)
			}
		}
		if len(ids) == 0 {
			which := "open "
			if o.All {
				which = ""
			}
			cmdutil.Say(f.IO.ErrOut, "vetter: no %sfinding of severity %s; nothing changed", which, o.Severity)
			return nil, review.MergeReport{}, nil
		}
		rep, err := s.Set(ids, state, o.Note, user, now)
		return ids, rep, err
	default:
		rep, err := s.Set(o.IDs, state, o.Note, user, now)
		return o.IDs, rep, err
	}
}

// importLimit caps an imported triage file; vetter writes far less.
const importLimit = 16 << 20

// importTriage records another reviewer's decisions as the user's explicit
// act: who imported what, from which file, whose decision it was.
func importTriage(ctx context.Context, f *factory.Factory, pkt, file string) error {
	stdout, stderr := f.IO.Out, f.IO.ErrOut
	fh, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("triage --import: %w", err)
	}
	data, err := io.ReadAll(io.LimitReader(fh, importLimit+1))
	fh.Close()
	if err != nil {
		return fmt.Errorf("triage --import: reading %s: %w", file, err)
	}
	if len(data) > importLimit {
		return fmt.Errorf("triage --import: %s is larger than %d MiB; not a triage file vetter wrote", file, importLimit>>20)
	}
	p, s, err := cmdutil.OpenStore(ctx, f, pkt)
	if err != nil {
		return err
	}
	defer p.Close()
	user := packet.CurrentUser()
	rep, merge, err := s.Import(data, file, user, f.Clock())
	if err != nil {
		return err
	}
	cmdutil.ReportMerge(stderr, merge)
	for _, id := range rep.Imported {
		st, _, d := review.TriageOf(p, p.Finding(id))
		line := fmt.Sprintf("%s: %s (imported from %s", id, st, file)
		if d != nil && d.Imported != nil && d.Imported.By != "" {
			line += ", decided by " + d.Imported.By
		}
		cmdutil.Say(stdout, "%s)", line)
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
	cmdutil.Say(stderr, "vetter: %s", strings.Join(notes, "; "))
	return nil
}

// gateLine is the gate's state in one line: "gate ready" or what fails.
func gateLine(g packet.Gate) string {
	if g.Ready {
		return "gate ready"
	}
	return "gate not ready: " + strings.Join(review.FailingChecks(g), ", ")
}

// Entry is one finding in `triage --list --json`.
type Entry struct {
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

func listTriage(w io.Writer, p *packet.Packet, s *review.Store, asJSON bool, jf *cmdutil.JSONFormat) error {
	entries := []Entry{}
	for _, f := range p.Findings {
		st, stale, d := review.TriageOf(p, f)
		e := Entry{ID: f.ID, Number: f.Number, Severity: f.Severity, Location: f.Location, Claim: f.Claim, Triage: st, Stale: stale}
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
		return jf.Write(w, struct {
			Where    string               `json:"where"`
			Findings []Entry              `json:"findings"`
			Gate     *packet.GateDecision `json:"decision,omitempty"`
			Ready    bool                 `json:"gate_ready"`
		}{s.Where(), entries, shownDecision(p), review.Gate(p).Ready})
	}
	return cmdutil.WriteSanitized(w, func(b io.Writer) {
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
