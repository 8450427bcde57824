package ec2sim

import (
	"net/http/httptest"
	"os"
	"path/filepath"
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

// Two emulators on one state file (two `gpublock --demo` commands) see each other's
// purchases, each as soon as the other has written it.
func TestStateFileSharedByTwoEmulators(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	var clients [2]*ec2.Client
	for i := range clients {
		s, err := New(Options{Seed: 3, Start: testStart, StateFile: file})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(s)
		t.Cleanup(ts.Close)
		clients[i] = ec2Client(ts.URL, "us-east-2")
	}
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
