package screen

import tea "charm.land/bubbletea/v2"

// RefreshBlocksMsg asks the blocks screen for a listing now (after an extension, a purchase,
// a launch). It lives here so that a dialog can send it without importing the screen.
type RefreshBlocksMsg struct{}

// NowMsg asks the root to move the time every screen shows to the program's clock (each
// screen's Tick): a countdown on screen changes before the root's next minute, or the clock
// was set to the backend's. The root reads the clock; a screen only asks.
type NowMsg struct{}

// AskNow is the command that sends NowMsg.
func AskNow() tea.Msg { return NowMsg{} }
