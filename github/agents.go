package github

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/vetter-dev/vetter/agentfmt"
	"github.com/vetter-dev/vetter/packet"
)

// What the agent and the bots beside it posted, read with agentfmt: the
// evidence record in whichever shape it came, the rounds, and every other
// comment of the PR's author, kept as a document so that nothing the author
// said is out of reach, and flagged when it looks like an agent document
// vetter cannot read.

// RecordFile is the packet document holding the evidence record comment as
// posted: the verdict, assessment and counts read from it cite its lines.
const RecordFile = "evidence-record.md"

// DescriptionFile holds the PR description when it is not the agent's
// change narrative (which becomes change.md).
const DescriptionFile = "pr-description.md"

// agentRead is what the comments say beyond the named documents.
type agentRead struct {
	record    *IssueComment
	rec       *agentfmt.Record
	shape     string
	files     map[string][]byte
	rounds    []packet.OriginRound
	unknown   []packet.OriginUnrecognised
	fromDesc  bool
	hasPacket bool
}

// readAgent reads the comments once for Build and the queue alike. docs are
// the documents already chosen (one comment each); trusted says whose
// comments may supply a record.
func readAgent(d *Data, docs map[string]DocComment, trusted func(IssueComment) bool) agentRead {
	a := agentRead{files: map[string][]byte{}, hasPacket: len(docs) > 0}
	author := d.Pull.User.Login
	results := make([]agentfmt.Result, len(d.Comments))
	for i, c := range d.Comments {
		results[i] = agentfmt.Recognise(c.Body)
		if results[i].Kind == agentfmt.KindRecord && trusted(c) {
			a.record, a.rec, a.shape = &d.Comments[i], results[i].Record, results[i].Shape
		}
	}
	if a.record != nil {
		a.hasPacket = true
		a.files[RecordFile] = []byte(normaliseBody(a.record.Body))
	}
	chosen := map[int64]bool{}
	for _, dc := range docs {
		chosen[dc.CommentID] = true
	}
	n := 0
	for i, c := range d.Comments {
		res := results[i]
		if res.Kind == agentfmt.KindStatus {
			a.rounds = append(a.rounds, packet.OriginRound{Kind: res.Status.Source, Text: res.Status.Text, By: c.User.Login, At: stamp(c.CreatedAt)})
			continue
		}
		if c.User.Login != author || chosen[c.ID] || (a.record != nil && c.ID == a.record.ID) {
			continue
		}
		n++
		name := commentFile(n, c.Body)
		a.files[name] = []byte(normaliseBody(c.Body))
		switch {
		case res.Kind == agentfmt.KindRound:
			r := res.Round
			a.rounds = append(a.rounds, packet.OriginRound{Kind: r.Kind, N: r.N, SHA: r.SHA, Was: r.Was, Text: r.Text,
				By: c.User.Login, At: stamp(c.CreatedAt), Document: name})
		case res.Kind == agentfmt.KindNone && res.LooksLike != "":
			a.unknown = append(a.unknown, packet.OriginUnrecognised{Document: name, LooksLike: res.LooksLike, By: c.User.Login, URL: c.HTMLURL})
		}
	}
	if len(a.unknown) > 0 {
		a.hasPacket = true
	}
	if _, ok := docs[packet.ChangeFile]; !ok && strings.TrimSpace(d.Pull.Body) != "" {
		if nar, ok := agentfmt.Description(d.Pull.Body); ok {
			a.files[packet.ChangeFile] = []byte(nar.Text)
			a.fromDesc = true
		} else {
			a.files[DescriptionFile] = []byte(normaliseBody(d.Pull.Body) + "\n")
		}
	}
	return a
}

// recordRegistry turns the record's checks into validation/registry.jsonl
// lines, one run a check; a command the record withholds is said to be
// withheld and never filled in.
func recordRegistry(rec *agentfmt.Record) []byte {
	var b strings.Builder
	for i, c := range rec.Checks {
		run := map[string]any{"seq": i + 1, "recipe": c.Name, "status": c.Result, "source": "evidence-record"}
		if c.Command != "" {
			run["command"] = c.Command
		}
		note := c.Description
		if c.CommandHidden {
			note = strings.TrimSpace(note + " (command not shown: the record withholds it as private run data)")
			run["command_shown"] = "not shown"
		}
		if c.ExitCode != nil {
			run["exit_code"] = *c.ExitCode
		}
		if c.Log != "" {
			run["log"] = c.Log
		}
		if note != "" {
			run["note"] = note
		}
		line, _ := json.Marshal(run)
		b.Write(line)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// originRecord is what pr.json says of the record.
func originRecord(a agentRead, headSHA string) *packet.OriginRecord {
	rec := a.rec
	v, t := rec.Counts()
	o := &packet.OriginRecord{Shape: a.shape, Document: RecordFile, URL: a.record.HTMLURL, By: a.record.User.Login,
		PostedAt: stamp(a.record.CreatedAt), HeadSHA: headSHA,
		Status: rec.Status.Value, Verdict: rec.Verdict.Value, VerdictText: rec.Verdict.Text, VerdictLine: rec.Verdict.Line,
		Assessment: rec.Assessment.Value, AssessmentLabel: rec.Assessment.Label, AssessmentLine: rec.Assessment.Line,
		Shown: packet.OriginCount{Validated: v, Total: t}}
	if len(rec.Claims) > 0 {
		c := rec.Claims[0]
		o.Claimed = &packet.OriginCount{Validated: c.Validated, Total: c.Total}
	}
	if c, ok := rec.Mismatch(); ok {
		o.Mismatch, o.MismatchLine = rec.MismatchText(), c.Line
	}
	for _, c := range rec.Checks {
		if c.CommandHidden {
			o.Hidden++
		}
	}
	return o
}

// recordHead is the PR's head when the record was posted: the last commit
// made before the record's comment. "" when no commit says when it was made.
func recordHead(commits []Commit, posted time.Time) string {
	head := ""
	var at time.Time
	for _, c := range commits {
		when := c.Commit.Committer.Date
		if when.IsZero() {
			when = c.Commit.Author.Date
		}
		if when.IsZero() || when.After(posted) {
			continue
		}
		if head == "" || !when.Before(at) {
			head, at = c.SHA, when
		}
	}
	return head
}

var slugRe = regexp.MustCompile(`[^a-z0-9]+`)

// commentFile names the document an author comment is kept as: its place
// among the author's comments and a few words of its first line, made of
// letters, digits and dashes only (no byte of a comment becomes a path).
func commentFile(n int, body string) string {
	first := ""
	for _, l := range strings.Split(normaliseBody(body), "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "<") {
			first = t
			break
		}
	}
	slug := strings.Trim(slugRe.ReplaceAllString(strings.ToLower(first), "-"), "-")
	if len(slug) > 32 {
		slug = strings.Trim(slug[:32], "-")
	}
	if slug == "" {
		return fmt.Sprintf("comment-%02d.md", n)
	}
	return fmt.Sprintf("comment-%02d-%s.md", n, slug)
}

func normaliseBody(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// withBadge reads the badge line CodeRabbit leads its comments with: the
// severity (or "unknown") and its category and effort as tags, the claim
// the comment after it. Only CodeRabbit's accounts are read so: another
// bot's italic first line is its own business.
func withBadge(t *packet.OriginThread) {
	if !strings.HasPrefix(strings.ToLower(t.Source), "coderabbitai") {
		return
	}
	b, ok := agentfmt.ReadBadge(t.Body)
	if !ok {
		return
	}
	t.Severity, t.Tags, t.Badge = b.Severity, b.Tags, b.Text
	if b.Claim != "" {
		t.Body = b.Claim
	}
}

// hasPacket reports whether a pull request's comments carry anything of a
// packet: a document, an evidence record in any known shape, or an author's
// comment that looks like one. The queue asks it before building a row's
// packet, through the same reading Build does.
func hasPacket(d *Data, trusted func(IssueComment) bool) bool {
	return readAgent(d, Documents(d.Comments, trusted), trusted).hasPacket
}
