package ec2sim

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/gpublock/gpublock/aws/simcore"
)

// Two emulators on one state file, bought from at the same time: every purchase either
// is refused or is saved, no reservation id is handed out twice, and a third emulator
// started on the file afterwards sees exactly the purchases that were answered as bought.
func TestTwoServersShareOneStateFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	var clients [2]*ec2.Client
	for i := range clients {
		s, err := New(Options{Seed: 5, Start: testStart, StateFile: file})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(s)
		t.Cleanup(ts.Close)
		clients[i] = ec2Client(ts.URL, "us-east-1")
	}
	const buyers = 16
	var mu sync.Mutex
	bought := map[string]int{}
	refused := 0
	var wg sync.WaitGroup
	for i := 0; i < buyers; i++ {
		wg.Add(1)
		go func(c *ec2.Client) {
			defer wg.Done()
			out, err := c.DescribeCapacityBlockOfferings(ctx, p5Search(1, 24))
			if err != nil || len(out.CapacityBlockOfferings) == 0 {
				t.Errorf("search: %v (%d offerings)", err, len(out.CapacityBlockOfferings))
				return
			}
			p, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{
				CapacityBlockOfferingId: out.CapacityBlockOfferings[0].CapacityBlockOfferingId,
				InstancePlatform:        types.CapacityReservationInstancePlatformLinuxUnix})
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if code := apiCode(t, err); code != "InvalidCapacityBlockOfferingIdExpired" {
					t.Errorf("purchase: %v", err)
				}
				refused++
				return
			}
			bought[aws.ToString(p.CapacityReservation.CapacityReservationId)]++
		}(clients[i%2])
	}
	wg.Wait()
	told := 0
	for id, n := range bought {
		told += n
		if n > 1 {
			t.Errorf("reservation id %s handed out %d times", id, n)
		}
	}
	if told == 0 || told+refused != buyers {
		t.Fatalf("%d bought, %d refused, of %d", told, refused, buyers)
	}
	s3, err := New(Options{Seed: 5, Start: testStart, StateFile: file})
	if err != nil {
		t.Fatal(err)
	}
	ts3 := httptest.NewServer(s3)
	defer ts3.Close()
	for _, c := range []*ec2.Client{clients[0], clients[1], ec2Client(ts3.URL, "us-east-1")} {
		out, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.CapacityReservations) != told {
			t.Errorf("%d reservations listed, %d answered as bought", len(out.CapacityReservations), told)
		}
		for _, r := range out.CapacityReservations {
			if bought[aws.ToString(r.CapacityReservationId)] != 1 {
				t.Errorf("listed %s, which no purchase was answered with", aws.ToString(r.CapacityReservationId))
			}
		}
	}
}

// A purchase whose state cannot be saved is answered InternalError and undone: it is not
// listed afterwards, and the next purchase, once the state can be saved, is.
func TestUnsavedPurchaseIsInternalError(t *testing.T) {
	old := simcore.SetLogf(func(string, ...any) {})
	t.Cleanup(func() { simcore.SetLogf(old) })
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "state.json")
	_, base := newTestServer(t, Options{StateFile: file})
	c := ec2Client(base, "us-east-1")
	buy(t, c, p5Search(1, 24))

	// The directory goes away: the state file (and any new one) cannot be written.
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	o := mustSearch(t, c, p5Search(1, 24))[0]
	_, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	wantCode(t, err, "InternalError")
	list, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.CapacityReservations) != 0 {
		t.Fatalf("an unsaved purchase is listed: %d reservations (the file, deleted, held none)", len(list.CapacityReservations))
	}

	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	_, cr := buy(t, c, p5Search(1, 24))
	s2, err := New(Options{StateFile: file, Start: testStart})
	if err != nil {
		t.Fatal(err)
	}
	ts2 := httptest.NewServer(s2)
	defer ts2.Close()
	// reservationByID fails the test unless the purchase was saved.
	reservationByID(t, ec2Client(ts2.URL, "us-east-1"), aws.ToString(cr.CapacityReservationId))
}
