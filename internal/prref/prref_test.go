package prref

import (
	"strings"
	"testing"
)

// The three former parsers disagreed on the host's spelling, on tabs after
// the number and on "." as a repository; each row says what each door does.
func TestParse(t *testing.T) {
	gh := func(o, r string, n int) Ref { return Ref{"github.com", o, r, n} }
	for _, c := range []struct {
		in              string
		strict, lenient *Ref
	}{
		{"https://github.com/acme/depot/pull/42", ptr(gh("acme", "depot", 42)), ptr(gh("acme", "depot", 42))},
		{" https://github.com/acme/depot/pull/42/ \n", ptr(gh("acme", "depot", 42)), ptr(gh("acme", "depot", 42))},
		{"https://github.com/acme/depot/pull/42/files", nil, ptr(gh("acme", "depot", 42))},
		{"https://github.com/acme/depot/pull/42#issuecomment-1", nil, ptr(gh("acme", "depot", 42))},
		{"https://GitHub.com/acme/depot/pull/42", nil, ptr(gh("acme", "depot", 42))},
		{"http://www.github.com/acme/depot/pull/42", nil, ptr(gh("acme", "depot", 42))},
		{"https://ghe.example.com:8443/team/tool/pull/7", nil, ptr(Ref{"ghe.example.com:8443", "team", "tool", 7})},
		{"https://github.com/acme/depot/issues/42", nil, nil},
		{"https://github.com/acme/../pull/42", nil, nil},
		{"https://github.com/acme/./pull/42", nil, nil},
		{"https://github.com/acme/depot/pull/0", nil, nil},
		{"https://github.com/acme/depot/pull/042", nil, nil},
		{"https://github.com/-acme/depot/pull/4", nil, nil},
		{"https://github.com/acme/depot/pull/4 rm -rf", nil, nil},
		{"ftp://github.com/acme/depot/pull/4", nil, nil},
		{"", nil, nil},
	} {
		got, ok := ParseGitHubURL(c.in)
		check(t, "ParseGitHubURL", c.in, got, ok, c.strict)
		got, ok = ParseURL(c.in)
		check(t, "ParseURL", c.in, got, ok, c.lenient)
	}
}

func TestParseShort(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    Ref
		ok, err bool
	}{
		{"acme/depot#42", Ref{"github.com", "acme", "depot", 42}, true, false},
		{"GHE.example.com/team/tool#7", Ref{"ghe.example.com", "team", "tool", 7}, true, false},
		{"acme/depot#0", Ref{}, true, true},
		{"acme/depot", Ref{}, false, false},
		{"./packet", Ref{}, false, false},
		{"#42", Ref{}, false, false},
	} {
		got, ok, err := ParseShort(c.in, "github.com")
		if got != c.want || ok != c.ok || (err != nil) != c.err {
			t.Errorf("ParseShort(%q) = %+v, %v, %v; want %+v, %v, error %v", c.in, got, ok, err, c.want, c.ok, c.err)
		}
	}
}

func TestRefStrings(t *testing.T) {
	r := Ref{"github.com", "acme", "depot", 42}
	if r.String() != "acme/depot#42" || r.URL() != "https://github.com/acme/depot/pull/42" || r.RepositoryURL() != "https://github.com/acme/depot" {
		t.Errorf("%s %s %s", r, r.URL(), r.RepositoryURL())
	}
	e := Ref{"ghe.example.com", "team", "tool", 7}
	if e.String() != "ghe.example.com/team/tool#7" || e.URL() != "https://ghe.example.com/team/tool/pull/7" {
		t.Errorf("%s %s", e, e.URL())
	}
	if again, ok := ParseGitHubURL(r.URL()); !ok || again != r {
		t.Errorf("round trip: %+v", again)
	}
}

func ptr(r Ref) *Ref { return &r }

func check(t *testing.T, name, in string, got Ref, ok bool, want *Ref) {
	t.Helper()
	if want == nil {
		if ok {
			t.Errorf("%s(%q) = %+v, want no pull request", name, in, got)
		}
		return
	}
	if !ok || got != *want {
		t.Errorf("%s(%q) = %+v, %v; want %+v", name, in, got, ok, *want)
	}
}

// Whatever an address says, a pull request either door yields is canonical
// (it parses back to itself) and holds only characters no shell treats
// specially, so it may go on a command line unquoted.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"https://github.com/acme/depot/pull/2318", "https://github.com/a/b/pull/1/",
		"https://github.com/a/b.git/pull/9", "https://github.com/-a/b/pull/1", "https://github.com/a/b/pull/0",
		"https://github.com/a/b/pull/1\n", "https://github.com/a/b/pull/99999999999", "",
		"http://WWW.GitHub.com/a/b/pull/3/files?x=$(id)", "https://h:1/a/b/pull/4#frag", "http://WWW./0/0/pull/1", "http://WWW.WWW./0/0/pull/1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, parse := range map[string]func(string) (Ref, bool){"ParseGitHubURL": ParseGitHubURL, "ParseURL": ParseURL} {
			pr, ok := parse(s)
			if !ok {
				continue
			}
			if pr.Number <= 0 || pr.Owner == "" || pr.Repo == "" || pr.Host == "" {
				t.Fatalf("%s(%q) gave %+v", name, s, pr)
			}
			if strings.Trim(pr.URL(), "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:./_-") != "" {
				t.Fatalf("%s(%q) gave a URL that needs quoting: %s", name, s, pr.URL())
			}
			if again, ok := parse(pr.URL()); !ok || again != pr {
				t.Fatalf("%s(%q): canonical URL %s does not parse back", name, s, pr.URL())
			}
		}
	})
}

func TestSameAndValidName(t *testing.T) {
	a := Ref{Host: "github.com", Owner: "Acme", Repo: "Depot", Number: 4}
	if !a.Same(Ref{Owner: "acme", Repo: "depot", Number: 4}) {
		t.Error("case and an empty host must not make two references differ")
	}
	if a.Same(Ref{Host: "ghe.example.com", Owner: "acme", Repo: "depot", Number: 4}) || a.Same(Ref{Owner: "acme", Repo: "depot", Number: 5}) {
		t.Error("another host or number is another pull request")
	}
	for s, want := range map[string]bool{"acme": true, "a.b_c-d": true, ".": false, "..": false, "": false, "a/b": false, "a b": false} {
		if ValidName(s) != want {
			t.Errorf("ValidName(%q) = %v", s, !want)
		}
	}
}

// Every address form of a change under review names its forge host, owner
// (a GitLab namespace may have subgroups) and repository; a GitLab address
// is no GitHub pull request.
func TestParseAnyURL(t *testing.T) {
	for _, c := range []struct {
		in   string
		want *Ref
	}{
		{"https://github.com/acme/depot/pull/42/files", ptr(Ref{"github.com", "acme", "depot", 42})},
		{"http://www.github.com/acme/depot/pull/42", ptr(Ref{"github.com", "acme", "depot", 42})},
		{"https://ghe.corp.example:8443/team/tool/pull/7/commits", ptr(Ref{"ghe.corp.example:8443", "team", "tool", 7})},
		{"https://gitlab.com/team/svc/-/merge_requests/7", ptr(Ref{"gitlab.com", "team", "svc", 7})},
		{"https://gitlab.com/team/svc/-/merge_requests/7/diffs?commit_id=abc", ptr(Ref{"gitlab.com", "team", "svc", 7})},
		{"https://GitLab.corp.example/team/sub/svc/-/merge_requests/7", ptr(Ref{"gitlab.corp.example", "team/sub", "svc", 7})},
		{"https://gitlab.com/team/svc/merge_requests/7", ptr(Ref{"gitlab.com", "team", "svc", 7})},
		{"https://gitlab.com/team/../svc/-/merge_requests/7", nil},
		{"https://gitlab.com/svc/-/merge_requests/7", nil},
		{"https://gitlab.com/team/svc/-/merge_requests/0", nil},
		{"https://gitlab.com/team/svc/-/issues/7", nil},
	} {
		got, ok := ParseAnyURL(c.in)
		check(t, "ParseAnyURL", c.in, got, ok, c.want)
		if strings.Contains(c.in, "merge_requests") {
			if _, ok := ParseURL(c.in); ok {
				t.Errorf("ParseURL(%q) took a GitLab merge request for a GitHub pull request", c.in)
			}
		}
	}
}
