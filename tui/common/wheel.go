package common

import tea "charm.land/bubbletea/v2"

// WheelStep is how far a wheel event moves a list or a pane: step for the
// wheel down, -step for the wheel up, and 0 for any other button (the
// horizontal wheel, a click), which the caller ignores. The screens choose
// step, the rows one notch covers.
func WheelStep(b tea.MouseButton, step int) int {
	switch b {
	case tea.MouseWheelDown:
		return step
	case tea.MouseWheelUp:
		return -step
	}
	return 0
}
