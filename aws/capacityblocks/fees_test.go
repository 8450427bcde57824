package capacityblocks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/paid"
	"github.com/gpublock/gpublock/model"
)

// The demo's emulator started afresh gives out the reservation ids of the first run again;
// the journal still holds the first run's lines, which must not count for the new block.
func TestJournalFeesStartAtTheReservationsPurchase(t *testing.T) {
	lines := []string{
		`{"phase":"outcome","action":"PurchaseCapacityBlock","outcome":"bought","result_id":"cr-1","upfront_fee":"1000.00"}`,
		`{"phase":"outcome","action":"PurchaseCapacityBlockExtension","outcome":"bought","capacity_reservation_id":"cr-1","upfront_fee":"304.91"}`,
		`{"phase":"outcome","action":"PurchaseCapacityBlock","outcome":"bought","result_id":"cr-2","upfront_fee":"10.00"}`,
		// the emulator started afresh: cr-1 again, another block
		`{"phase":"intent","action":"PurchaseCapacityBlock","result_id":"cr-1","upfront_fee":"3463.67"}`,
		`{"phase":"outcome","action":"PurchaseCapacityBlock","outcome":"bought","result_id":"cr-1","upfront_fee":"3463.67"}`,
		`{"phase":"outcome","action":"PurchaseCapacityBlockExtension","outcome":"not-bought","capacity_reservation_id":"cr-1","upfront_fee":"1.00"}`,
		`{"phase":"outcome","action":"PurchaseCapacityBlockExtension","outcome":"bought","capacity_reservation_id":"cr-1","upfront_fee":"0.33"}`,
		`{"phase":"outcome","action":"PurchaseCapacityBlockExtension","outcome":"bought","capacity_reservation_id":"cr-2","upfront_fee":"5.00"}`,
	}
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fees := paidFees(nil, journalFees(t, path))
	for id, want := range map[string]string{"cr-1": "$3,464.00", "cr-2": "$15.00"} {
		if got := fees[id].Dollars(); got != want {
			t.Errorf("fee of %s = %s, want %s", id, got, want)
		}
	}
	if len(fees) != 2 {
		t.Errorf("fees = %v, want cr-1 and cr-2 only", fees)
	}
}

// A block or an extension whose payment failed charged nothing, though the journal wrote
// it down as bought when the call answered.
func TestPaidFeesLeaveOutFailedPayments(t *testing.T) {
	lines := []string{
		`{"phase":"outcome","action":"PurchaseCapacityBlock","outcome":"bought","result_id":"cr-failed","upfront_fee":"2083.91"}`,
		`{"phase":"outcome","action":"PurchaseCapacityBlock","outcome":"bought","result_id":"cr-ext","upfront_fee":"1000.00"}`,
		`{"phase":"outcome","action":"PurchaseCapacityBlockExtension","outcome":"bought","capacity_reservation_id":"cr-ext","offering_id":"cbe-failed","upfront_fee":"300.00"}`,
		`{"phase":"outcome","action":"PurchaseCapacityBlockExtension","outcome":"bought","capacity_reservation_id":"cr-ext","offering_id":"cbe-paid","upfront_fee":"310.00"}`,
		`{"phase":"outcome","action":"PurchaseCapacityBlock","outcome":"bought","result_id":"cr-elsewhere","upfront_fee":"7.00"}`,
	}
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	blocks := []model.Block{
		{ReservationID: "cr-failed", State: model.StatePaymentFailed},
		{ReservationID: "cr-ext", State: model.StateActive, Extensions: []model.Extension{
			{OfferingID: "cbe-failed", Status: model.ExtensionPaymentFailed},
			{OfferingID: "cbe-paid", Status: model.ExtensionPaymentSucceeded},
		}},
	}
	fees := paidFees(blocks, journalFees(t, path))
	for id, want := range map[string]string{"cr-failed": "$0.00", "cr-ext": "$1,310.00", "cr-elsewhere": "$7.00"} {
		if got, ok := fees[id]; !ok || got.Dollars() != want {
			t.Errorf("fee paid of %s = %s (known %v), want %s", id, got.Dollars(), ok, want)
		}
	}
}

// The fees paid are read with the journal's one reader: a torn line (a crash mid-write)
// neither hides the entries after it nor stops the reading.
func TestJournalFeesReadPastATornLine(t *testing.T) {
	lines := []string{
		`{"phase":"outcome","action":"PurchaseCapacityBlock","outcome":"bought","result_id":"cr-1","upfront_fee":"10.00"}`,
		`{"phase":"intent","action":"PurchaseCapac`,
		`{"phase":"outcome","action":"PurchaseCapacityBlock","outcome":"bought","result_id":"cr-2","upfront_fee":"20.00"}`,
	}
	path := t.TempDir() + "/journal.jsonl"
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fees := paidFees(nil, journalFees(t, path))
	if fees["cr-1"].Dollars() != "$10.00" || fees["cr-2"].Dollars() != "$20.00" {
		t.Errorf("fees %v", fees)
	}
}

// The in-process demo and gpublock sim share a journal and hand out the same reservation
// ids; a block's fee is the one of the purchase its request tag names, never another's.
func TestPaidFeesFollowTheBlocksRequestTag(t *testing.T) {
	lines := []string{
		`{"phase":"outcome","action":"PurchaseCapacityBlock","outcome":"bought","request_id":"gpb-sim","result_id":"cr-1","upfront_fee":"1931.15"}`,
		`{"phase":"outcome","action":"PurchaseCapacityBlock","outcome":"bought","request_id":"gpb-demo","result_id":"cr-1","upfront_fee":"2903.84"}`,
		`{"phase":"outcome","action":"PurchaseCapacityBlockExtension","outcome":"bought","capacity_reservation_id":"cr-1","offering_id":"cbe-1","upfront_fee":"967.97"}`,
		`{"phase":"outcome","action":"PurchaseCapacityBlock","outcome":"bought","request_id":"gpb-other","result_id":"cr-2","upfront_fee":"10.00"}`,
	}
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tagged := func(id, req string) model.Block {
		return model.Block{ReservationID: id, State: model.StateActive, Tags: map[string]string{awsapi.RequestIDTag: req}}
	}
	fees := paidFees([]model.Block{tagged("cr-1", "gpb-sim"), tagged("cr-2", "gpb-elsewhere")}, journalFees(t, path))
	if got := fees["cr-1"].Dollars(); got != "$1,931.15" {
		t.Errorf("cr-1, bought by gpb-sim: fee %s, want $1,931.15 (not the demo's purchase and extension)", got)
	}
	if got, ok := fees["cr-2"]; ok {
		t.Errorf("cr-2 was bought by a request this journal does not hold, yet its fee reads %s", got.Dollars())
	}
	fees = paidFees([]model.Block{tagged("cr-1", "gpb-demo")}, journalFees(t, path))
	if got := fees["cr-1"].Dollars(); got != "$3,871.81" {
		t.Errorf("cr-1, bought by gpb-demo: fee %s, want its purchase and extension, $3,871.81", got)
	}
}

// journalFees is the journal at path read as FeesPaid reads it.
func journalFees(t *testing.T, path string) paid.Index {
	t.Helper()
	entries, _, err := awsapi.ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	return paid.Read(entries, (&Client{}).Intents())
}
