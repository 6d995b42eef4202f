package ui

import (
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

const hostileDoc = "# Plan \x1b]0;pwned\x07\n\n" +
	"Some text \x1b[2J with a clear screen and \u202Ereversed.\r\n\n" +
	"A [link](https://example.test/x) and raw \x1b]8;;http://evil.test\x1b\\hyperlink\x1b]8;;\x1b\\.\n\n" +
	"```go\nfunc f() { fmt.Println(\"\x1b[31mred\") }\n```\n\n" +
	"| a | b |\n|---|---|\n| \x9b2J | \xff |\n"

func TestMarkdownNeutralises(t *testing.T) {
	for _, tc := range []struct {
		name          string
		dark, noColor bool
	}{{"dark", true, false}, {"light", false, false}, {"nocolor", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewMarkdownCache(tc.dark, tc.noColor, 0)
			out, err := c.Render("plan.md", hostileDoc, 60)
			if err != nil {
				t.Fatal(err)
			}
			// Every ESC in the output starts an SGR sequence: no OSC, no
			// hyperlink, no clear screen.
			checkOnlySGR(t, out)
			plain := ansi.Strip(out)
			for _, want := range []string{"␛]0;pwned␇", "␛[2J", "⟦U+202E⟧", "␛]8;;http://evil.test", "⟦0x9B⟧2J", "\uFFFD", "https://example.test/x"} {
				if !strings.Contains(plain, want) {
					t.Errorf("rendered text lacks %q:\n%s", want, plain)
				}
			}
			if strings.Contains(plain, "␍") {
				t.Errorf("CRLF line endings shown as ␍:\n%s", plain)
			}
			if tc.noColor {
				for _, code := range sgrCodes(out) {
					if colourCode.MatchString(code) {
						t.Errorf("NO_COLOR markdown draws colour %s", code)
						break
					}
				}
			}
		})
	}
}

func TestMarkdownCache(t *testing.T) {
	c := NewMarkdownCache(true, false, 2)
	a1, _ := c.Render("a.md", "# A", 40)
	if c.docs.len() != 1 {
		t.Fatalf("cache holds %d documents", c.docs.len())
	}
	a2, _ := c.Render("a.md", "# A", 40)
	if a1 != a2 || c.docs.len() != 1 {
		t.Errorf("second render of the same document was not a cache hit")
	}
	wide, _ := c.Render("a.md", "# A", 80)
	if c.docs.len() != 2 || len(c.renderers) != 2 {
		t.Errorf("a new width should add a document and a renderer: %d docs %d renderers", c.docs.len(), len(c.renderers))
	}
	if wide == a1 {
		t.Errorf("width did not change the rendering")
	}
	c.SetDark(false)
	light, _ := c.Render("a.md", "# A", 40)
	if light == a1 {
		t.Errorf("light rendering is the same as dark")
	}
	if c.docs.len() != 2 {
		t.Errorf("cache grew past its capacity: %d", c.docs.len())
	}
	changed, _ := c.Render("a.md", "# B", 40)
	if !strings.Contains(ansi.Strip(changed), "B") {
		t.Errorf("changed text under the same key served stale: %q", ansi.Strip(changed))
	}
}

func TestMarkdownConcurrent(t *testing.T) {
	c := NewMarkdownCache(true, false, 8)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			doc := strings.Repeat("para ", i+1) + "\n\n- item\n"
			if _, err := c.Render("doc", doc, 30+i%3); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
}
