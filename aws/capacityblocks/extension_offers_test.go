package capacityblocks

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// Every length is asked for at once, once each, but those longer than a length AWS offers
// nothing for; the choices are what the emulator offers for each length, the cheapest of
// each, shortest first; the progress hook counts down to nothing left.
func TestExtensionChoicesAskEveryLength(t *testing.T) {
	sim, rc, c := recordedClient(t)
	_, b := runningBlock(t, sim, c)

	lengths := model.ExtensionLengths(b)
	if lengths[0] != 1 || lengths[13] != 14 || lengths[14] != 21 || lengths[len(lengths)-1] > model.MaxReservationDays-2 {
		t.Fatalf("lengths for a 2-day block: %v", lengths)
	}
	asked := map[string]int{}
	isAsk := func(r simtest.Recorded) bool {
		if r.Action == "DescribeCapacityBlockExtensionOfferings" {
			asked[r.Form.Get("CapacityBlockExtensionDurationHours")]++
			return true
		}
		return false
	}
	before := rc.Count(isAsk)
	clear(asked)
	var steps []ExtensionProgress
	var streamed []int
	ctx := WithExtensionProgress(context.Background(), func(p ExtensionProgress) { steps = append(steps, p) })
	var mu sync.Mutex
	choices, err := c.ExtensionChoices(ctx, b, func(ch model.ExtensionChoice) {
		mu.Lock()
		defer mu.Unlock()
		streamed = append(streamed, ch.Days)
	})
	if err != nil {
		t.Fatal(err)
	}
	n := rc.Count(isAsk) - before
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
	if len(streamed) != len(choices) {
		t.Errorf("%d choices handed over as they came, %d in the answer", len(streamed), len(choices))
	}
	shortestEmpty := 0
	for _, d := range lengths {
		offs, err := c.ExtensionOfferings(context.Background(), b, d)
		if err != nil {
			t.Fatal(err)
		}
		if len(offs) == 0 && shortestEmpty == 0 {
			shortestEmpty = d
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
	if shortestEmpty == 0 {
		t.Fatal("the emulator offers every length: the test shows nothing of what is not asked")
	}
	upTo := 0
	for _, d := range lengths {
		if d <= shortestEmpty {
			upTo++
			if asked[strconv.Itoa(d*24)] != 1 {
				t.Errorf("%dd asked %d times, want once", d, asked[strconv.Itoa(d*24)])
			}
		}
	}
	for h, k := range asked {
		if k != 1 {
			t.Errorf("%s hours asked %d times", h, k)
		}
	}
	// Longer lengths are not asked, but for those already in flight when the empty answer came.
	if n < upTo || n > upTo+extensionAskers || n >= len(lengths) {
		t.Errorf("%d calls for %d lengths, want those up to %dd (%d) and at most %d in flight", n, len(lengths), shortestEmpty, upTo, extensionAskers)
	}
	last := steps[len(steps)-1]
	if len(steps) != len(lengths) || last.Left != 0 || last.Asked != n || last.Asked+last.Skipped != len(lengths) || last.Found != len(choices) {
		t.Fatalf("%d progress steps, the last %+v; want one per length (%d), none left", len(steps), last, len(lengths))
	}
	for i := 1; i < len(steps); i++ {
		if steps[i].Left != steps[i-1].Left-1 {
			t.Fatalf("progress %+v after %+v", steps[i], steps[i-1])
		}
	}
}

// A length that could not be asked for is named; the others are still offered.
func TestExtensionChoicesNameTheLengthsNotAsked(t *testing.T) {
	sim, rc, c := recordedClient(t)
	_, b := runningBlock(t, sim, c)
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
	sim, rc, c := recordedClient(t)
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
	sim, rc, c := recordedClient(t)
	_, b := runningBlock(t, sim, c)
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
