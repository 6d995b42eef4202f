package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"
)

// confirmPostMsg asks, after an ok-to-test on a pull request, whether to
// post the command there. It comes as a message because the decision is
// recorded from inside the note prompt, which closes after it.
type confirmPostMsg struct{ sha string }

// The question belongs to the workbench that recorded the decision.
func (confirmPostMsg) WorkbenchMsg() {}

// askPost asks "post `/ok to test <sha>` to OWNER/REPO#N? y/N"; only y
// posts, and nothing is posted without it.
func (r *Workbench) askPost(sha string) tea.Cmd {
	o := r.ctx.Packet.Origin
	if o == nil || r.ctx.PostOkToTest == nil {
		return nil
	}
	post := r.ctx.PostOkToTest
	title := fmt.Sprintf("post `%s` to %s/%s#%d? y/N", review.OkToTestBody(sha), o.Owner, o.Repo, o.Number)
	r.openPrompt(title, "", false, func(answer string) tea.Cmd {
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			return func() tea.Msg { return common.StatusMsg{Text: "not posted"} }
		}
		return func() tea.Msg {
			url, err := post(sha)
			if err != nil {
				return common.ErrorMsg{Err: fmt.Errorf("nothing posted: %w", err)}
			}
			return common.StatusMsg{Text: "posted " + review.OkToTestBody(sha) + " " + url}
		}
	})
	return r.prompt.focus()
}
