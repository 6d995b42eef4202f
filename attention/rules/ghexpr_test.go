package rules

import "testing"

func TestCondValue(t *testing.T) {
	for _, c := range []struct {
		cond string
		want Truth
	}{
		{"github.event.comment.author_association == 'MEMBER'", False},
		{"${{ github.event.comment.author_association == 'member' }}", False},
		{"'OWNER' == github.event.comment.author_association", False},
		{"'OWNER' != github.event.comment.author_association", True},
		{"github.event.comment.author_association == 'NONE'", Unknown},
		{"contains(fromJSON('[\"OWNER\", \"MEMBER\", \"COLLABORATOR\"]'), github.event.comment.author_association)", False},
		{"contains('OWNER,MEMBER', github.event.comment.author_association)", False},
		{"contains('OWNER,contributor', github.event.comment.author_association)", Unknown},
		{"!contains('OWNER,MEMBER', github.event.comment.author_association)", True},
		{"github.event.issue.pull_request && contains('OWNER,MEMBER', github.event.comment.author_association)", False},
		{"contains('OWNER,MEMBER', github.event.comment.author_association) || true", True},
		{"contains('OWNER,MEMBER', github.event.comment.author_association) || github.event.comment.body == '/go'", Unknown},
		{"github.repository == 'a/b' &&\n(\n  github.event_name == 'workflow_dispatch' ||\n  (github.event.comment.body == '/fix' && github.event.comment.author_association == 'OWNER')\n)", False},
		{"github.event_name != 'issue_comment' || github.event.comment.author_association == 'OWNER'", False},
		{"'x && y' == github.event.comment.body && github.event.comment.author_association == 'OWNER'", False},
		{"(github.event.comment.author_association == 'OWNER'", Unknown},
		{"github.event.comment.author_association == 'OWNER')", Unknown},
		{"always()", Unknown},
	} {
		if got := CondValue(c.cond, CommenterTest); got != c.want {
			t.Errorf("CondValue(%q) = %d, want %d", c.cond, got, c.want)
		}
	}
}

// A job for a dependency bot's pull requests is one no fork reaches; one
// gated on the actor is not, since a rebase makes the bot the actor.
func TestForkTestBotAuthor(t *testing.T) {
	for _, c := range []struct {
		cond string
		want Truth
	}{
		{"${{ github.event.pull_request.user.login == 'dependabot[bot]' && github.repository == 'a/b' }}", False},
		{"'renovate[bot]' == github.event.pull_request.user.login", False},
		{"github.event.pull_request.user.login != 'dependabot[bot]'", True},
		{"github.event.pull_request.user.login == 'octocat'", Unknown},
		{"github.actor == 'dependabot[bot]'", Unknown},
		{"github.event.pull_request.user.login == 'dependabot[bot]' || github.event.pull_request.user.login == 'octocat'", Unknown},
	} {
		if got := CondValue(c.cond, ForkTest); got != c.want {
			t.Errorf("CondValue(%q, ForkTest) = %d, want %d", c.cond, got, c.want)
		}
	}
}

func TestIfConditions(t *testing.T) {
	var lines []NumLine
	for i, s := range []string{
		"jobs:",
		"  a:",
		"    if: |",
		"      github.repository == 'x/y' &&",
		"      github.event_name == 'push'",
		"    steps:",
		"      - if: \"github.ref == 'refs/heads/main'\"",
		"        run: make",
		"      - run: make test",
		"        if: failure()",
		"  b:",
		"    runs-on: x",
	} {
		lines = append(lines, NumLine{N: i + 1, Text: s})
	}
	got := IfConditions(lines)
	want := []Condition{
		{N: 3, From: 2, To: 10, Text: "github.repository == 'x/y' &&\ngithub.event_name == 'push'"},
		{N: 7, From: 7, To: 8, Text: "github.ref == 'refs/heads/main'"},
		{N: 10, From: 9, To: 10, Text: "failure()"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("condition %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

// A job gated on a tag, a named branch or an event no pull request starts
// is one the vetted change's runs (its pull_request run, the push of its
// copy to pull-request/N) never reach; a test they may pass is not known.
func TestPRRunTest(t *testing.T) {
	for _, c := range []struct {
		cond string
		want Truth
	}{
		{"startsWith(github.ref, 'refs/tags/')", False},
		{"${{ startsWith(github.ref, 'refs/tags/v') }}", False},
		{"!startsWith(github.ref, 'refs/tags/')", True},
		{"contains(github.ref, 'refs/tags')", False},
		{"github.ref_type == 'tag'", False},
		{"github.ref_type == 'branch'", True},
		{"github.event_name == 'release'", False},
		{"github.event_name == 'workflow_dispatch' || github.event_name == 'schedule'", False},
		{"github.event_name == 'push' && github.ref == 'refs/heads/main'", False},
		{"github.ref == 'refs/heads/master' && github.repository == 'a/b'", False},
		{"github.ref_name == github.event.repository.default_branch", False},
		{"github.ref_name == 'main'", False},
		{"startsWith(github.ref, 'refs/heads/release-')", False},
		// What the copy's push or the pull request's run may meet.
		{"github.event_name == 'push'", Unknown},
		{"github.event_name != 'pull_request'", Unknown},
		{"startsWith(github.ref, 'refs/heads/')", Unknown},
		{"startsWith(github.ref, 'refs/heads/pull-request/')", Unknown},
		{"startsWith(github.ref, 'refs/pull/')", Unknown},
		{"github.ref == 'refs/heads/main' || github.event_name == 'pull_request'", Unknown},
		{"github.ref != 'refs/heads/main'", True},
		{"github.repository == 'a/b'", Unknown},
		{"github.event_name == 'push' || startsWith(github.ref, 'refs/tags/')", Unknown},
		{"success()", Unknown},
	} {
		if got := CondValue(c.cond, PRRunTest); got != c.want {
			t.Errorf("CondValue(%q, PRRunTest) = %d, want %d", c.cond, got, c.want)
		}
	}
}

// An expression written into a script hands it its value: a test of the
// pull request's text is a boolean, the text itself (or a default beside
// it, or a format or JSON of it) is the text.
func TestExprValue(t *testing.T) {
	for _, c := range []struct {
		expr, want string
		outsider   bool
	}{
		{"${{ !contains(toJson(github.event.pull_request.body), '#test-continuous') }}", "", false},
		{"${{ github.event.pull_request.title == 'x' }}", "", false},
		{"${{ startsWith(github.head_ref, 'release/') }}", "", false},
		{"${{ github.event.pull_request.commits > 1 }}", "", false},
		{"${{ contains(github.event.pull_request.labels.*.name, 'ci') && 'full' || 'quick' }}", "", false},
		{"${{ github.event_name != 'pull_request_target' || github.event.label.name == ':a: safe' }}", "", false},
		{"${{ (github.event.issue.title) }}", "${{ github.event.issue.title }}", true},
		{"${{ github.event.pull_request.title }}", "${{ github.event.pull_request.title }}", true},
		{"${{ github.event.pull_request.title || 'untitled' }}", "${{ github.event.pull_request.title }}", true},
		{"${{ github.event_name == 'pull_request' && github.head_ref || github.ref_name }}", "${{ github.head_ref github.ref_name }}", true},
		{"${{ format('{0}: {1}', github.event.number, github.event.pull_request.title) }}", "${{ github.event.number github.event.pull_request.title }}", true},
		{"${{ toJSON(github.event.pull_request) }}", "${{ toJSON(github.event.pull_request) }}", true},
		{"${{ fromJSON(steps.meta.outputs.json).labels[0] }}", "${{ fromJSON(steps.meta.outputs.json) }}", false},
		{"${{ github.event.pull_request.labels[0].name }}", "${{ github.event.pull_request.labels[0].name }}", true},
		{"${{ join(github.event.commits.*.message, ' ') }}", "${{ github.event.commits.*.message }}", true},
		// what does not read as an expression is kept whole
		{"${{ github.event.pull_request.title == }}", "${{ github.event.pull_request.title == }}", true},
		{"${{ contains(github.event.issue.body, 'x' }}", "${{ contains(github.event.issue.body, 'x' }}", true},
	} {
		got := ExprValue(c.expr)
		if got != c.want {
			t.Errorf("ExprValue(%q) = %q, want %q", c.expr, got, c.want)
		}
		if o := OutsiderText(c.expr); o != c.outsider {
			t.Errorf("OutsiderText(%q) = %v, want %v", c.expr, o, c.outsider)
		}
	}
}
