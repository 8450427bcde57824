package offerings

import "github.com/gpublock/gpublock/ui/components/table"

// markGlyph starts the row of a marked offering; it is plain text so that it reads without
// colour.
const markGlyph = table.MarkGlyph
