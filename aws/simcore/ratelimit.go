package simcore

import (
	"fmt"
	"net/http"
	"time"

	"github.com/gpublock/gpublock/aws/apilimit"
)

// RateLimits model AWS's request token buckets: each account, region and action has its
// own bucket, and a request that finds it empty is refused (EC2: RequestLimitExceeded,
// HTTP 503). A nil *RateLimits turns them off. One value may be shared by several servers,
// and then they share the buckets, as two endpoints of one account would.
//
// Where AWS's page is silent the safer reading is taken: a DryRun request and a request
// that fails validation spend a token like any other (AWS counts requests, and a client
// should not count on free ones); a refused request spends none; the check comes after
// the latency fault, as AWS's would after the network. RunInstances' resource bucket
// (instances launched) and STS's own quotas are not modelled.
type RateLimits struct {
	EC2 apilimit.Table
	// SageMaker is the buckets of SageMaker's operations (apilimit.SageMaker, a guess:
	// AWS publishes none); left zero, that guess applies.
	SageMaker apilimit.Table
	// Now is the buckets' clock; nil means the wall clock (AWS refills by real time, not by
	// the emulator's clock, which tests and demos move). Tests of the buckets set it.
	Now     func() time.Time
	buckets *apilimit.Buckets
}

// AWSRateLimits are EC2's documented buckets (apilimit.Source) and SageMaker's guessed
// ones (apilimit.SageMakerSource), with rates scaled by scale (1 for AWS's own; more for
// a demo that should not wait minutes).
func AWSRateLimits(scale float64) *RateLimits {
	t, sm := apilimit.EC2(), apilimit.SageMaker()
	if scale != 1 {
		t, sm = t.Scaled(scale), sm.Scaled(scale)
	}
	return &RateLimits{EC2: t, SageMaker: sm}
}

// SageMakerTable is the SageMaker buckets in force: the field, or the guess when unset.
func (rl *RateLimits) SageMakerTable() apilimit.Table {
	if rl == nil || rl.SageMaker.IsZero() {
		return apilimit.SageMaker()
	}
	return rl.SageMaker
}

// Take takes a token from the bucket of service, region and action; another protocol's
// handler (with its own throttling error) calls it with its own limit.
func (rl *RateLimits) Take(service, region, action string, l apilimit.Limit) bool {
	if rl == nil {
		return true
	}
	if rl.buckets == nil {
		panic("simcore: RateLimits used before the server was made") // set up by New
	}
	return rl.buckets.Take(DemoAccount+"/"+service+"/"+region+"/"+action, l)
}

// init makes the buckets; New calls it through Options.
func (rl *RateLimits) init() {
	if rl != nil && rl.buckets == nil {
		rl.buckets = apilimit.NewBuckets(rl.Now)
	}
}

// serveLimits answers GET /_sim/limits: the EC2 buckets in force, one "ACTION BURST RATE"
// line each (apilimit.Table.Format), or "off"; with ?service=sagemaker, SageMaker's. A
// client pacing itself against this emulator reads its buckets here, as it reads AWS's
// from AWS's documentation.
func (c *Core) serveLimits(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		http.Error(w, "GET /_sim/limits only", http.StatusMethodNotAllowed)
		return
	}
	if c.opts.RateLimits == nil {
		fmt.Fprintln(w, "off")
		return
	}
	switch svc := r.URL.Query().Get("service"); svc {
	case "", "ec2":
		fmt.Fprint(w, c.opts.RateLimits.EC2.Format())
	case "sagemaker":
		fmt.Fprint(w, c.opts.RateLimits.SageMakerTable().Format())
	default:
		http.Error(w, fmt.Sprintf("service %q: want ec2 or sagemaker", svc), http.StatusBadRequest)
	}
}
