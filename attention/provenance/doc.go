// Package provenance is what the attention scan knows about where code
// and credentials come from and go to, judged on a URL or a name alone:
// the well-known registries, image hosts, publishers, action and hook
// owners and vendor installers; a URL's host and owner; a registry
// redirected away from the well-known ones; a name one or two letters (or
// a word) away from a well-known one; a script URL pinned to fixed content;
// an endpoint that mints, exchanges or serves tokens. It holds data and
// pure judgements only; the readers in package attention decide which line
// a judgement is asked of and what item it raises.
package provenance
