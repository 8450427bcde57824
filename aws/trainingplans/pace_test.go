package trainingplans

import (
	"slices"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"

	"github.com/gpublock/gpublock/aws/apilimit"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/sagemakersim"
	"github.com/gpublock/gpublock/model"
)

// limitedBucket is the emulator's SageMaker search bucket in these tests: small enough that
// calls sent at once overrun it, and paced, at half its size (pacedHeadroom), with room for
// calls that reach it late.
var limitedBucket = apilimit.Limit{Burst: 8, Rate: 10}

// pacedHeadroom has the client pace itself by half of limitedBucket: bursts of 4, then 5 a
// second. A call the pacer lets go may reach the emulator late (a loaded machine, a slow
// round trip); the emulator, with 8 at 10 a second, has room for every call unless one is
// late by more than (8−4)/5 s = 800 ms behind the pacer's schedule, which no wall-clock
// wait of the search itself decides.
const pacedHeadroom = 0.5

// limitedSim serves an emulator whose SageMaker search bucket is limitedBucket.
func limitedSim(t *testing.T) (string, *simtest.Recorder) {
	t.Helper()
	return simWithSearchBucket(t, limitedBucket)
}

// simWithSearchBucket serves an emulator whose SageMaker search bucket is bucket, behind a
// recorder.
func simWithSearchBucket(t *testing.T, bucket apilimit.Limit) (string, *simtest.Recorder) {
	t.Helper()
	sm := apilimit.SageMaker()
	sm.Actions["SearchTrainingPlanOfferings"] = bucket
	sim := simtest.NewSim(t, ec2sim.Options{Seed: 7, Start: simtest.Start, Speed: 1e-9, Protocols: []ec2sim.Protocol{sagemakersim.Protocol()},
		RateLimits: &ec2sim.RateLimits{EC2: apilimit.EC2(), SageMaker: sm}})
	rc := &simtest.Recorder{Next: sim}
	return simtest.ServeHandler(t, rc), rc
}

func TestSearchPacesItselfBySageMakersBuckets(t *testing.T) {
	url, rc := limitedSim(t)
	c := newClient(t, url, func(cfg *awsapi.Config) { cfg.Headroom = pacedHeadroom })
	q := query("us-east-1")
	q.InstanceTypes = []string{"p5.48xlarge", "p4d.24xlarge"}
	q.Days = []int{1, 2, 3, 4, 5, 6}
	_, st := collect(t, c.Search(ctx, q))
	if s := st["us-east-1"]; s.State == model.RegionError {
		t.Fatalf("region failed: %v", s.Message)
	}
	if n := rc.Answered("ThrottlingException"); n != 0 {
		t.Errorf("%d calls throttled; a search of 12 calls paced at 4, then 5/s, through a bucket of 8 at 10/s should have none", n)
	}
}

// Twice the search's calls at once, unpaced, are throttled: the bucket above is one a
// search would overrun without its pacer. 24 calls escape its 8 at 10/s only if they reach
// it spread over more than 1.6 s.
func TestUnpacedCallsOverrunTheSameBucket(t *testing.T) {
	url, rc := limitedSim(t)
	cl := sagemaker.NewFromConfig(aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider(simtest.AccessKey, simtest.SecretKey, "")},
		func(o *sagemaker.Options) {
			o.BaseEndpoint = aws.String(url)
			o.RetryMaxAttempts = 1
		})
	s := &search{q: query("us-east-1")}
	var wg sync.WaitGroup
	for i := 0; i < 24; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = cl.SearchTrainingPlanOfferings(ctx, s.input(call{"us-east-1", "ml.p5.48xlarge", 2}))
		}()
	}
	wg.Wait()
	if rc.Answered("ThrottlingException") == 0 {
		t.Error("24 calls at once through a bucket of 8 at 10/s were never throttled")
	}
}

func TestPacingIsOffWhenTheEmulatorsLimitsAre(t *testing.T) {
	_, _, c := simClient(t)
	if c.pacer.On() {
		t.Error("paced against an emulator with its rate limits off")
	}
	url2, _ := limitedSim(t)
	if c2 := newClient(t, url2, nil); !c2.pacer.On() {
		t.Error("not paced against an emulator with rate limits")
	}
}

// model's list of what plans reserve is the SDK's enum and the UltraServer types: the
// rules the search form checks as one types are the ones the adapter sends.
func TestModelsTrainingPlanTypesAreTheSDKs(t *testing.T) {
	want := slices.Sorted(slices.Values(append(slices.Clone(instanceTypes), ultraServerTypes...)))
	if got := slices.Sorted(slices.Values(model.TrainingPlanTypes())); !slices.Equal(got, want) {
		t.Errorf("model.TrainingPlanTypes() = %v, the SDK's = %v", got, want)
	}
}

// The commands build a training-plan client per search over one base client; AWS counts
// their calls in one bucket, so they pace themselves by one: a second client's search
// waits for what the first one's drained, and nothing is throttled.
func TestClientsOverOneBaseShareTheBuckets(t *testing.T) {
	url, rc := simWithSearchBucket(t, apilimit.Limit{Burst: 3, Rate: 2})
	first := newClient(t, url, nil)
	second := New(first.Base())
	for i, c := range []*Client{first, second} {
		_, st := collect(t, c.Search(ctx, query("us-east-1"))) // 3 calls each: the bucket's whole burst
		if s := st["us-east-1"]; s.State == model.RegionError {
			t.Fatalf("search %d: %v", i+1, s.Message)
		}
	}
	if n := rc.Answered("ThrottlingException"); n != 0 {
		t.Errorf("%d calls throttled: the second client did not wait for the tokens the first one spent", n)
	}
}
