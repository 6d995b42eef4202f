package cmdutil

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/report"
)

// archiveExts are the archive names packet.Load reads, as completion offers
// them.
var archiveExts = []string{".zip", ".tar", ".tar.gz", ".tgz"}

// CompletePacket completes a PACKET argument: the directories and archives
// whose path starts with what was typed. It lists them itself rather than
// asking the shell to filter file names by extension, since cobra adds
// subcommand names and required flags to the same list and a shell would
// take those for extensions. A path it cannot list ("~/…") falls back to
// the shell's own file completion.
func CompletePacket(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	dir, base := filepath.Split(toComplete)
	list := dir
	if list == "" {
		list = "."
	}
	entries, err := os.ReadDir(list)
	if err != nil {
		return nil, cobra.ShellCompDirectiveDefault
	}
	var out []string
	directive := cobra.ShellCompDirectiveNoFileComp
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, base) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".")) {
			continue
		}
		if fi, err := os.Stat(filepath.Join(list, name)); err == nil && fi.IsDir() {
			// A directory is a packet or leads to one: no space after it,
			// so the next tab goes on into it.
			out = append(out, dir+name+string(filepath.Separator))
			directive |= cobra.ShellCompDirectiveNoSpace
			continue
		}
		lower := strings.ToLower(name)
		for _, ext := range archiveExts {
			if strings.HasSuffix(lower, ext) {
				out = append(out, dir+name)
				break
			}
		}
	}
	return out, directive
}

// completeWords completes a flag that takes one of a fixed set of words.
func completeWords(words ...string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return words, cobra.ShellCompDirectiveNoFileComp
	}
}

// AddCompletions teaches cobra's `completion` command vetter's arguments:
// every argument named PACKET (or OLD and NEW) is a packet, sample's DIR is
// a directory, and each flag that takes a fixed set of words offers them.
// It runs once the tree is built, so a command added later with a PACKET
// argument completes without being listed here.
func AddCompletions(root *cobra.Command) {
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.ValidArgsFunction == nil {
			switch f := strings.Fields(c.Use); {
			case c.Name() == "sample":
				c.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
					return nil, cobra.ShellCompDirectiveFilterDirs
				}
			case len(f) > 1 && (strings.Contains(f[1], "PACKET") || f[1] == "OLD"):
				c.ValidArgsFunction = completePacketArgs(f[1] == "OLD")
			}
		}
		flags := map[string]cobra.CompletionFunc{
			"theme":    completeWords("dark", "light"),
			"format":   completeWords(report.ExportFormats...),
			"severity": completeWords("blocker", "major", "minor", "nit"),
			"since":    CompletePacket,
		}
		for name, fn := range flags {
			if c.Flags().Lookup(name) != nil {
				if _, ok := c.GetFlagCompletionFunc(name); !ok {
					c.RegisterFlagCompletionFunc(name, fn)
				}
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// StrictCompletion makes `completion SHELL` refuse a shell it has no script
// for (tcsh, say) as a usage error, exit 2: cobra's own completion command
// has no Run, so an unknown shell printed its help and exited 0, and a
// script expecting a completion file got a help text.
func StrictCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		var shells []string
		for _, sub := range c.Commands() {
			shells = append(shells, sub.Name())
		}
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fmt.Errorf("completion: name a shell: %s", strings.Join(shells, ", "))
			}
			return fmt.Errorf("completion: no script for %q; the shells are %s", args[0], strings.Join(shells, ", "))
		}
	}
}

// completePacketArgs completes the first argument as a packet (both, for
// compare's OLD NEW); the arguments after it (finding ids) are not files.
func completePacketArgs(two bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) == 0 || (two && len(args) == 1) {
			return CompletePacket(cmd, args, toComplete)
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}

// NeedPacket is the Args of a command that reads a packet and has no use for
// the built-in sample: without PACKET it is a usage error naming where a
// packet comes from, not a silent run on the sample.
func NeedPacket(name string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return fmt.Errorf("%s needs a PACKET (a folder, an archive; `%s sample DIR` writes one)", name, cmd.Root().DisplayName())
		}
		return cobra.ExactArgs(1)(cmd, args)
	}
}

// commandWord is vetter named as a command in a description: a word of its
// own, followed by a space or the end ("vetter/" is a directory).
var commandWord = regexp.MustCompile("(^|[\\s`(])vetter( |$)")

// NameAs makes the tree under root speak of vetter as the user runs it: as
// a gh extension the command is `gh vetter`, so the usage lines, the help
// and the examples in every description say `gh vetter check PACKET`.
func NameAs(root *cobra.Command, exe string) {
	if exe == "" || exe == root.Name() {
		return
	}
	if root.Annotations == nil {
		root.Annotations = map[string]string{}
	}
	root.Annotations[cobra.CommandDisplayNameAnnotation] = exe
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		c.Long = commandWord.ReplaceAllString(c.Long, "${1}"+exe+"${2}")
		c.Example = commandWord.ReplaceAllString(c.Example, "${1}"+exe+"${2}")
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
