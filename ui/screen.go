package ui

// screenID names a screen of the program: the search, and the blocks (ui/blocks.go). Each
// has its state in Model, a case in Model.handleKey (searchKey, blocksKey) and a case in
// Model.render (searchBody, blocksBody); 1, 2, [ and ] switch between them where keys are not
// text, alt+1 and alt+2 from anywhere. The header, the footer, the help dialog, the clock,
// the identity and the dialog slot are the root's and serve every screen.
type screenID int

const (
	screenSearch  screenID = iota
	screenBlocks           // ui/blocks.go: every block, its warnings and countdowns
	screenAdvisor          // ui/advisorscreen.go: which capacity to buy for a job
	numScreens
)
