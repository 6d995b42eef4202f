// Command fakegh serves the fixture pull request of github/testdata/pr as a
// fake GitHub API, for walking the workbench without GitHub:
//
//	go run ./github/fakegh -addr 127.0.0.1:0
//	GITHUB_API_URL=http://127.0.0.1:PORT GH_TOKEN=x vetter acme/depot#42
//
// With -overlay github/testdata/agents/september it serves the same pull
// request as today's agent posts it.
//
// With -queue it serves the queue's other open pull requests too
// (vetter queue acme/depot); -prs 60 serves sixty, for the benchmark.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/vetter-dev/vetter/github/fakeapi"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	dir := flag.String("fixture", "github/testdata/pr", "the fixture folder")
	overlay := flag.String("overlay", "", "a folder of github/testdata/agents whose comments, description and JSON files replace the fixture's (one shape of what an agent posts)")
	page := flag.Int("page", 2, "items per list page")
	latency := flag.Duration("latency", 0, "added to every response")
	tooLarge := flag.Bool("diff-too-large", false, "refuse the diff with 406")
	comments := flag.Int("comments", 0, "pad the comments with filler up to this many (the benchmark's 300)")
	queue := flag.Bool("queue", false, "serve the queue's other open pull requests beside #42 (vetter queue acme/depot)")
	prs := flag.Int("prs", 0, "serve this many open pull requests in all, each with a packet (the queue benchmark's 60)")
	rate := flag.Int("rate-remaining", 0, "send X-RateLimit-Remaining counting down from this (0: no header)")
	var fails []string
	flag.Func("fail", "PATH=STATUS: answer requests whose path contains PATH with STATUS, as GitHub does (401, 403 or 429 rate limited with X-RateLimit-Remaining: 0, 404, 5xx); repeatable", func(v string) error {
		fails = append(fails, v)
		return nil
	})
	flag.Parse()
	f, err := fakeapi.Load(*dir)
	if *overlay != "" {
		f, err = fakeapi.LoadOverlay(*dir, *overlay)
	}
	if err != nil {
		log.Fatal(err)
	}
	if n := *comments - len(f.Comments); n > 0 {
		f.AddComments(n)
	}
	s := fakeapi.New(f, *page)
	s.Latency, s.DiffTooLarge, s.RateRemaining = *latency, *tooLarge, *rate
	for _, v := range fails {
		path, code, ok := strings.Cut(v, "=")
		status, err := strconv.Atoi(code)
		if !ok || err != nil {
			log.Fatalf("-fail %q: want PATH=STATUS", v)
		}
		f := fakeapi.Failure{Status: status, Message: http.StatusText(status)}
		if status == 403 || status == 429 {
			f.Message = "API rate limit exceeded"
			f.Header = map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": strconv.FormatInt(time.Now().Add(17*time.Minute).Unix(), 10)}
		}
		s.Fail[path] = f
	}
	if *queue {
		s.AddQueue(fakeapi.QueueSpecs())
	}
	if *prs > 1 {
		s.AddQueue(fakeapi.BenchSpecs(*prs - 1))
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stdout, "http://%s\n", ln.Addr())
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}
