package screen

// RefreshBlocksMsg asks the blocks screen for a listing now (after an extension, a purchase,
// a launch). It lives here so that a dialog can send it without importing the screen.
type RefreshBlocksMsg struct{}
