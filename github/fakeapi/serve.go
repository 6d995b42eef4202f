package fakeapi

import (
	"net/http/httptest"
	"testing"
)

// Serve loads the fixture in dir and serves it, with pages of pageSize, on
// a local server that closes when the test ends. It returns the server (to
// change what it answers) and its URL. Tests of the github package, of the
// screens and of the command line all start the fake this way.
func Serve(tb testing.TB, dir string, pageSize int) (*Server, string) {
	tb.Helper()
	f, err := Load(dir)
	if err != nil {
		tb.Fatalf("loading the fake's fixture %s: %v", dir, err)
	}
	s := New(f, pageSize)
	ts := httptest.NewServer(s)
	tb.Cleanup(ts.Close)
	return s, ts.URL
}

// ServeOverlay is Serve for the base fixture with an overlay folder's
// replacements (LoadOverlay).
func ServeOverlay(tb testing.TB, base, overlay string, pageSize int) (*Server, string) {
	tb.Helper()
	f, err := LoadOverlay(base, overlay)
	if err != nil {
		tb.Fatalf("loading the fake's fixture %s over %s: %v", overlay, base, err)
	}
	s := New(f, pageSize)
	ts := httptest.NewServer(s)
	tb.Cleanup(ts.Close)
	return s, ts.URL
}
