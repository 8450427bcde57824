package receipt

import "github.com/gpublock/gpublock/model"

// What the root and its tests read of the receipt.

// ID is the receipt's number: the block polls it asked for carry it.
func (r Model) ID() int64 { return r.id }

// Block is the block as last looked at.
func (r Model) Block() model.Block { return r.block }

// Settled: the payment settled, and the block is watched no more.
func (r Model) Settled() bool { return r.settled }

// Lines is the receipt's content at width w, without its frame.
func (r Model) Lines(w int) []string { return r.lines(w) }

// ShowJournal is the receipt once the journal's path is known.
func (r *Model) ShowJournal(path string) { r.journal = path }
