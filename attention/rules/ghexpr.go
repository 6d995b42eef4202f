package rules

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Truth is what a GitHub Actions condition, or a part of it, is known to be
// for the run in question: true, false, or either (Unknown).
type Truth int8

const (
	Unknown Truth = iota
	True
	False
)

func (t Truth) not() Truth {
	switch t {
	case True:
		return False
	case False:
		return True
	}
	return Unknown
}

// CondValue is what an if: condition (${{ }} or bare) is for a run of which
// judge knows some comparisons and calls: it is read as GitHub reads it,
// && and || and ! and parentheses over operands, so a test that only
// restricts (a && b) is told from one that widens (a || true). judge is
// given each operand (a comparison, a call, a literal) as written and says
// what it is for the run; what it does not know may be either. A condition
// that does not read as an expression is Unknown.
func CondValue(cond string, judge func(operand string) Truth) Truth {
	s := strings.TrimSpace(cond)
	if strings.HasPrefix(s, "${{") && strings.HasSuffix(s, "}}") {
		s = strings.TrimSpace(s[3 : len(s)-2])
	}
	p := &condParser{s: s, judge: judge}
	v := p.or()
	if p.skip(); p.bad || p.i != len(p.s) {
		return Unknown
	}
	return v
}

type condParser struct {
	s     string
	i     int
	judge func(string) Truth
	bad   bool // unbalanced parentheses: not an expression
}

func (p *condParser) skip() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *condParser) or() Truth { return p.chain("||", p.and, True) }

func (p *condParser) and() Truth { return p.chain("&&", p.unary, False) }

// chain reads operands joined by op. One operand that is dominant (true for
// ||, false for &&) decides the whole; all of them the other value decide
// it the other way; anything else may be either.
func (p *condParser) chain(op string, operand func() Truth, dominant Truth) Truth {
	v := operand()
	for p.skip(); strings.HasPrefix(p.s[p.i:], op); p.skip() {
		p.i += len(op)
		w := operand()
		switch {
		case v == dominant || w == dominant:
			v = dominant
		case v == dominant.not() && w == dominant.not():
			v = dominant.not()
		default:
			v = Unknown
		}
	}
	return v
}

func (p *condParser) unary() Truth {
	p.skip()
	if p.i >= len(p.s) {
		return Unknown
	}
	switch {
	case p.s[p.i] == '!' && !strings.HasPrefix(p.s[p.i:], "!="):
		p.i++
		return p.unary().not()
	case p.s[p.i] == '(':
		p.i++
		v := p.or()
		if p.skip(); p.i < len(p.s) && p.s[p.i] == ')' {
			p.i++
		} else {
			p.bad = true
		}
		return v
	}
	return p.operand()
}

// operand reads up to the next && or || or unmatched ) outside quotes and
// a call's parentheses, and has judge say what it is.
func (p *condParser) operand() Truth {
	start, depth := p.i, 0
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '\'':
			p.i++
			for p.i < len(p.s) && !(p.s[p.i] == '\'' && !strings.HasPrefix(p.s[p.i:], "''")) {
				if strings.HasPrefix(p.s[p.i:], "''") {
					p.i++
				}
				p.i++
			}
		case c == '(':
			depth++
		case c == ')':
			if depth == 0 {
				return p.judgeOperand(start)
			}
			depth--
		case depth == 0 && (strings.HasPrefix(p.s[p.i:], "&&") || strings.HasPrefix(p.s[p.i:], "||")):
			return p.judgeOperand(start)
		}
		p.i++
	}
	return p.judgeOperand(start)
}

func (p *condParser) judgeOperand(start int) Truth {
	op := strings.TrimSpace(p.s[start:min(p.i, len(p.s))])
	switch strings.ToLower(op) {
	case "":
		return Unknown
	case "true":
		return True
	case "false", "null", "''", "0":
		return False
	}
	return p.judge(op)
}

// Comparison splits an operand a == b or a != b into its sides (unquoted
// when a string literal) and whether it asks for equality; ok is false for
// any other operand.
func Comparison(op string) (a, b string, eq, ok bool) {
	m := comparisonRe().FindStringSubmatch(op)
	if m == nil {
		return "", "", false, false
	}
	unq := func(s string) string {
		if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
			return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
		}
		return s
	}
	return unq(m[1]), unq(m[3]), m[2] == "==", true
}

var comparisonRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^('(?:[^']|'')*'|[\w.\-\[\]*]+)\s*(==|!=)\s*('(?:[^']|'')*'|[\w.\-\[\]*]+)$`)
})

// BotAuthors are the apps that open pull requests from branches they push
// to the repository itself (dependency and formatting bots): a pull
// request whose author is one of them is no fork's. The pull request's
// author (pull_request.user.login) is the test; github.actor is not: it
// names whoever last touched the run, which anyone can make a bot by
// having it rebase their branch (the Dependabot confusion attack).
var BotAuthors = []string{"dependabot[bot]", "renovate[bot]", "pre-commit-ci[bot]", "github-actions[bot]"}

// ForkTest is what an operand of a pull_request_target or workflow_run
// job's if: is for a fork's pull request: a comparison of the head
// repository with the repository itself (its full name, its owner), of
// its fork flag, or of the pull request's author with a bot of BotAuthors
// is known, anything else may be either. A job that is false for a fork
// runs only for branches of the repository, whose authors can push to it
// already.
func ForkTest(op string) Truth {
	head := func(s string) string {
		s = strings.ToLower(s)
		for _, p := range []string{"github.event.pull_request.head.repo.", "github.event.workflow_run.head_repository."} {
			if rest, ok := strings.CutPrefix(s, p); ok {
				return rest
			}
		}
		return ""
	}
	if !strings.ContainsAny(op, "=") {
		// the fork flag alone: true for a fork
		if head(op) == "fork" {
			return True
		}
		return Unknown
	}
	a, b, eq, ok := Comparison(op)
	if !ok {
		return Unknown
	}
	if head(a) == "" {
		a, b = b, a
	}
	if strings.EqualFold(b, "github.event.pull_request.user.login") {
		a, b = b, a
	}
	var v Truth
	switch h, other := head(a), strings.ToLower(b); {
	case strings.EqualFold(a, "github.event.pull_request.user.login") && slices.Contains(BotAuthors, other):
		v = False // a bot's branch of the repository: false for a fork
	case h == "full_name" && other == "github.repository",
		h == "owner.login" && other == "github.repository_owner":
		v = False // same repository: false for a fork
	case h == "fork" && other == "false":
		v = False
	case h == "fork" && other == "true":
		v = True
	default:
		return Unknown
	}
	if !eq {
		v = v.not()
	}
	return v
}

// OffPREvents are the events no pull request starts: a schedule, a
// person's dispatch, a release, an event from another system. A push is
// one of them when its filter keeps the branch /ok to test copies a pull
// request to out. They are what a workflow's triggers and a job's
// github.event_name tests are read against (PRRunTest).
var OffPREvents = map[string]bool{"schedule": true, "workflow_dispatch": true, "release": true, "repository_dispatch": true,
	"create": true, "delete": true, "deployment": true, "deployment_status": true, "registry_package": true, "page_build": true,
	"milestone": true, "project": true, "project_card": true, "project_column": true, "watch": true, "fork": true, "gollum": true,
	"public": true, "branch_protection_rule": true}

// PRCopyBranch is the branch /ok to test pushes a pull request's head to
// (copy-pr-bot's pull-request/N): the ref of the push run the vetted
// change starts is refs/heads/ and this; its pull_request run's is
// refs/pull/N/merge.
const PRCopyBranch = "pull-request/"

// PRRunTest is what an operand of a job's or a step's if: is for the runs
// the vetted change's CI starts: its pull_request run and the push of its
// copy to a branch named pull-request/N. A test of the event's name
// against an event no pull request starts (a release, a schedule, a
// dispatch), of the ref against a tag or another named branch, or of the
// ref's type against tag is false for them; anything else may be either.
func PRRunTest(op string) Truth {
	if m := refPrefixRe().FindStringSubmatch(op); m != nil {
		return refMatch(strings.ToLower(m[1]), strings.ToLower(m[2]), m[3])
	}
	a, b, eq, ok := Comparison(op)
	if !ok {
		return Unknown
	}
	if strings.HasPrefix(strings.ToLower(b), "github.") && !strings.HasPrefix(strings.ToLower(a), "github.") {
		a, b = b, a
	}
	var v Truth
	switch strings.ToLower(a) {
	case "github.event_name":
		if !OffPREvents[b] {
			return Unknown
		}
		v = False
	case "github.ref", "github.ref_name":
		if strings.EqualFold(b, "github.event.repository.default_branch") && strings.EqualFold(a, "github.ref_name") {
			v = False // the default branch is not the copy's
			break
		}
		if v = refMatch("==", strings.ToLower(a[len("github."):]), b); v == Unknown {
			return Unknown
		}
	case "github.ref_type":
		switch b {
		case "tag":
			v = False
		case "branch":
			v = True
		default:
			return Unknown
		}
	default:
		return Unknown
	}
	if !eq {
		v = v.not()
	}
	return v
}

// refMatch is what a test of the run's ref (field ref or ref_name) against
// the literal lit is for the runs a pull request starts, whose refs are a
// fixed part and a number: refs/heads/pull-request/N for the copy's push,
// refs/pull/N/merge for pull_request (pull-request/N and N/merge by name).
// how is ==, startsWith or contains. False when no such ref can match.
func refMatch(how, field, lit string) Truth {
	if strings.Contains(lit, "${{") || strings.HasPrefix(strings.ToLower(lit), "github.") {
		return Unknown
	}
	heads := []string{"refs/heads/" + PRCopyBranch, "refs/pull/"}
	if field == "ref_name" {
		heads = []string{PRCopyBranch, ""}
	}
	number := strings.Trim(lit, "0123456789/") == ""
	may := false
	for _, h := range heads {
		switch how {
		case "==":
			may = may || h != "" && strings.HasPrefix(lit, h) || h == "" && strings.HasSuffix(lit, "/merge")
		case "startswith":
			may = may || strings.HasPrefix(h, lit) || h != "" && strings.HasPrefix(lit, h) || h == "" && number
		case "contains":
			may = may || strings.Contains(h, lit) || strings.Contains("/merge", lit) || number || strings.Contains(lit, "pull")
		}
	}
	if may {
		return Unknown
	}
	return False
}

var refPrefixRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(startsWith|contains)\(\s*github\.(ref|ref_name)\s*,\s*'([^']*)'\s*\)$`)
})

// CommenterRoles are the roles GitHub gives a comment's author that can
// push to the repository already.
var CommenterRoles = []string{"OWNER", "MEMBER", "COLLABORATOR"}

// CommenterTest is what an operand of an issue_comment workflow's if: is
// for a comment by someone without push rights: a test of the event's name
// or of the comment author's role (github.event.comment.author_association
// compared with, or found in a list of, OWNER, MEMBER and COLLABORATOR;
// GitHub compares without case) is known, anything else may be either.
func CommenterTest(op string) Truth {
	const assoc = "github.event.comment.author_association"
	trusted := func(r string) bool {
		for _, t := range CommenterRoles {
			if strings.EqualFold(r, t) {
				return true
			}
		}
		return false
	}
	if a, b, eq, ok := Comparison(op); ok {
		if strings.EqualFold(b, assoc) || strings.EqualFold(b, "github.event_name") {
			a, b = b, a
		}
		var v Truth
		switch {
		case strings.EqualFold(a, "github.event_name"):
			v = False
			if strings.EqualFold(b, "issue_comment") {
				v = True
			}
		case strings.EqualFold(a, assoc) && trusted(b):
			v = False
		default:
			return Unknown
		}
		if !eq {
			v = v.not()
		}
		return v
	}
	// contains(fromJSON('["OWNER", "MEMBER"]'), ...) or contains('OWNER,MEMBER', ...)
	if m := containsRoleRe().FindStringSubmatch(op); m != nil {
		for _, r := range roleWordRe().FindAllString(m[1], -1) {
			if !trusted(r) && !strings.EqualFold(r, "fromJSON") {
				return Unknown
			}
		}
		return False
	}
	return Unknown
}

var (
	containsRoleRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^contains\(\s*((?:fromJSON\(\s*)?'[^']*'\s*\)?)\s*,\s*github\.event\.comment\.author_association\s*\)$`)
	})
	roleWordRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z_]+`) })
)

var ifKeyRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*)(-\s+)?if\s*:\s*(.*?)\s*$`) })

// Condition is an if: condition of a workflow (a block scalar's or a plain
// scalar's continued lines joined, quotes taken off) and the lines of the
// job or step it gates, From to To.
type Condition struct {
	N, From, To int
	Text        string
}

// IfConditions returns the if: conditions of a workflow's lines.
func IfConditions(lines []NumLine) []Condition {
	var out []Condition
	for i, l := range lines {
		m := ifKeyRe().FindStringSubmatch(l.Text)
		if m == nil {
			continue
		}
		col := len(m[1]) + len(m[2])
		v := m[3]
		if len(v) >= 2 && (v[0] == '\'' && v[len(v)-1] == '\'' || v[0] == '"' && v[len(v)-1] == '"') {
			v = v[1 : len(v)-1]
		}
		if v == "" || strings.Trim(v, "|>-+") == "" {
			var b []string
			for _, c := range lines[i+1:] {
				t := strings.TrimSpace(c.Text)
				if t != "" && indentOf(c.Text) < col+1 {
					break
				}
				b = append(b, t)
			}
			v = strings.Join(b, "\n")
		}
		// The mapping the key is in: a list item starting on this line,
		// or the nearest line above indented less than the key.
		p := i
		if m[2] == "" {
			for p = i - 1; p >= 0 && (strings.TrimSpace(lines[p].Text) == "" || indentOf(lines[p].Text) >= col); p-- {
			}
		}
		c := Condition{N: l.N, Text: v, From: l.N, To: lines[len(lines)-1].N}
		if p >= 0 {
			c.From = lines[p].N
			for _, e := range lines[i+1:] {
				if t := strings.TrimSpace(e.Text); t != "" && !strings.HasPrefix(t, "#") && indentOf(e.Text) <= indentOf(lines[p].Text) {
					c.To = e.N - 1
					break
				}
			}
		}
		out = append(out, c)
	}
	return out
}

// RepositoryTest is what an operand of an if: is for a run in a repository
// owner does not own: github.repository compared with one of owner's
// repositories, or github.repository_owner with owner, is known; anything
// else may be either.
func RepositoryTest(owner string) func(op string) Truth {
	return func(op string) Truth {
		a, b, eq, ok := Comparison(op)
		if !ok {
			return Unknown
		}
		if strings.HasPrefix(strings.ToLower(b), "github.repository") {
			a, b = b, a
		}
		var v Truth
		switch o, _, _ := strings.Cut(b, "/"); {
		case strings.EqualFold(a, "github.repository") && strings.Contains(b, "/") && strings.EqualFold(o, owner),
			strings.EqualFold(a, "github.repository_owner") && strings.EqualFold(b, owner):
			v = False
		default:
			return Unknown
		}
		if !eq {
			v = v.not()
		}
		return v
	}
}

// ExprValue is a ${{ }} expression cut down to the operands whose text can
// become its value, as "${{ a b }}", or "" when its value can only be a
// boolean, a number or the workflow's own literal. A comparison (==, !=,
// <, >), a negation (!) and contains, startsWith, endsWith and the status
// functions yield a boolean, whatever they read: written into a script,
// ${{ !contains(github.event.pull_request.body, '#skip') }} is the word
// true or false, not the body. && and || yield one of their operands
// (a || 'default' is a when a is set), so both sides are kept; format,
// join, toJSON, fromJSON and any other function yield text made of their
// arguments. What does not parse as an expression is kept whole.
func ExprValue(expr string) string {
	s := strings.TrimSpace(expr)
	if strings.HasPrefix(s, "${{") && strings.HasSuffix(s, "}}") {
		s = strings.TrimSpace(s[3 : len(s)-2])
	}
	p := &valueParser{s: s}
	parts := p.or()
	if p.skip(); p.bad || p.i != len(p.s) {
		return expr
	}
	if len(parts) == 0 {
		return ""
	}
	return "${{ " + strings.Join(parts, " ") + " }}"
}

// ExprValues is s with each ${{ }} expression in it replaced by its
// ExprValue.
func ExprValues(s string) string {
	if !strings.Contains(s, "${{") {
		return s
	}
	return exprRe().ReplaceAllStringFunc(s, ExprValue)
}

var exprRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{\{.*?\}\}`) })

// valueParser reads a GitHub expression for ExprValue: each rule returns
// the source text of the operands that can reach its value.
type valueParser struct {
	s   string
	i   int
	bad bool
}

func (p *valueParser) skip() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *valueParser) eat(tok string) bool {
	p.skip()
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *valueParser) or() []string {
	v := p.and()
	for !p.bad && p.eat("||") {
		v = append(v, p.and()...)
	}
	return v
}

func (p *valueParser) and() []string {
	v := p.cmp()
	for !p.bad && p.eat("&&") {
		v = append(v, p.cmp()...)
	}
	return v
}

// cmp reads a comparison: its value is a boolean, whatever its sides are.
func (p *valueParser) cmp() []string {
	v := p.unary()
	for !p.bad {
		p.skip()
		rest := p.s[p.i:]
		op := ""
		for _, o := range []string{"==", "!=", "<=", ">=", "<", ">"} {
			if strings.HasPrefix(rest, o) {
				op = o
				break
			}
		}
		if op == "" {
			return v
		}
		p.i += len(op)
		p.unary()
		v = nil
	}
	return v
}

func (p *valueParser) unary() []string {
	if p.eat("!") {
		p.unary()
		return nil
	}
	return p.postfix()
}

// postfix reads a primary and what indexes it (.name, [i], .*): a part of
// a value is text when the value is.
func (p *valueParser) postfix() []string {
	start := p.i
	v, ctx := p.primary()
	for !p.bad {
		p.skip()
		switch {
		case p.i < len(p.s) && p.s[p.i] == '.':
			p.i++
			p.skip()
			if p.i < len(p.s) && p.s[p.i] == '*' {
				p.i++
			} else if p.ident() == "" {
				p.bad = true
			}
		case p.i < len(p.s) && p.s[p.i] == '[':
			p.i++
			p.or()
			if !p.eat("]") {
				p.bad = true
			}
		default:
			if ctx {
				// a context's path is its own operand, index and all
				return []string{strings.TrimSpace(p.s[start:p.i])}
			}
			return v
		}
	}
	return v
}

// boolFuncs are the functions whose value is a boolean.
var boolFuncs = map[string]bool{"contains": true, "startswith": true, "endswith": true,
	"success": true, "always": true, "failure": true, "cancelled": true}

// primary reads a literal, a parenthesised expression, a call or a
// context name; ctx says it was a context name.
func (p *valueParser) primary() (v []string, ctx bool) {
	p.skip()
	if p.i >= len(p.s) {
		p.bad = true
		return nil, false
	}
	switch c := p.s[p.i]; {
	case c == '(':
		p.i++
		v = p.or()
		if !p.eat(")") {
			p.bad = true
		}
		return v, false
	case c == '\'':
		for p.i++; p.i < len(p.s); p.i++ {
			if p.s[p.i] == '\'' {
				if strings.HasPrefix(p.s[p.i:], "''") {
					p.i++
					continue
				}
				p.i++
				return nil, false
			}
		}
		p.bad = true
		return nil, false
	case c == '-' || c == '+' || c >= '0' && c <= '9':
		start := p.i
		for p.i++; p.i < len(p.s) && (isIdentByte(p.s[p.i]) || p.s[p.i] == '.'); p.i++ {
		}
		if _, err := strconv.ParseFloat(p.s[start:p.i], 64); err != nil {
			if _, err := strconv.ParseInt(p.s[start:p.i], 0, 64); err != nil {
				p.bad = true
			}
		}
		return nil, false
	}
	start := p.i
	name := p.ident()
	if name == "" {
		p.bad = true
		return nil, false
	}
	switch strings.ToLower(name) {
	case "true", "false", "null", "nan", "infinity":
		return nil, false
	}
	if !p.eat("(") {
		return nil, true
	}
	var args []string
	if !p.eat(")") {
		for {
			args = append(args, p.or()...)
			if p.bad || p.eat(")") {
				break
			}
			if !p.eat(",") {
				p.bad = true
				break
			}
		}
	}
	fn := strings.ToLower(name)
	switch {
	case boolFuncs[fn]:
		return nil, false
	case fn == "tojson" || fn == "fromjson":
		// kept as a call: toJSON(github.event) is the whole event's text
		for k, a := range args {
			args[k] = p.s[start:start+len(name)] + "(" + a + ")"
		}
	}
	return args, false
}

func (p *valueParser) ident() string {
	start := p.i
	for p.i < len(p.s) && (isIdentByte(p.s[p.i]) || p.i > start && p.s[p.i] == '-') {
		p.i++
	}
	return p.s[start:p.i]
}
