package ui

// screenID names a screen of the program: the search (ui/screen/search), the blocks
// (ui/screen/blocks) and the advisor (ui/screen/advisor), each a package of its own on the
// shared program.Context; the root routes keys to the one shown (Model.handleKey) and draws
// it in the body (Model.render). 1, 2, 3, [ and ]
// switch between them where keys are not text, alt+1… from anywhere. The header, the
// footer, the help dialog, the clock, the identity and the dialog slot are the root's and
// serve every screen.
type screenID int

const (
	screenSearch  screenID = iota
	screenBlocks           // ui/screen/blocks: every block, its warnings and countdowns
	screenAdvisor          // ui/screen/advisor: which capacity to buy for a job
	numScreens
)
