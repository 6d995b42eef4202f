package main

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// These tests pin the patch in third_party/bubbletea: a frame is written as
// soon as one is due after a quiet spell (upstream waits for the next tick of
// a fixed-rate ticker), and a burst still collapses into few frames. They run
// the renderer at 1 frame a second so that the difference is a second, not
// milliseconds, and a loaded machine cannot blur it.

type counterModel struct{ n int }

type bumpMsg struct{}

func (m counterModel) Init() tea.Cmd { return nil }

func (m counterModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case bumpMsg, tea.KeyPressMsg:
		m.n++
	}
	return m, nil
}

func (m counterModel) View() tea.View { return tea.NewView(token(m.n)) }

// token is the text of frame n. The renderer writes only the cells that
// changed, so every cell of a frame differs from the frame before it, and the
// whole token shows in the output: "abcdef", "bcdefg", ... (distinct for n < 26).
func token(n int) string {
	b := make([]byte, 6)
	for i := range b {
		b[i] = byte('a' + (n+i)%26)
	}
	return string(b)
}

// startupLimit bounds the wait for a program's first frame.
const startupLimit = 10 * time.Second

// waitFor fails the test unless out holds want within limit.
func waitFor(t *testing.T, out *syncBuffer, want string, limit time.Duration) {
	t.Helper()
	if !out.waitFor(want, limit) {
		t.Fatalf("%q not written within %s; output %q", want, limit, out.String())
	}
}

func startCounter(t *testing.T) (*tea.Program, *syncBuffer) {
	t.Helper()
	out := &syncBuffer{}
	p := tea.NewProgram(counterModel{},
		tea.WithFPS(1),
		tea.WithInput(nil),
		tea.WithOutput(out),
		tea.WithWindowSize(40, 5),
		tea.WithEnvironment([]string{"TERM=xterm-256color"}),
	)
	done := make(chan struct{})
	go func() { defer close(done); _, _ = p.Run() }()
	t.Cleanup(func() { p.Quit(); <-done })
	return p, out
}

func TestRendererWritesAFrameAtOnceAfterQuiet(t *testing.T) {
	p, out := startCounter(t)
	// The first frame. How soon it comes is not what these tests pin (the
	// program's start-up, slow under -race on a loaded machine), so the
	// limit is generous; what follows is measured from it.
	waitFor(t, out, token(0), startupLimit)
	// A quiet spell longer than the frame interval, then a change: it is
	// written at once, where a ticker would make it wait for its next tick.
	// Two intervals: the start-up's own messages (the window size) may
	// have left a frame for the end of the first.
	time.Sleep(2100 * time.Millisecond)
	p.Send(bumpMsg{})
	waitFor(t, out, token(1), 600*time.Millisecond)
}

func TestRendererCoalescesABurst(t *testing.T) {
	p, out := startCounter(t)
	waitFor(t, out, token(0), startupLimit)
	time.Sleep(2100 * time.Millisecond)
	for range 20 {
		p.Send(bumpMsg{})
	}
	// The last view of the burst is written when the interval is over.
	waitFor(t, out, token(20), 3*time.Second)
	var frames []string
	for n := range 21 {
		if strings.Contains(out.String(), token(n)) {
			frames = append(frames, token(n))
		}
	}
	// frame 0, perhaps one frame early in the burst, and its last.
	if len(frames) > 3 {
		t.Fatalf("a burst of 20 changes wrote %d frames at 1 fps: %q", len(frames), frames)
	}
}

// A key's frame is written at once even right after another frame, where
// any other change waits out the frame interval.
func TestRendererWritesAKeyFrameAtOnce(t *testing.T) {
	p, out := startCounter(t)
	waitFor(t, out, token(0), startupLimit)
	time.Sleep(2100 * time.Millisecond)
	p.Send(bumpMsg{}) // written at once: the interval is long over
	waitFor(t, out, token(1), 600*time.Millisecond)
	p.Send(bumpMsg{}) // inside the interval: waits for its end
	p.Send(tea.KeyPressMsg{Code: 'j', Text: "j"})
	// The key's frame shows token 3 long before the interval (1 s) ends.
	waitFor(t, out, token(3), 600*time.Millisecond)
	if strings.Contains(out.String(), token(2)) {
		t.Error("the frame between was written too, so nothing was coalesced")
	}
}
