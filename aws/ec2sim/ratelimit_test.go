package ec2sim

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"

	"github.com/gpublock/gpublock/aws/apilimit"
)

// fakeWall is a wall clock the test moves.
type fakeWall struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeWall) now() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.t }
func (f *fakeWall) add(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = f.t.Add(d)
}

func limitedServer(t *testing.T) (*fakeWall, string) {
	wall := &fakeWall{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	rl := AWSRateLimits(1)
	rl.Now = wall.now
	_, url := newTestServer(t, Options{RateLimits: rl})
	return wall, url
}

// The documented bucket of DescribeCapacityBlockOfferings: 10 at once, then one every
// 1/0.15 s, per region and per action.
func TestRateLimitsBurstThenRefillPerRegionAndAction(t *testing.T) {
	wall, url := limitedServer(t)
	east := ec2Client(url, "us-east-1")
	l := apilimit.EC2().For("DescribeCapacityBlockOfferings", false)
	if l.Burst != 10 || l.Rate != 0.15 {
		t.Fatalf("DescribeCapacityBlockOfferings bucket %v, want AWS's 10/0.15", l)
	}
	for i := 0; i < 10; i++ {
		if _, err := east.DescribeCapacityBlockOfferings(ctx, p5Search(1, 48)); err != nil {
			t.Fatalf("call %d of the burst: %v", i+1, err)
		}
	}
	_, err := east.DescribeCapacityBlockOfferings(ctx, p5Search(1, 48))
	wantCode(t, err, "RequestLimitExceeded")

	// Another action, another region: their own buckets, still full.
	if _, err := east.DescribeCapacityBlocks(ctx, &ec2.DescribeCapacityBlocksInput{}); err != nil {
		t.Fatalf("DescribeCapacityBlocks after the offerings' bucket ran dry: %v", err)
	}
	if _, err := ec2Client(url, "us-west-2").DescribeCapacityBlockOfferings(ctx, p5Search(1, 48)); err != nil {
		t.Fatalf("us-west-2 after us-east-1's bucket ran dry: %v", err)
	}

	// Refill: just short of one token, still refused; at one token, one call and no more.
	wall.add(6 * time.Second)
	_, err = east.DescribeCapacityBlockOfferings(ctx, p5Search(1, 48))
	wantCode(t, err, "RequestLimitExceeded")
	wall.add(700 * time.Millisecond)
	if _, err := east.DescribeCapacityBlockOfferings(ctx, p5Search(1, 48)); err != nil {
		t.Fatalf("after a refill of 6.7 s: %v", err)
	}
	_, err = east.DescribeCapacityBlockOfferings(ctx, p5Search(1, 48))
	wantCode(t, err, "RequestLimitExceeded")

	// A long pause fills the bucket to its size, not beyond.
	wall.add(time.Hour)
	n := 0
	for ; n < 20; n++ {
		if _, err := east.DescribeCapacityBlockOfferings(ctx, p5Search(1, 48)); err != nil {
			wantCode(t, err, "RequestLimitExceeded")
			break
		}
	}
	if n != 10 {
		t.Errorf("after an hour %d calls went through, want the bucket's 10", n)
	}
}

func TestRateLimitsRawAnswerIs503RequestLimitExceeded(t *testing.T) {
	_, url := limitedServer(t)
	body := "Action=DescribeCapacityBlockOfferings&Version=2016-11-15&InstanceType=p5.48xlarge&InstanceCount=1&CapacityDurationHours=48"
	for i := 0; i < 10; i++ {
		if r := post(t, url, body, "us-east-2"); r.status != http.StatusOK {
			t.Fatalf("call %d: %d %s", i+1, r.status, r.body)
		}
	}
	wantError(t, post(t, url, body, "us-east-2"), http.StatusServiceUnavailable, "RequestLimitExceeded")
}

// DescribeInstances without a filter or pagination draws from the smaller bucket; with
// a filter, from the ordinary one.
func TestRateLimitsUnfilteredDescribeInstancesHasItsOwnBucket(t *testing.T) {
	_, url := limitedServer(t)
	c := ec2Client(url, "us-east-1")
	n := 0
	for ; n < 60; n++ {
		if _, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{}); err != nil {
			wantCode(t, err, "RequestLimitExceeded")
			break
		}
	}
	if n != 50 {
		t.Fatalf("%d unfiltered DescribeInstances went through, want 50", n)
	}
	if _, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{MaxResults: aws.Int32(5)}); err != nil {
		t.Fatalf("a paginated DescribeInstances after the unfiltered bucket ran dry: %v", err)
	}
}

func TestRateLimitsOffByDefaultAndPublished(t *testing.T) {
	_, off := newTestServer(t, Options{})
	c := ec2Client(off, "us-east-1")
	for i := 0; i < 15; i++ {
		if _, err := c.DescribeCapacityBlockOfferings(ctx, p5Search(1, 48)); err != nil {
			t.Fatalf("call %d without rate limits: %v", i+1, err)
		}
	}
	if got := getLimits(t, off); got != "off\n" {
		t.Errorf("/_sim/limits without buckets: %q", got)
	}
	_, on := limitedServer(t)
	tab, err := apilimit.Parse(getLimits(t, on))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tab.For("DescribeCapacityBlockOfferings", false), apilimit.EC2().For("DescribeCapacityBlockOfferings", false); got != want {
		t.Errorf("published %v, in force %v", got, want)
	}
}

func getLimits(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url + "/_sim/limits")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.HasSuffix(string(b), "\n") {
		t.Fatalf("GET /_sim/limits: %d %q", resp.StatusCode, b)
	}
	return string(b)
}
