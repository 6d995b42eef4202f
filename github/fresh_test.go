package github

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/github/fakeapi"
)

// A read less than Fresh ago answers the headless commands without a
// request; an older one, or FreshFor 0 (--refresh), reads GitHub.
func TestFreshCacheAnswersWithoutTheNetwork(t *testing.T) {
	s, opts := newFake(t)
	read := opts.Now()
	openFixture(t, s, opts)
	before := s.Requests
	opts.FreshFor = Fresh
	opts.Now = func() time.Time { return read.Add(59 * time.Second) }
	o, err := Open(context.Background(), fixtureRef, opts)
	if err != nil || !o.FromCache || s.Requests != before {
		t.Fatalf("a read 59 s old: %+v, %v, %d requests; want the cache, no request", o, err, s.Requests-before)
	}
	opts.Now = func() time.Time { return read.Add(61 * time.Second) }
	if o, err := Open(context.Background(), fixtureRef, opts); err != nil || o.FromCache || s.Requests == before {
		t.Fatalf("a read 61 s old was not refreshed: %+v, %v", o, err)
	}
	// The refresh that changed nothing still counts as a read: 61 s
	// after the first, 30 s after it.
	before = s.Requests
	opts.Now = func() time.Time { return read.Add(91 * time.Second) }
	if o, err := Open(context.Background(), fixtureRef, opts); err != nil || !o.FromCache || s.Requests != before {
		t.Errorf("30 s after a refresh: %+v, %v, %d requests", o, err, s.Requests-before)
	}
	opts.FreshFor = 0
	if o, err := Open(context.Background(), fixtureRef, opts); err != nil || o.FromCache || s.Requests == before {
		t.Errorf("--refresh answered from the cache: %+v, %v", o, err)
	}
}

// A refresh behind a cached copy that cannot reach GitHub: the status line
// says so and when the copy was read.
func TestFailedRefreshSaysWhenTheCopyWasRead(t *testing.T) {
	s, opts := newFake(t)
	openFixture(t, s, opts)
	dir, at := CachedAt(opts.CacheDir, fixtureRef)
	if dir == "" || !at.Equal(opts.Now()) {
		t.Fatalf("CachedAt = %s, %s; want the read at %s", dir, at, opts.Now())
	}
	gone := httptest.NewServer(nil)
	gone.Close()
	opts.Config.APIURL, opts.Config.Retries = gone.URL, 0
	opts.InPlace, opts.RefreshInto = true, dir
	_, err := Open(context.Background(), fixtureRef, opts)
	if err == nil {
		t.Fatal("a refresh from a closed server succeeded")
	}
	now := time.Date(2026, 12, 1, 14, 30, 0, 0, time.UTC)
	if got := RefreshFailed(err, at, now); got != "GitHub unreachable; showing what was read at 09:00" {
		t.Errorf("status = %q", got)
	}
	if got := RefreshFailed(err, at.AddDate(0, 0, -1), now); got != "GitHub unreachable; showing what was read at Nov 30 09:00" {
		t.Errorf("status for yesterday's read = %q", got)
	}
	if Cached(opts.CacheDir, fixtureRef) != dir {
		t.Error("a failed refresh changed the cache")
	}
}

// Any other failure is said with GitHub's own words.
func TestFailedRefreshOtherwise(t *testing.T) {
	s, opts := newFake(t)
	openFixture(t, s, opts)
	_, at := CachedAt(opts.CacheDir, fixtureRef)
	s.Fail["/pulls/42"] = fakeapi.Failure{Status: 401, Message: "Bad credentials"}
	_, err := Open(context.Background(), fixtureRef, opts)
	got := RefreshFailed(err, at, opts.Now())
	if want := "refreshing from GitHub failed (GitHub refused the token"; len(got) < len(want) || got[:len(want)] != want {
		t.Errorf("status = %q", got)
	}
}
