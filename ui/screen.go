package ui

// screenID names a screen of the program. Today there is one, the search; the blocks screen
// (issue 7) adds screenBlocks, its state beside the search's in Model, a case in
// Model.handleKey (its keys, as searchKey for the search) and a case in Model.render (its
// body, as searchBody). The header, the footer, the help dialog, the clock, the identity and
// the dialog slot are the root's and serve every screen.
type screenID int

const (
	screenSearch screenID = iota
	screenBlocks          // ui/blocks.go: every block, its warnings and countdowns
	numScreens
)
