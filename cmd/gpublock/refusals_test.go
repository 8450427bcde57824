package main

// The refusals of a purchase: the same words in the command line and the TUI, and bad money
// or tags refused as usage before any call.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	purchasecmd "github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/purchase"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/theme"
)

// The command line and the TUI refuse with identical words: every case runs through the
// command line's run function (runCLI) and through the TUI's path (aws/sources over a
// client the same flags configure, and the purchase dialog that shows its answer), and the
// one sentence must be in both.
func TestCLIAndTUIRefuseInTheSameWords(t *testing.T) {
	type refusal struct {
		cli      string // the command's stderr
		sentence string // the TUI backend's refusal (or the dialog's, when the backend is never asked)
		dialog   string // what the purchase dialog shows; "" when the TUI refuses before it opens
	}
	cases := map[string]func(t *testing.T) refusal{
		"read-only": func(t *testing.T) refusal {
			cs, off, f, o := offeredBlock(t)
			_, _, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes", "--read-only")...)
			// The TUI never opens a dialog in read-only mode; its backend refuses alike.
			f.ReadOnly = true
			return refusal{cli: errs, sentence: prepareRefusal(t, f, o)}
		},
		"over the cap": func(t *testing.T) refusal {
			cs, off, f, o := offeredBlock(t)
			f.MaxSpend = "10"
			_, _, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes", "--max-spend", "10")...)
			cap := model.MustMoney("10")
			return refusal{cli: errs, sentence: prepareRefusal(t, f, o),
				dialog: dialogText(t, f, o, dialog.Env{MaxSpend: &cap, MaxSpendRule: f.MaxSpendRule()})}
		},
		"bad tag": func(t *testing.T) refusal {
			cs, off, f, o := offeredBlock(t)
			_, _, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes", "--tag", "aws:team=ml")...)
			text := dialogText(t, f, o, dialog.Env{Tags: map[string]string{"aws:team": "ml"}})
			// The tags field is parsed as the flag is, by model.AddTag.
			return refusal{cli: errs, sentence: model.AddTag(map[string]string{}, "aws:team=ml").Error(), dialog: text}
		},
		"earlier purchase already bought": func(t *testing.T) refusal {
			cs, off, f, o := offeredBlock(t)
			args := cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes")
			if code, _, errs := cli.Run(args...); code != 0 {
				t.Fatalf("purchase: exit %d\n%s", code, errs)
			}
			dropJournalOutcomes(t)
			code, _, errs := cli.Run(args...)
			if code != 0 {
				t.Errorf("re-run of an interrupted purchase: exit %d, want 0", code)
			}
			return refusal{cli: errs, sentence: prepareRefusal(t, f, o), dialog: dialogText(t, f, o, dialog.Env{})}
		},
		"not allowed by the dry run": func(t *testing.T) refusal {
			cs, off, f, o := offeredBlock(t)
			cs.Emulator.SetFaults(ec2sim.Faults{Deny: []string{"PurchaseCapacityBlock"}})
			_, _, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes")...)
			return refusal{cli: errs, sentence: prepareRefusal(t, f, o), dialog: dialogText(t, f, o, dialog.Env{})}
		},
		"no dry run for a plan": func(t *testing.T) refusal {
			cs := cmdtest.StartPlanSim(t)
			off := pickPlan(t, cs.URL, false)
			f := tuiFlags(cs.URL, off.Region)
			o := lookOffering(t, f, model.SourceTrainingPlan, off.TrainingPlanOfferingId)
			_, _, errs := cli.Run(planPurchaseArgs(cs.URL, off.TrainingPlanOfferingId, off.Region, "--dry-run")...)
			b := tuiBackend(t, f)
			p, err := b.Prepare(context.Background(), source.Intent{Kind: source.SpendPurchase, Offering: o})
			if err != nil || p.NoDryRun == "" {
				t.Fatalf("a plan prepared: %q, %v", p.NoDryRun, err)
			}
			return refusal{cli: errs, sentence: p.NoDryRun, dialog: dialogText(t, f, o, dialog.Env{})}
		},
	}
	for name, run := range cases {
		t.Run(name, func(t *testing.T) {
			r := run(t)
			sentence := flat(r.sentence)
			if len(sentence) < 20 {
				t.Fatalf("no refusal to compare: %q", r.sentence)
			}
			if !strings.Contains(flat(r.cli), sentence) {
				t.Errorf("the command line does not say the TUI's sentence\n  TUI: %s\n  CLI: %s", sentence, flat(r.cli))
			}
			if r.dialog != "" && !strings.Contains(r.dialog, sentence) {
				t.Errorf("the purchase dialog does not say it\n  sentence: %s\n  dialog:   %s", sentence, r.dialog)
			}
		})
	}
}

// tuiFlags are the flags of the TUI's client of the emulator at url, in region.
func tuiFlags(url, region string) cmdutil.AWSFlags {
	return cmdutil.AWSFlags{Overall: 256, EndpointURL: url, Region: region}
}

// offeredBlock starts an emulator and picks a Capacity Block offering of it, as the command
// line lists it (off) and as the TUI's client over flags f finds it (o).
func offeredBlock(t *testing.T) (cs *cmdtest.Sim, off printers.OfferingJSON, f cmdutil.AWSFlags, o model.Offering) {
	t.Helper()
	cs = cmdtest.StartSim(t)
	off = cli.PickOffering(t, cs.URL)
	f = tuiFlags(cs.URL, "us-east-1")
	return cs, off, f, lookOffering(t, f, model.SourceCapacityBlock, off.CapacityBlockOfferingId)
}

// flat is text as read: without styles, its whitespace (and line wraps) as one space.
func flat(s string) string { return strings.Join(strings.Fields(ansi.Strip(s)), " ") }

// tuiBackend is the TUI's backend over a client the flags f configure, as `gpublock tui` makes it.
func tuiBackend(t *testing.T, f cmdutil.AWSFlags) source.Backend {
	t.Helper()
	c, _, err := cmdutil.OpenBackend(context.Background(), &f, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return sources.New(c, cmdutil.SourcesOver(c))
}

// lookOffering finds the offering id of source src in f's region as the command line does.
func lookOffering(t *testing.T, f cmdutil.AWSFlags, src model.Source, id string) model.Offering {
	t.Helper()
	ctx := context.Background()
	c, _, err := cmdutil.OpenBackend(ctx, &f, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	s, err := cmdutil.OpenSource(c, src)
	if err != nil {
		t.Fatal(err)
	}
	a := offerings.Options{Types: "p5.48xlarge", Count: 2, Duration: "2d", From: "2026-12-01T08:00:00Z", To: "2026-12-15", Sources: cmdutil.SourceFlags{Source: src.Name()}}
	if src == model.SourceTrainingPlan {
		a.Duration, a.To = "2d-5d", "2027-01-20"
	}
	q, err := a.SourcedQuery(c.Now(ctx))
	if err != nil {
		t.Fatal(err)
	}
	q.Regions = []string{f.Region}
	o, err := purchasecmd.FindSourceOffering(ctx, c, s, q, id, func(_ *awsapi.Client, id string, n int, r string) error {
		return fmt.Errorf("%s not among %d in %s", id, n, r)
	})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// prepareRefusal is the TUI backend's refusal of buying o, in its words.
func prepareRefusal(t *testing.T, f cmdutil.AWSFlags, o model.Offering) string {
	t.Helper()
	_, err := tuiBackend(t, f).Prepare(context.Background(), source.Intent{Kind: source.SpendPurchase, Offering: o, Platform: capacityblocks.DefaultPlatform})
	var ae *source.ActionError
	if !errors.As(err, &ae) {
		t.Fatalf("the TUI backend did not refuse: %v", err)
	}
	return ae.Error()
}

// dialogText is the purchase dialog on o once the backend (over flags f) answered its
// Prepare; env holds the dialog's own settings (cap, tags).
func dialogText(t *testing.T, f cmdutil.AWSFlags, o model.Offering, env dialog.Env) string {
	t.Helper()
	now := cmdtest.SimStart
	env.Context = &program.Context{Ctx: context.Background(), Backend: tuiBackend(t, f), Theme: theme.New(false), Simulated: true,
		Clock: program.NewClock(func() time.Time { return now }), Location: time.UTC,
		Identity: program.Identity{Identity: source.Identity{Account: "123456789012"}, Known: true}}
	env.Poll = time.Second
	d, cmd := purchase.New(env, o)
	if cmd != nil {
		dd, _, _ := d.Update(cmd())
		d = dd.(purchase.Model)
	}
	// The dialog as drawn, its frame's sides taken off each line so that a sentence the
	// dialog wraps reads on as one.
	var lines []string
	for _, l := range strings.Split(ansi.Strip(d.View(102, 200)), "\n") {
		lines = append(lines, strings.Trim(l, " "+frameSides))
	}
	return flat(strings.Join(lines, " "))
}

// frameSides are the glyphs a dialog's frame draws at either end of a line.
const frameSides = "│┃║┆╎┊"

// Every bad money input is bad usage naming the flag, before any call; nothing is bought.
func TestPurchaseBadMoneyRefusedBeforeAnyCall(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	off := cli.PickOffering(t, cs.URL)
	for _, v := range []string{"100,00", "1,0000", "25 000", " 25000", "1e4", "0", "-5", "$", "25000USD", "1.000,50", "0x10", "7551.369"} {
		before := cs.Calls.Load()
		code, out, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes", "--max-spend", v)...)
		if code != 2 || out != "" || !strings.Contains(errs, "--max-spend") {
			t.Errorf("--max-spend %q: exit %d, stdout %q\n%s", v, code, out, errs)
		}
		if n := cs.Calls.Load() - before; n != 0 {
			t.Errorf("--max-spend %q: %d calls", v, n)
		}
	}
	long := strings.Repeat("k", 129)
	for _, tag := range []string{long + "=v", "k=" + strings.Repeat("v", 257), "AWS:x=1"} {
		code, _, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes", "--tag", tag)...)
		if code != 2 || !strings.Contains(errs, "-tag") {
			t.Errorf("--tag %.20q…: exit %d\n%s", tag, code, errs)
		}
	}
	many := []string{}
	for i := 0; i < 51; i++ {
		many = append(many, "--tag", "k"+strings.Repeat("x", i)+"=v")
	}
	if code, _, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, append(many, "--yes")...)...); code != 2 || !strings.Contains(errs, "tags") {
		t.Errorf("51 tags: exit %d\n%s", code, errs)
	}
	// A configuration file with a duplicate read_only is refused, naming the file, not a flag.
	cfg := writeUserConfig(t, "{\"read_only\": true,\n\"read_only\": false}")
	code, _, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes")...)
	if code != 2 || !strings.Contains(errs, cfg) || !strings.Contains(errs, "line 2") || strings.Contains(errs, "--read-only") {
		t.Errorf("duplicate read_only: exit %d\n%s", code, errs)
	}
	if err := os.Remove(cfg); err != nil { // blocks refuses the broken file too
		t.Fatal(err)
	}
	cli.AssertNothingBought(t, cs.URL)
}
