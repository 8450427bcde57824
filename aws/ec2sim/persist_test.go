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

func TestStateFileSurvivesRestart(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	s1, err := New(Options{Seed: 3, Start: testStart, StateFile: file})
	if err != nil {
		t.Fatal(err)
	}
	ts1 := httptest.NewServer(s1)
	c1 := ec2Client(ts1.URL, "us-east-2")
	o, cr := buy(t, c1, p5Search(2, 48), types.Tag{Key: aws.String("team"), Value: aws.String("ml")})
	s1.Advance(maxPaymentDelay)
	ts1.Close()
	if fi, err := os.Stat(file); err != nil || fi.Size() == 0 {
		t.Fatalf("state file: %v", err)
	}
	if tmp, _ := filepath.Glob(filepath.Join(filepath.Dir(file), ".ec2sim-state-*")); len(tmp) != 0 {
		t.Errorf("temporary files left behind: %v", tmp)
	}

	s2, err := New(Options{Seed: 3, Start: testStart.Add(maxPaymentDelay), StateFile: file})
	if err != nil {
		t.Fatal(err)
	}
	ts2 := httptest.NewServer(s2)
	defer ts2.Close()
	c2 := ec2Client(ts2.URL, "us-east-2")
	got := reservationByID(t, c2, aws.ToString(cr.CapacityReservationId))
	if got.State != types.CapacityReservationStateScheduled || aws.ToInt32(got.TotalInstanceCount) != 2 || !aws.ToTime(got.EndDate).Equal(aws.ToTime(o.EndDate)) {
		t.Fatalf("after restart: %+v", got)
	}
	_, err = c2.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	wantCode(t, err, "InvalidCapacityBlockOfferingIdExpired")

	if err := os.WriteFile(file, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{StateFile: file}); err == nil {
		t.Error("New accepted a corrupt state file")
	}
}

func TestStateFileWithNulls(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	body := `{"version":1,"regions":{"us-east-1":{"offerings":{"cbr-0123456789abcdef0":null},"reservations":[null,{"id":"cr-0123456789abcdef0","blockId":"cb-0123456789abcdef0","az":"us-east-1a","count":1,"extensions":[null]}],
	"instances":[null,{"id":"i-0123456789abcdef0","reservationId":"cr-0fffffffffffffff0"}]},"mars-1":{}}}`
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{StateFile: file, Start: testStart})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := ec2Client(ts.URL, "us-east-1")
	out, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
	if err != nil || len(out.CapacityReservations) != 1 {
		t.Fatalf("%v %+v", err, out)
	}
	inst, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{})
	if err != nil || len(inst.Reservations) != 0 {
		t.Fatalf("orphan instance shown: %v %+v", err, inst)
	}
	mustSearch(t, c, p5Search(1, 24))
}

// twoEmulatorsOnOneFile serves two emulators of seed on one new state file, and gives the
// file and a client of each in region.
func twoEmulatorsOnOneFile(t *testing.T, seed int64, region string) (string, [2]*ec2.Client) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "state.json")
	var clients [2]*ec2.Client
	for i := range clients {
		s, err := New(Options{Seed: seed, Start: testStart, StateFile: file})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(s)
		t.Cleanup(ts.Close)
		clients[i] = ec2Client(ts.URL, region)
	}
	return file, clients
}

// Two emulators on one state file (two `gpublock --demo` commands) see each other's
// purchases, each as soon as the other has written it.
func TestStateFileSharedByTwoEmulators(t *testing.T) {
	file, clients := twoEmulatorsOnOneFile(t, 3, "us-east-2")
	_, first := buy(t, clients[0], p5Search(2, 48))
	got := reservationByID(t, clients[1], aws.ToString(first.CapacityReservationId))
	if aws.ToInt32(got.TotalInstanceCount) != 2 {
		t.Fatalf("the second emulator's view of the first purchase: %+v", got)
	}
	_, second := buy(t, clients[1], p5Search(1, 24))
	for i, c := range clients {
		out, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		for _, r := range out.CapacityReservations {
			ids[aws.ToString(r.CapacityReservationId)] = true
		}
		if len(ids) != 2 || !ids[aws.ToString(first.CapacityReservationId)] || !ids[aws.ToString(second.CapacityReservationId)] {
			t.Errorf("emulator %d lists %v, want both purchases", i+1, ids)
		}
	}

	// A file damaged behind its back: the emulator keeps what it had in memory.
	old := simcore.SetLogf(func(string, ...any) {})
	defer simcore.SetLogf(old)
	if err := os.WriteFile(file, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := reservationByID(t, clients[0], aws.ToString(second.CapacityReservationId)); aws.ToInt32(r.TotalInstanceCount) != 1 {
		t.Errorf("after the file was damaged: %+v", r)
	}
}

// Two emulators on one state file, bought from at the same time: every purchase either
// is refused or is saved, no reservation id is handed out twice, and a third emulator
// started on the file afterwards sees exactly the purchases that were answered as bought.
func TestTwoServersShareOneStateFile(t *testing.T) {
	file, clients := twoEmulatorsOnOneFile(t, 5, "us-east-1")
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
