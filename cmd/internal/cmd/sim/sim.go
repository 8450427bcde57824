package sim

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// faultFlags collects repeated --fault NAME=VALUE flags into Faults.
type faultFlags struct{ f *ec2sim.Faults }

func (ff faultFlags) String() string { return "" }
func (ff faultFlags) Type() string   { return "NAME=VALUE" }
func (ff faultFlags) Set(v string) error {
	return ec2sim.ParseFault(v, ff.f)
}

// Options are the flags of sim.
type Options struct {
	IO       *cmdutil.IOStreams
	Emulator ec2sim.Options

	Addr, Clock, Speed, RateLimits, PaymentDelay string
	// PriceDrop asks for the demo's market (simcore.DemoPriceDrop).
	PriceDrop bool
}

// NewCmdSim is `gpublock sim`; runF, when not nil, is given the options instead of running
// them.
func NewCmdSim(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	a := &Options{IO: f.IOStreams}
	cmd := &cobra.Command{
		Use:   "sim",
		Short: "serve the emulator of the AWS APIs gpublock uses (EC2 Capacity Blocks, SageMaker Training Plans, STS, Price List, CloudWatch's Capacity Reservation metrics)",
		Long: "Serves an emulator of the EC2 Capacity Blocks API (with STS GetCallerIdentity, the Price List API's GetProducts and SageMaker Training Plans) until interrupted.\n\n" +
			"Exit status: 0 stopped by an interrupt, 1 could not serve (address in use, unreadable state file), 2 bad usage.",
		Example: "  gpublock sim\n" +
			"  gpublock sim --addr 127.0.0.1:4566 --state sim.json --speed 60\n" +
			"  gpublock sim --clock 2026-12-03T11:30:00Z --payment-delay 5m --fault throttle=0.2 --fault down=us-west-2",
		Args:              cmdutil.NoArgs,
		Annotations:       map[string]string{cmdutil.AnnotationNoAWS: "true"},
		PersistentPreRunE: cmdutil.RefuseAWSFlags,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(a)
			}
			return cmdutil.CodeError(simRun(cmd.Context(), a))
		},
	}
	fs := cmd.Flags()
	opts := &a.Emulator
	fs.StringVar(&a.Addr, "addr", "127.0.0.1:4566", "address to listen on (host:port)")
	fs.Int64Var(&opts.Seed, "seed", 1, "seed of the market: the same seed and clock give the same offerings")
	fs.StringVar(&a.Clock, "clock", "", "start the emulator's clock at this RFC 3339 time (default: now)")
	fs.StringVar(&a.Speed, "speed", "1", "clock rate against real time, a positive number (e.g. 60: one minute per second)")
	fs.StringVar(&opts.StateFile, "state", "", "keep the emulator's state in this JSON file, so purchases survive a restart")
	fs.StringVar(&opts.Account, "account", ec2sim.DemoAccount, "the 12-digit AWS account the emulator stands for (STS GetCallerIdentity, every ownerId and ARN): two emulators with two accounts are two accounts")
	fs.StringVar(&opts.DefaultRegion, "region", "us-east-1", "the region the printed setup signs for (AWS_REGION); every request must be signed, and is served in the region it is signed for")
	fs.Var(faultFlags{&opts.Faults}, "fault", "inject a fault, repeatable: "+simcore.FaultHelp)
	fs.StringVar(&a.RateLimits, "rate-limits", "aws", "the request token buckets of EC2, and of SageMaker (a guess: AWS publishes none): aws (as documented: DescribeCapacityBlockOfferings 10 at once, then 0.15 per second), off (both), or a number N (AWS's refill rates × N, for demos)")
	fs.StringVar(&a.PaymentDelay, "payment-delay", "1m-5m", "how long purchases stay payment-pending: "+ec2sim.PaymentDelayHelp)
	fs.BoolVar(&opts.CapAcrossTypes, "cap-across-types", false, "answer a search of several types (InstanceTypePreferences) with at most 6 offerings in all, rather than up to 6 per type: AWS documents neither reading")
	fs.BoolVar(&a.PriceDrop, "price-drop", false, "the demo's market: "+priceDropSummary(&simcore.DemoPriceDrop)+" (--demo's starts when an order is open), so that an order a little under the best price fills while people watch; off, the market moves only with the clock")
	return cmd
}

// simUsage says what is wrong with one of sim's flags, and where its help is: bad usage.
func simUsage(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "gpublock sim: "+format+"\n", args...)
	fmt.Fprintln(stderr, "Run 'gpublock sim --help' for its flags.")
	return 2
}

// simRun serves the emulator until ctx is done (Ctrl-C), once cobra has parsed the flags.
func simRun(ctx context.Context, a *Options) int {
	stdout, stderr := a.IO.Out, a.IO.ErrOut
	opts, addr, clock, speed, limits, payment := a.Emulator, a.Addr, a.Clock, a.Speed, a.RateLimits, a.PaymentDelay
	if clock != "" {
		t, err := time.Parse(time.RFC3339, clock)
		if err != nil {
			return simUsage(stderr, "--clock %q: want an RFC 3339 time such as 2026-12-03T11:30:00Z", clock)
		}
		opts.Start = t
	}
	sp, err := strconv.ParseFloat(speed, 64)
	if err != nil || sp <= 0 || sp > 1e6 || sp != sp {
		return simUsage(stderr, "--speed %q: want a positive number up to 1000000 (1 = real time, 60 = a minute per second)", speed)
	}
	opts.Speed = sp
	if opts.PaymentDelay, err = ec2sim.ParsePaymentDelay(payment); err != nil {
		return simUsage(stderr, "--payment-delay: %v", err)
	}
	if opts.RateLimits, err = cmdutil.ParseRateLimits(limits); err != nil {
		return simUsage(stderr, "%v", err)
	}
	if a.PriceDrop {
		drop := simcore.DemoPriceDrop
		drop.WhenAsked = false // from the emulator's start
		opts.PriceDrop = &drop
	}
	if !simcore.ValidAccount(opts.Account) {
		return simUsage(stderr, "--account %q: want an AWS account id of 12 digits, such as 123456789012", opts.Account)
	}
	if !slices.Contains(ec2sim.Regions(), opts.DefaultRegion) {
		return simUsage(stderr, "--region %q: the emulator serves only the regions where Capacity Blocks are sold: %s", opts.DefaultRegion, strings.Join(ec2sim.Regions(), ", "))
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return simUsage(stderr, "--addr %q: want host:port such as 127.0.0.1:4566 (port 0 picks a free one)", addr)
	}
	if opts.StateFile != "" {
		if err := simcore.CheckStatePath(opts.StateFile); err != nil {
			return simUsage(stderr, "--state %q: %v", opts.StateFile, err)
		}
		if err := checkStateWritable(opts.StateFile); err != nil {
			return simUsage(stderr, "--state %q: %v; purchases could not survive a restart", opts.StateFile, err)
		}
	}
	s, err := ec2sim.New(cmdutil.SimOptions(opts))
	if err != nil {
		fmt.Fprintf(stderr, "gpublock sim: %v\n", err)
		return 1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	url, err := ec2sim.Listen(ctx, addr, s)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock sim: listening on %s: %v\n", addr, err)
		return 1
	}
	url, exposed := reachableURL(url)
	if exposed {
		fmt.Fprintf(stderr, "gpublock sim: WARNING: --addr %s is not a loopback address: anyone who can reach this machine on it can buy "+
			"(simulated) blocks and move the emulator's clock (POST /_sim/clock). Use --addr 127.0.0.1:PORT unless that is meant.\n", addr)
	}
	printSimHelp(stdout, url, opts, s.Now())
	<-ctx.Done()
	fmt.Fprintln(stdout, "gpublock sim: stopped")
	return 0
}

// reachableURL is the URL to print for the address the emulator listens on: an unspecified
// address (0.0.0.0, [::]) is not one a client can dial, so it becomes 127.0.0.1 on the same
// port. exposed is true when the emulator listens beyond this machine's loopback.
func reachableURL(u string) (string, bool) {
	hostport := strings.TrimPrefix(u, "http://")
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return u, false
	}
	ip := net.ParseIP(host)
	switch {
	case ip != nil && ip.IsUnspecified():
		return "http://" + net.JoinHostPort("127.0.0.1", port), true
	case ip != nil && ip.IsLoopback(), host == "localhost":
		return u, false
	}
	return u, true
}

// faultSummary says which faults are on, in the --fault syntax, so that whoever runs a
// demo or a test against the emulator sees why purchases fail or calls are slow.
func faultSummary(f ec2sim.Faults) string {
	var on []string
	p := func(name string, v float64) {
		if v > 0 {
			on = append(on, name+"="+strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	if f.Latency > 0 {
		on = append(on, "latency="+f.Latency.String())
	}
	if f.Jitter > 0 {
		on = append(on, "jitter="+f.Jitter.String())
	}
	p("throttle", f.Throttle)
	p("error", f.Error)
	if len(f.Down) > 0 {
		on = append(on, "down="+strings.Join(f.Down, ","))
	}
	p("sold", f.Sold)
	p("lost-reply", f.LostReply)
	if len(f.Deny) > 0 {
		on = append(on, "deny="+strings.Join(f.Deny, ","))
	}
	if f.PayFail > 0 {
		on = append(on, "payfail="+strconv.Itoa(f.PayFail))
	}
	if len(f.Quota) > 0 {
		on = append(on, "quota="+strings.Join(f.Quota, ","))
	}
	if len(on) == 0 {
		return "none"
	}
	return strings.Join(on, " ")
}

// checkStateWritable makes sure the state file can be written where it is kept: the
// emulator saves after every purchase and answers InternalError when it cannot, so a
// wrong path would otherwise refuse every purchase of a demo.
func checkStateWritable(path string) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".gpublock-sim-check-*")
	if err != nil {
		return fmt.Errorf("cannot write in %s: %w", filepath.Dir(path), err)
	}
	f.Close()
	return os.Remove(f.Name())
}

func printSimHelp(w io.Writer, url string, opts ec2sim.Options, now time.Time) {
	fmt.Fprintf(w, "gpublock's AWS emulator (EC2 Capacity Blocks, SageMaker Training Plans, STS, Price List, CloudWatch's Capacity Reservation metrics) serving on %s (seed %d, clock %s, speed %gx)\n",
		url, opts.Seed, now.Format(time.RFC3339), opts.Speed)
	if opts.StateFile != "" {
		fmt.Fprintf(w, "State kept in %s\n", opts.StateFile)
	}
	fmt.Fprintf(w, "Payment: %s after each purchase (AWS: 5 minutes to 12 hours)\n", opts.PaymentDelay)
	fmt.Fprintf(w, "Faults: %s\n", faultSummary(opts.Faults))
	fmt.Fprintf(w, "Rate limits: %s\n", rateLimitSummary(opts.RateLimits))
	if opts.PriceDrop != nil {
		fmt.Fprintf(w, "Price drop: %s\n", priceDropSummary(opts.PriceDrop))
	}
	fmt.Fprintf(w, `
Point the AWS SDKs and CLI at it:
  export AWS_ENDPOINT_URL_EC2=%[1]s
  export AWS_ENDPOINT_URL_SAGEMAKER=%[1]s
  export AWS_ENDPOINT_URL_STS=%[1]s
  export AWS_ENDPOINT_URL_CLOUDWATCH=%[1]s
  export AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=dummy
  export AWS_REGION=%[2]s AWS_DEFAULT_REGION=%[2]s
  aws ec2 describe-capacity-block-offerings --instance-type p5.48xlarge --instance-count 2 --capacity-duration-hours 48
  aws sagemaker search-training-plan-offerings --instance-type ml.p5.48xlarge --instance-count 2 --duration-hours 48 --target-resources training-job
  aws cloudwatch list-metrics --namespace AWS/EC2CapacityReservations

On-demand prices (the Price List API) are served too:
  gpublock prices --refresh --endpoint-url %[1]s

The region of a request is the one it is signed for; account %[3]s.
Clock control:
  curl %[1]s/_sim/clock
  curl -d advance=26h %[1]s/_sim/clock
  curl -d set=2026-12-03T11:30:00Z %[1]s/_sim/clock
Press Ctrl-C to stop.
`, url, opts.DefaultRegion, opts.Account)
}

// rateLimitSummary says which request buckets are in force, with the one a search spends.
func rateLimitSummary(rl *ec2sim.RateLimits) string {
	if rl == nil {
		return "off (--rate-limits aws models EC2's request token buckets)"
	}
	l := rl.EC2.For("DescribeCapacityBlockOfferings", false)
	sm := rl.SageMakerTable().For("SearchTrainingPlanOfferings", false)
	return fmt.Sprintf("EC2's request token buckets per region and action; DescribeCapacityBlockOfferings %s at once, then %s per second; SageMaker's guessed likewise, SearchTrainingPlanOfferings %s, then %s per second (--rate-limits off turns both off)",
		strconv.FormatFloat(l.Burst, 'f', -1, 64), strconv.FormatFloat(l.Rate, 'f', -1, 64),
		strconv.FormatFloat(sm.Burst, 'f', -1, 64), strconv.FormatFloat(sm.Rate, 'f', -1, 64))
}

// priceDropSummary says a price drop in a few words.
func priceDropSummary(p *ec2sim.PriceDrop) string {
	short := func(d time.Duration) string {
		if d%time.Minute == 0 {
			return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
		}
		return d.String()
	}
	return fmt.Sprintf("every price %s%% of the published rate cheaper every %s of the emulator's clock, for %s from its start",
		strconv.FormatFloat(float64(p.Step)/100, 'f', -1, 64), short(p.Every), short(time.Duration(p.Steps)*p.Every))
}
