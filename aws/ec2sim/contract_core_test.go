package ec2sim

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/gpublock/gpublock/model"
)

func TestGetCallerIdentity(t *testing.T) {
	_, url := newTestServer(t, Options{})
	out, err := stsClient(url, "us-east-2").GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(out.Account) != DemoAccount || !strings.Contains(aws.ToString(out.Arn), DemoAccount) || aws.ToString(out.UserId) == "" {
		t.Fatalf("identity = %+v", out)
	}
}

func TestDescribeOfferingsValues(t *testing.T) {
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	offs := mustSearch(t, c, p5Search(4, 48))
	if len(offs) > maxOfferings {
		t.Fatalf("%d offerings, want at most %d", len(offs), maxOfferings)
	}
	r, _ := regions["us-east-1"]
	for _, o := range offs {
		id := aws.ToString(o.CapacityBlockOfferingId)
		if !wellFormed("cbr", id) {
			t.Errorf("offering id %q", id)
		}
		if aws.ToString(o.InstanceType) != "p5.48xlarge" || aws.ToInt32(o.InstanceCount) != 4 {
			t.Errorf("offering %s: type %s count %d", id, aws.ToString(o.InstanceType), aws.ToInt32(o.InstanceCount))
		}
		if _, ok := r.zone(aws.ToString(o.AvailabilityZone)); !ok {
			t.Errorf("offering %s in unknown AZ %q", id, aws.ToString(o.AvailabilityZone))
		}
		start, end := aws.ToTime(o.StartDate), aws.ToTime(o.EndDate)
		if end.UTC().Hour() != 11 || end.UTC().Minute() != 30 {
			t.Errorf("offering %s ends at %s, want 11:30 UTC", id, end)
		}
		if start.Before(testStart) || start.After(testStart.Add(model.MaxLeadTime)) {
			t.Errorf("offering %s starts at %s", id, start)
		}
		d := end.Sub(start)
		if got := time.Duration(aws.ToInt32(o.CapacityBlockDurationHours))*time.Hour + time.Duration(aws.ToInt32(o.CapacityBlockDurationMinutes))*time.Minute; got != d {
			t.Errorf("offering %s: duration fields %v, dates %v", id, got, d)
		}
		if d%(24*time.Hour) == 0 && d != 48*time.Hour {
			t.Errorf("offering %s: whole-day duration %v, want 48h", id, d)
		}
		fee, err := model.ParseMoney(aws.ToString(o.UpfrontFee))
		if err != nil {
			t.Fatalf("fee %q: %v", aws.ToString(o.UpfrontFee), err)
		}
		if s := aws.ToString(o.UpfrontFee); len(s) < 4 || s[len(s)-3] != '.' {
			t.Errorf("fee %q does not have exactly two decimals", s)
		}
		// Around the published $47.757/h: within the market's 0.7x..1.6x.
		list := model.MustMoney("47.757").Mul(4).MulRat(int64(d/time.Minute), 60)
		if fee.Cmp(list.MulRat(7, 10)) < 0 || fee.Cmp(list.MulRat(16, 10)) > 0 {
			t.Errorf("offering %s fee %s far from list %s", id, fee, list)
		}
		if aws.ToString(o.CurrencyCode) != "USD" || o.Tenancy != types.CapacityReservationTenancyDefault {
			t.Errorf("offering %s currency %q tenancy %q", id, aws.ToString(o.CurrencyCode), o.Tenancy)
		}
	}
}

func TestPurchaseAndDescribe(t *testing.T) {
	s, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	o, cr := buy(t, c, p5Search(2, 24), types.Tag{Key: aws.String("gpublock:request-id"), Value: aws.String("req-1")})
	id := aws.ToString(cr.CapacityReservationId)
	if cr.State != types.CapacityReservationStatePaymentPending {
		t.Errorf("state after purchase = %s", cr.State)
	}
	if aws.ToInt32(cr.TotalInstanceCount) != 2 || aws.ToInt32(cr.AvailableInstanceCount) != 0 {
		t.Errorf("counts total %d available %d", aws.ToInt32(cr.TotalInstanceCount), aws.ToInt32(cr.AvailableInstanceCount))
	}
	if cr.ReservationType != types.CapacityReservationTypeCapacityBlock || !aws.ToTime(cr.StartDate).Equal(aws.ToTime(o.StartDate)) ||
		!aws.ToTime(cr.EndDate).Equal(aws.ToTime(o.EndDate)) || aws.ToString(cr.AvailabilityZone) != aws.ToString(o.AvailabilityZone) {
		t.Errorf("reservation %+v does not match offering %+v", cr, o)
	}
	tags := map[string]string{}
	for _, tg := range cr.Tags {
		tags[aws.ToString(tg.Key)] = aws.ToString(tg.Value)
	}
	if tags["gpublock:request-id"] != "req-1" || tags[quantityTag] != "2" {
		t.Errorf("tags = %v", tags)
	}

	// The same offering cannot be bought twice.
	_, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	wantCode(t, err, "InvalidCapacityBlockOfferingIdExpired")

	// A tag filter finds the purchase, as AWS's does (Karpenter relies on it); the tag is
	// also in the reply, where the adapter looks for it after a lost reply.
	byTag, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{Filters: []types.Filter{
		{Name: aws.String("tag:gpublock:request-id"), Values: []string{"req-1"}},
	}})
	if err != nil || len(byTag.CapacityReservations) != 1 {
		t.Fatalf("by tag: %v, %+v", err, byTag)
	}
	out, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{Filters: []types.Filter{
		{Name: aws.String("instance-type"), Values: []string{"p5.48xlarge"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.CapacityReservations) != 1 || aws.ToString(out.CapacityReservations[0].CapacityReservationId) != id {
		t.Fatalf("by instance type: %+v", out.CapacityReservations)
	}
	if !slices.ContainsFunc(out.CapacityReservations[0].Tags, func(tg types.Tag) bool {
		return aws.ToString(tg.Key) == "gpublock:request-id" && aws.ToString(tg.Value) == "req-1"
	}) {
		t.Fatalf("request-id tag not in the reply: %+v", out.CapacityReservations[0].Tags)
	}
	out, err = c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{Filters: []types.Filter{
		{Name: aws.String("instance-type"), Values: []string{"p5e.48xlarge"}},
	}})
	if err != nil || len(out.CapacityReservations) != 0 {
		t.Fatalf("other type: %v %+v", err, out)
	}

	// Paid after a few minutes: scheduled, then DescribeCapacityBlocks agrees.
	s.Advance(maxPaymentDelay)
	blocks, err := c.DescribeCapacityBlocks(ctx, &ec2.DescribeCapacityBlocksInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks.CapacityBlocks) != 1 {
		t.Fatalf("blocks = %+v", blocks.CapacityBlocks)
	}
	b := blocks.CapacityBlocks[0]
	if b.State != types.CapacityBlockResourceStateScheduled || aws.ToString(b.CapacityBlockId) != aws.ToString(cr.CapacityBlockId) ||
		len(b.CapacityReservationIds) != 1 || b.CapacityReservationIds[0] != id || aws.ToString(b.AvailabilityZoneId) == "" {
		t.Errorf("block = %+v", b)
	}
	for _, tg := range b.Tags {
		if aws.ToString(tg.Key) == quantityTag {
			t.Errorf("block carries AWS's quantity tag")
		}
	}
	got, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{CapacityReservationIds: []string{id}})
	if err != nil || len(got.CapacityReservations) != 1 || got.CapacityReservations[0].State != types.CapacityReservationStateScheduled {
		t.Fatalf("by id: %v %+v", err, got)
	}
}

// A negative speed is refused (the clock itself is tested in aws/simcore).
func TestNegativeSpeedRefused(t *testing.T) {
	if _, err := New(Options{Speed: -1}); err == nil {
		t.Error("New accepted a negative speed")
	}
}

func TestRunInstancesClientTokenIdempotent(t *testing.T) {
	s, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")
	o, cr := buy(t, c, p5Search(4, 24))
	s.SetTime(aws.ToTime(o.StartDate))
	in := launchInput(aws.ToString(cr.CapacityReservationId), subnetIn(t, c, aws.ToString(o.AvailabilityZone)), 2)
	in.ClientToken = aws.String("launch-1")
	a, err := c.RunInstances(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.RunInstances(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(a.ReservationId) != aws.ToString(b.ReservationId) || aws.ToString(a.Instances[0].InstanceId) != aws.ToString(b.Instances[0].InstanceId) {
		t.Fatalf("same ClientToken, different launches: %s %s", aws.ToString(a.ReservationId), aws.ToString(b.ReservationId))
	}
	if got := reservationByID(t, c, aws.ToString(cr.CapacityReservationId)); aws.ToInt32(got.AvailableInstanceCount) != 2 {
		t.Fatalf("available = %d, want 2 after one launch of 2", aws.ToInt32(got.AvailableInstanceCount))
	}
	// MinCount..MaxCount: as many as fit.
	in.ClientToken, in.MinCount, in.MaxCount = aws.String("launch-2"), aws.Int32(1), aws.Int32(5)
	more, err := c.RunInstances(ctx, in)
	if err != nil || len(more.Instances) != 2 {
		t.Fatalf("MinCount 1 MaxCount 5 with 2 free: %v %d", err, len(more.Instances))
	}
	dry := launchInput(aws.ToString(cr.CapacityReservationId), aws.ToString(in.SubnetId), 1)
	dry.DryRun = aws.Bool(true)
	_, err = c.RunInstances(ctx, dry)
	wantCode(t, err, "ReservationCapacityExceeded") // validation comes before DryRun
}

func TestPriceListRouting(t *testing.T) {
	var got string
	pl := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Get("X-Amz-Target")
		io.WriteString(w, `{"PriceList":[]}`)
	})
	_, base := newTestServer(t, Options{PriceList: pl})
	req, _ := http.NewRequest(http.MethodPost, base+"/", strings.NewReader(`{}`))
	req.Header.Set("X-Amz-Target", "AWSPriceListService.GetProducts")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if got != "AWSPriceListService.GetProducts" || string(b) != `{"PriceList":[]}` {
		t.Fatalf("price list handler saw %q, answered %q", got, b)
	}
	// Without one, a Price List call is refused in that protocol's JSON error shape.
	_, base2 := newTestServer(t, Options{})
	req, _ = http.NewRequest(http.MethodPost, base2+"/", strings.NewReader(`{}`))
	req.Header.Set("X-Amz-Target", "AWSPriceListService.GetProducts")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Fatalf("no price list: %d", resp.StatusCode)
	}
	// EC2 on the same port is unaffected.
	if out, err := ec2Client(base, "us-east-1").DescribeRegions(ctx, &ec2.DescribeRegionsInput{}); err != nil || len(out.Regions) == 0 {
		t.Fatalf("EC2 beside the price list: %v", err)
	}
}

// Racing buyers of one offering: exactly one gets it, the others are told it is gone.
func TestConcurrentPurchaseOfOneOffering(t *testing.T) {
	s, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")
	o := mustSearch(t, c, p5Search(2, 24))[0]
	var won, expired atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
			if err == nil {
				won.Add(1)
			} else if apiCode(t, err) == "InvalidCapacityBlockOfferingIdExpired" {
				expired.Add(1)
			}
		}()
	}
	// Meanwhile the clock moves and others read.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 20; i++ {
			s.Advance(0)
			s.SetFaults(Faults{})
			_, _ = c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
		}
	}()
	wg.Wait()
	if won.Load() != 1 || expired.Load() != 7 {
		t.Fatalf("%d purchases succeeded, %d expired; want 1 and 7", won.Load(), expired.Load())
	}
	out, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
	if err != nil || len(out.CapacityReservations) != 1 {
		t.Fatalf("%v %d reservations", err, len(out.CapacityReservations))
	}
}

func TestConcurrentRegions(t *testing.T) {
	s, base := newTestServer(t, Options{Faults: Faults{Throttle: 0.2}})
	var wg sync.WaitGroup
	regionsUsed := []string{"us-east-1", "us-east-2", "us-west-2", "eu-north-1", "ap-northeast-1", "ap-south-1"}
	bought := make([]int, len(regionsUsed))
	for i, r := range regionsUsed {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := retryingClient(base, r)
			for j := 0; j < 3; j++ {
				out, err := c.DescribeCapacityBlockOfferings(ctx, p5Search(1, 24))
				if err != nil || len(out.CapacityBlockOfferings) == 0 {
					continue
				}
				if _, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: out.CapacityBlockOfferings[0].CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix}); err == nil {
					bought[i]++
				}
			}
		}()
	}
	wg.Wait()
	s.SetFaults(Faults{})
	total := 0
	for i, r := range regionsUsed {
		out, err := ec2Client(base, r).DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
		if err != nil {
			t.Fatal(err)
		}
		total += bought[i]
		// Throttling is decided before a call runs, so a purchase is answered iff it committed.
		if len(out.CapacityReservations) != bought[i] {
			t.Errorf("%s: %d reservations, %d purchases answered", r, len(out.CapacityReservations), bought[i])
		}
		for _, cr := range out.CapacityReservations {
			if az := aws.ToString(cr.AvailabilityZone); az[:len(r)] != r {
				t.Errorf("%s holds a reservation in %s", r, az)
			}
		}
	}
	if total == 0 {
		t.Fatal("no purchase went through")
	}
}
