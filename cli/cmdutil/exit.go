// Package cmdutil is what vetter's commands share: the exit status an error
// carries, output through the sanitiser, gh's --json flags, argument
// checks and completion, opening a PACKET argument (a pull request cache
// first, or fresh) and posting to the pull request it came from.
package cmdutil

import "fmt"

// ExitError carries an exit status out of a command without os.Exit inside
// it; main exits with Code.
type ExitError struct{ Code int }

func (e ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }
