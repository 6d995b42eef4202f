// Package sample is `vetter sample DIR`: the built-in sample packet,
// written out to see the format.
package sample

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/cli/factory"
	"github.com/vetter-dev/vetter/packet"
)

// NewCmdSample is `vetter sample`.
func NewCmdSample(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "sample DIR",
		Short: "Write the built-in sample packet to DIR so you can see the format",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := packet.WriteSample(args[0]); err != nil {
				return err
			}
			fmt.Fprintf(f.IO.Out, "wrote the sample packet to %s\n", args[0])
			return nil
		},
	}
}
