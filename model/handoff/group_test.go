package handoff

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/model"
)

// A dedicated block's EKS launch template places its instances dedicated; the tools
// whose files have no tenancy setting say it in their note; a default block says nothing.
func TestDedicatedTenancyIsCarried(t *testing.T) {
	b := testBlock()
	b.Tenancy = "dedicated"
	equal(t, jsonDoc(t, render(t, EKS, b)), "dedicated", "Placement", "Tenancy")
	for _, tool := range []Tool{Karpenter, SkyPilot, ParallelCluster} {
		if f := render(t, tool, b); !strings.Contains(f.Note, "dedicated tenancy") {
			t.Errorf("%s's note does not say the block is dedicated: %s", tool, f.Note)
		}
	}
	plain := testBlock()
	if _, ok := jsonDoc(t, render(t, EKS, plain))["Placement"]; ok {
		t.Error("a default block's launch template sets a placement")
	}
	if f := render(t, Karpenter, plain); strings.Contains(f.Note, "dedicated") {
		t.Errorf("a default block's note speaks of tenancy: %s", f.Note)
	}
}

// The reservations one purchase made are one file, every id in it, each where its tool
// takes one.
func TestGroupPutsEveryReservationInTheFile(t *testing.T) {
	a, b := testBlock(), testBlock()
	b.ReservationID, b.AvailabilityZone, b.TotalCount = "cr-0fedcba9876543210", "us-east-2c", 2
	group := []model.Block{a, b}
	for _, tool := range []Tool{Karpenter, SkyPilot, Dstack, ParallelCluster, EKS} {
		f, err := RenderGroup(tool, group)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		for _, id := range []string{a.ReservationID, b.ReservationID} {
			if !strings.Contains(f.Content, id) || !strings.Contains(f.Note, id) {
				t.Errorf("%s's file or note lacks %s:\n%s\n%s", tool, id, f.Content, f.Note)
			}
		}
	}
	f, _ := RenderGroup(EKS, group)
	var templates []map[string]any
	if err := json.Unmarshal([]byte(f.Content), &templates); err != nil || len(templates) != 2 {
		t.Fatalf("eks: %v\n%s", err, f.Content)
	}
	other := b
	other.Region = "us-west-2"
	if _, err := RenderGroup(Karpenter, []model.Block{a, other}); err == nil {
		t.Error("reservations of two regions made one file")
	}
	expired := b
	expired.State = model.StateExpired
	if _, err := RenderGroup(SkyPilot, []model.Block{a, expired}); err == nil {
		t.Error("a group with an expired reservation was handed over")
	}
}
