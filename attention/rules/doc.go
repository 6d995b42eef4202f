// Package rules is what the attention scan knows, kept as data apart from
// the readers that apply it: the registry of rules (an id, a kind, a
// severity, a title, why it matters on the runner, and the cases that define
// it), the line rules matched where no reader parses the text, which files a
// rule applies to (ClassifyFile and its Scope bits), how hidden
// characters in a line are judged, and what the shell reader knows of
// commands and paths (shells, interpreters, decoders, installers, credential
// and profile files). The readers in package attention name a
// rule by its id and take everything else from here.
package rules
