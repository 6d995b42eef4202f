package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/config"
	"github.com/vetter-dev/vetter/github"
	"github.com/vetter-dev/vetter/ui"
)

// loadConfig reads the config file (config.Path) and checks its key
// bindings against the key map. A file with mistakes is an error listing
// each at its line; the caller exits 2 with it.
func loadConfig() (*config.Config, error) {
	c, err := config.Load(config.Path())
	if err == nil {
		_, err = configKeyMap(c)
	}
	var errs config.Errors
	if errors.As(err, &errs) {
		return nil, fmt.Errorf("the config file has %d %s:\n%w", len(errs), plural(len(errs), "mistake", "mistakes"), err)
	}
	return c, err
}

// configKeyMap is the default key map with the file's remaps applied, in
// the file's order; nil when the file remaps nothing.
func configKeyMap(c *config.Config) (*ui.KeyMap, error) {
	if len(c.Keys) == 0 {
		return nil, nil
	}
	km := ui.DefaultKeyMap()
	var errs config.Errors
	for _, b := range c.Keys {
		if err := km.Remap(b.Action, b.Keys); err != nil {
			errs = append(errs, &config.Error{Path: c.Path, Line: b.Line, Msg: "keys: " + err.Error()})
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return &km, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func newConfigCmd(stdout io.Writer) *cobra.Command {
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
			c, err := loadConfig()
			if err != nil {
				return err
			}
			path := config.Path()
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
			return writeSanitized(stdout, func(w io.Writer) {
				fmt.Fprintf(w, "theme: %s\nawaiting: %s\nqueue.repositories: %s\n", theme, awaiting, repos)
				km, _ := configKeyMap(c)
				if km == nil {
					d := ui.DefaultKeyMap()
					km = &d
				}
				for _, a := range km.Actions() {
					fmt.Fprintf(w, "keys.%s: %s  (%s)\n", a.Name, strings.Join(a.Binding.Keys(), ", "), a.Binding.Help().Desc)
				}
			})
		},
	}
}
