package autoextend

import (
	"context"
	"testing"

	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/model"
)

// A block of a source the watcher was not given is neither extended nor declined: a
// decline would bind the watchers that have it. (The CLI lists only its own sources' blocks.)
func TestABlockOfAnotherSourceIsLeftOpen(t *testing.T) {
	c := client(t, t.TempDir())
	var said []string
	w := &Watcher{Client: c, Spend: spend.New(c), Policy: policy(t), Say: func(s string) { said = append(said, s) }}
	blocks := []model.Block{running("cr-0aaaaaaaaaaaaaaa1")}
	if err := w.Round(context.Background(), blocks, now); err != nil {
		t.Fatal(err)
	}
	if got := decisionLines(t, c); len(got) != 0 || len(said) != 0 {
		t.Errorf("decided %q, said %q; want nothing", got, said)
	}
	if due, err := New(c, nil, nil).Due(w.Policy, blocks, now); err != nil || len(due) != 1 {
		t.Errorf("due after the round: %+v, %v; want the block still open", due, err)
	}
}
