package use

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// A purchase of a segmented offering made one reservation per segment: `use` given any
// one of them writes every one into the tool's file, and says so.
func TestUseAGroupNamesEveryReservation(t *testing.T) {
	cs := cmdtest.StartSim(t)
	_, rows := cli.BoughtGroup(t, cs)
	use := func(id, tool string) (string, string) {
		t.Helper()
		code, out, errs := cli.Run("use", id, "--endpoint-url", cs.URL, "--region", "us-east-1", "--for", tool)
		if code != 0 {
			t.Fatalf("use %s --for %s: exit %d\n%s", id, tool, code, errs)
		}
		return out, errs
	}
	last := rows[len(rows)-1].CapacityReservationId
	out, errs := use(last, "karpenter")
	docs := yamlDocs(t, out)
	terms, _ := at(t, docs[0], "spec", "capacityReservationSelectorTerms").([]any)
	if len(terms) != len(rows) {
		t.Fatalf("karpenter selects %d reservations, want %d:\n%s", len(terms), len(rows), out)
	}
	zones := at(t, docs[1], "spec", "template", "spec", "requirements", 3, "values").([]any)
	for _, r := range rows {
		if !strings.Contains(out, "id: "+r.CapacityReservationId) || !strings.Contains(errs, r.CapacityReservationId) {
			t.Errorf("karpenter file or note lacks %s:\n%s\n%s", r.CapacityReservationId, out, errs)
		}
		found := false
		for _, z := range zones {
			found = found || z == r.AvailabilityZone
		}
		if !found {
			t.Errorf("karpenter's zones %v lack %s", zones, r.AvailabilityZone)
		}
	}

	out, _ = use(rows[0].CapacityReservationId, "skypilot")
	ids, _ := at(t, yamlDocs(t, out)[0], "aws", "specific_reservations").([]any)
	if len(ids) != len(rows) {
		t.Errorf("skypilot's specific_reservations %v, want %d ids", ids, len(rows))
	}
	out, _ = use(last, "dstack")
	if docs := yamlDocs(t, out); len(docs) != len(rows) {
		t.Errorf("dstack: %d fleets, want one per reservation:\n%s", len(docs), out)
	}
	out, _ = use(last, "parallelcluster")
	if res, _ := at(t, yamlDocs(t, out)[0], "Scheduling", "SlurmQueues", 0, "ComputeResources").([]any); len(res) != len(rows) {
		t.Errorf("parallelcluster: %d compute resources, want one per reservation:\n%s", len(res), out)
	}
	out, _ = use(last, "eks")
	var templates []map[string]any
	if err := json.Unmarshal([]byte(out), &templates); err != nil || len(templates) != len(rows) {
		t.Errorf("eks: %d launch templates' data (%v), want one per reservation:\n%s", len(templates), err, out)
	}
}
