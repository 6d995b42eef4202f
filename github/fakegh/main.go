// Command fakegh serves the fixture pull request of github/testdata/pr as a
// fake GitHub API, for walking the workbench without GitHub:
//
//	go run ./github/fakegh -addr 127.0.0.1:0
//	GITHUB_API_URL=http://127.0.0.1:PORT GH_TOKEN=x vetter acme/depot#42
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"

	"vetter/github/fakeapi"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	dir := flag.String("fixture", "github/testdata/pr", "the fixture folder")
	page := flag.Int("page", 2, "items per list page")
	latency := flag.Duration("latency", 0, "added to every response")
	tooLarge := flag.Bool("diff-too-large", false, "refuse the diff with 406")
	comments := flag.Int("comments", 0, "pad the comments with filler up to this many (the benchmark's 300)")
	flag.Parse()
	f, err := fakeapi.Load(*dir)
	if err != nil {
		log.Fatal(err)
	}
	if n := *comments - len(f.Comments); n > 0 {
		f.AddComments(n)
	}
	s := fakeapi.New(f, *page)
	s.Latency, s.DiffTooLarge = *latency, *tooLarge
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stdout, "http://%s\n", ln.Addr())
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}
