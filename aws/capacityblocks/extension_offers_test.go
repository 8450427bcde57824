package capacityblocks

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// Every length is asked for at once, once each; the choices are what the emulator offers
// for each length, the cheapest of each, shortest first.
func TestExtensionChoicesAskEveryLength(t *testing.T) {
	sim, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	o, bought := boughtBlock(t, c)
	sim.SetTime(o.Start.Add(time.Hour))
	b := blockByID(t, c, bought.ReservationID)

	lengths := model.ExtensionLengths(b)
	if lengths[0] != 1 || lengths[13] != 14 || lengths[14] != 21 || lengths[len(lengths)-1] > model.MaxBlockDays-2 {
		t.Fatalf("lengths for a 2-day block: %v", lengths)
	}
	isAsk := func(r simtest.Recorded) bool { return r.Action == "DescribeCapacityBlockExtensionOfferings" }
	before := rc.Count(isAsk)
	choices, err := c.ExtensionChoices(context.Background(), b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := rc.Count(isAsk) - before; n != len(lengths) {
		t.Errorf("%d calls, want one per length (%d)", n, len(lengths))
	}
	if len(choices) == 0 {
		t.Fatal("no extension offered for an active block")
	}
	byDays := map[int]model.ExtensionOffering{}
	for i, ch := range choices {
		if i > 0 && choices[i-1].Days >= ch.Days {
			t.Errorf("not shortest first: %d after %d", ch.Days, choices[i-1].Days)
		}
		byDays[ch.Days] = ch.Offering
	}
	for _, d := range lengths {
		offs, err := c.ExtensionOfferings(context.Background(), b, d)
		if err != nil {
			t.Fatal(err)
		}
		got, listed := byDays[d]
		switch {
		case len(offs) == 0 && listed:
			t.Errorf("%dd listed, but AWS offers none", d)
		case len(offs) > 0 && !listed:
			t.Errorf("%dd offered by AWS, missing from the choices", d)
		case len(offs) > 0 && got.ID != model.CheapestExtension(offs).ID:
			t.Errorf("%dd: %s, want the cheapest %s", d, got.ID, model.CheapestExtension(offs).ID)
		case listed && (got.DurationHours != d*24 || !got.End.Equal(b.End.Add(time.Duration(d)*24*time.Hour))):
			t.Errorf("%dd: %+v", d, got)
		}
	}
}

// A length that could not be asked for is named; the others are still offered.
func TestExtensionChoicesNameTheLengthsNotAsked(t *testing.T) {
	sim, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	o, bought := boughtBlock(t, c)
	sim.SetTime(o.Start.Add(time.Hour))
	b := blockByID(t, c, bought.ReservationID)
	rc.SetIntercept(func(w http.ResponseWriter, r simtest.Recorded, _ *http.Request) bool {
		if r.Action == "DescribeCapacityBlockExtensionOfferings" && r.Form.Get("CapacityBlockExtensionDurationHours") == "168" {
			simtest.WriteEC2Error(w, http.StatusBadRequest, "UnauthorizedOperation", "You are not authorized to perform this operation.")
			return true
		}
		return false
	})
	choices, err := c.ExtensionChoices(context.Background(), b, nil)
	var le *ExtensionLengthsError
	if !errors.As(err, &le) || len(le.Lengths) != 1 || le.Lengths[0] != "7d" || !strings.Contains(err.Error(), "7d") {
		t.Fatalf("err %v, want 7d named", err)
	}
	if len(choices) == 0 {
		t.Error("the other lengths were dropped")
	}
	for _, ch := range choices {
		if ch.Days == 7 {
			t.Error("7d listed though it could not be asked for")
		}
	}
}

// A block past its extension cutoff (model.ExtendBlockerAt, what marks it CAN'T EXTEND) is
// asked nothing: the refusal says why at once, with no call to AWS.
func TestExtensionChoicesOfABlockThatCannotBeExtendedMakeNoCall(t *testing.T) {
	sim, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	o, bought := boughtBlock(t, c)
	sim.SetTime(o.End.Add(-45 * time.Minute))
	b := blockByID(t, c, bought.ReservationID)
	isAsk := func(r simtest.Recorded) bool { return r.Action == "DescribeCapacityBlockExtensionOfferings" }
	before := rc.Count(isAsk)
	choices, err := c.ExtensionChoices(context.Background(), b, nil)
	var pe *source.ActionError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "can no longer be extended") || len(choices) != 0 {
		t.Fatalf("choices %v, err %v: want the cutoff named", choices, err)
	}
	if n := rc.Count(isAsk) - before; n != 0 {
		t.Errorf("%d calls for a block past its extension cutoff, want none", n)
	}
}

// AWS refusing the block is said as a refusal, not as AWS out of reach, and ends the
// asking: the other lengths would be refused alike.
func TestExtensionChoicesARefusalIsNotAFailureToAsk(t *testing.T) {
	sim, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	o, bought := boughtBlock(t, c)
	sim.SetTime(o.Start.Add(time.Hour))
	b := blockByID(t, c, bought.ReservationID)
	rc.SetIntercept(func(w http.ResponseWriter, r simtest.Recorded, _ *http.Request) bool {
		if r.Action == "DescribeCapacityBlockExtensionOfferings" {
			simtest.WriteEC2Error(w, http.StatusBadRequest, "IncorrectState", "The capacity reservation is not in a state that can be extended.")
			return true
		}
		return false
	})
	isAsk := func(r simtest.Recorded) bool { return r.Action == "DescribeCapacityBlockExtensionOfferings" }
	before := rc.Count(isAsk)
	_, err := c.ExtensionChoices(context.Background(), b, nil)
	var le *ExtensionLengthsError
	if !errors.As(err, &le) || !le.Refused || !strings.HasPrefix(err.Error(), "AWS refused") || strings.Contains(err.Error(), "could not be asked") {
		t.Fatalf("err %v: want a refusal", err)
	}
	if n := rc.Count(isAsk) - before; n > extensionAskers || n >= len(model.ExtensionLengths(b)) {
		t.Errorf("%d calls after AWS refused the block, want at most the %d in flight", n, extensionAskers)
	}
}
