package sim

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/gpublock/gpublock/model"
)

// `gpublock sim --price-drop` serves the demo's market, which gets cheaper as its clock
// moves; without the flag the same two minutes leave the same offerings at the same fees.
func TestSimPriceDropFlag(t *testing.T) {
	for _, drop := range []bool{false, true} {
		args := []string{"--clock", "2026-12-01T12:00:00Z", "--speed", "0.000001", "--rate-limits", "off"}
		if drop {
			args = append(args, "--price-drop")
		}
		base, out, cancel, wait := cli.ServeSim(t, args...)
		if said := strings.Contains(out.String(), "Price drop: every price 4% of the published rate cheaper every 1m"); said != drop {
			t.Errorf("--price-drop %v: the instructions say a drop: %v\n%s", drop, said, out.String())
		}
		c := ec2.New(ec2.Options{Region: "us-east-1", BaseEndpoint: aws.String(base), RetryMaxAttempts: 1,
			Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "x", "")})
		fees := func() map[string]string {
			t.Helper()
			r, err := c.DescribeCapacityBlockOfferings(context.Background(), &ec2.DescribeCapacityBlockOfferingsInput{
				InstanceType: aws.String("p5.48xlarge"), InstanceCount: aws.Int32(2), CapacityDurationHours: aws.Int32(72),
				StartDateRange: aws.Time(time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)), EndDateRange: aws.Time(time.Date(2026, 12, 20, 0, 0, 0, 0, time.UTC))})
			if err != nil || len(r.CapacityBlockOfferings) == 0 {
				t.Fatalf("search: %v, %d offerings", err, len(r.CapacityBlockOfferings))
			}
			out := map[string]string{}
			for _, o := range r.CapacityBlockOfferings {
				out[key(o)] = aws.ToString(o.UpfrontFee)
			}
			return out
		}
		// Asking to start it (as the demo's watchers do) is refused without the flag, and
		// changes nothing with it: it started with the emulator.
		resp, err := http.Post(base+"/_sim/price-drop", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if want := map[bool]int{false: http.StatusConflict, true: http.StatusOK}[drop]; resp.StatusCode != want {
			t.Errorf("--price-drop %v: POST /_sim/price-drop answered %d, want %d", drop, resp.StatusCode, want)
		}
		before := fees()
		resp, err = http.PostForm(base+"/_sim/clock", url.Values{"advance": {"2m"}})
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("advancing the clock: %v %v", resp, err)
		}
		resp.Body.Close()
		after := fees()
		compared := 0
		for k, fee := range before {
			got, ok := after[k]
			if !ok {
				continue
			}
			compared++
			if cheaper := money(t, got).Cmp(money(t, fee)) < 0; cheaper != drop || (!drop && got != fee) {
				t.Errorf("--price-drop %v: %s cost %s, two minutes later %s", drop, k, fee, got)
			}
		}
		if compared == 0 {
			t.Errorf("--price-drop %v: no offering of %v is still offered two minutes later: %v", drop, before, after)
		}
		cancel()
		if code := wait(); code != 0 {
			t.Errorf("exit %d after cancel", code)
		}
	}
}

func key(o types.CapacityBlockOffering) string {
	return aws.ToString(o.AvailabilityZone) + " " + aws.ToTime(o.StartDate).String()
}

func money(t *testing.T, s string) model.Money {
	t.Helper()
	m, err := model.ParseMoney(s)
	if err != nil {
		t.Fatalf("fee %q: %v", s, err)
	}
	return m
}
