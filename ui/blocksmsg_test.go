package ui

import blockscreen "github.com/gpublock/gpublock/ui/screen/blocks"

// blocksMsg is a listing's answer, as the tests hand it to the root.
type blocksMsg = blockscreen.ListedMsg
