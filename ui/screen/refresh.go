package screen

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// DefaultRefresh is how often what a screen or a dialog shows of AWS is read again by
// itself, unless the program's --refresh says otherwise.
const DefaultRefresh = 30 * time.Second

// RefreshEvery is every, or DefaultRefresh when it is 0.
func RefreshEvery(every time.Duration) time.Duration {
	if every > 0 {
		return every
	}
	return DefaultRefresh
}

// RefreshBlocksMsg asks the blocks screen for a listing now (after an extension, a purchase,
// a launch). It lives here so that a dialog can send it without importing the screen.
type RefreshBlocksMsg struct{}

// NowMsg asks the root to move the time every screen shows to the program's clock (each
// screen's Tick): a countdown on screen changes before the root's next minute, or the clock
// was set to the backend's. The root reads the clock; a screen only asks.
type NowMsg struct{}

// AskNow is the command that sends NowMsg.
func AskNow() tea.Msg { return NowMsg{} }
