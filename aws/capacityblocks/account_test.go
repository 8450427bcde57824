package capacityblocks

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
)

// A block carries the account that owns it, as the reservation's OwnerId names it.
func TestListedBlocksCarryTheirAccount(t *testing.T) {
	sim, err := ec2sim.New(ec2sim.Options{Seed: 1, Start: simtest.Start, Speed: 1e-9, Account: "222233334444"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, nil)
	_, bought := boughtBlock(t, c)
	if bought.Account != "222233334444" {
		t.Errorf("the purchase's block: account %q", bought.Account)
	}
	l, err := c.List(context.Background(), []string{"us-east-1"})
	if err != nil || len(l.Blocks) != 1 {
		t.Fatalf("list: %+v, %v", l, err)
	}
	if got := l.Blocks[0].Account; got != "222233334444" {
		t.Errorf("listed block: account %q, want the emulator's 222233334444", got)
	}
}
