// Package config is `vetter config`: checks the config file and prints the
// settings in force.
package config

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/cli/cmdutil"
	"github.com/vetter-dev/vetter/cli/factory"
	vconfig "github.com/vetter-dev/vetter/config"
	"github.com/vetter-dev/vetter/github"
	"github.com/vetter-dev/vetter/ui"
)

// NewCmdConfig is `vetter config`.
func NewCmdConfig(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "config",
		Short: "Check the config file and print the settings in force",
		Long: `config reads $XDG_CONFIG_HOME/vetter/config.yml (else ~/.config/vetter/config.yml),
reports every mistake in it at its line, and prints the settings in force:

  theme: dark                  # dark or light; absent or auto: detected
  awaiting: '(?i)please vet'   # the queue's --awaiting when none is given
  queue:
    repositories: [octo/app]   # the queue's repositories when none are named
  keys:
    triage.accept: A         # an action (as vetter config lists them) to keys
    global.quit: [q, ctrl+c]

Exit status: 0 when the file is absent or sound, 2 when it has a mistake.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(f)
		},
	}
}

func run(f *factory.Factory) error {
	c, err := f.Config()
	if err != nil {
		return err
	}
	km, _ := f.KeyMap()
	stdout := f.IO.Out
	path := vconfig.Path()
	if c.Path == "" {
		fmt.Fprintf(stdout, "%s: absent; every setting at its default\n", path)
	} else {
		fmt.Fprintf(stdout, "%s: ok\n", path)
	}
	theme := c.Theme
	if theme == "" {
		theme = "detected"
	}
	awaiting := c.AwaitingText
	if awaiting == "" {
		awaiting = github.DefaultAwaiting + " (default)"
	}
	repos := strings.Join(c.Repositories, ", ")
	if repos == "" {
		repos = "the clone's (default)"
	}
	return cmdutil.WriteSanitized(stdout, func(w io.Writer) {
		fmt.Fprintf(w, "theme: %s\nawaiting: %s\nqueue.repositories: %s\n", theme, awaiting, repos)
		if km == nil {
			d := ui.DefaultKeyMap()
			km = &d
		}
		for _, a := range km.Actions() {
			fmt.Fprintf(w, "keys.%s: %s  (%s)\n", a.Name, strings.Join(a.Binding.Keys(), ", "), a.Binding.Help().Desc)
		}
	})
}
