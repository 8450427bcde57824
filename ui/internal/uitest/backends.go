package uitest

import (
	"context"
	"sync"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
)

// ReportBackend answers the report with In, over another backend for everything else,
// and counts the reads.
type ReportBackend struct {
	source.Backend
	In    report.Input
	mu    sync.Mutex
	reads int
}

func (b *ReportBackend) Report(_ context.Context, _ []string, from, to time.Time) (report.Input, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reads++
	return b.In, nil
}

// Reads is how many times the report was read.
func (b *ReportBackend) Reads() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.reads
}

// ReportInput is a block used half its hours and a plan whose use is unknown.
func ReportInput() report.Input {
	start := time.Date(2026, 10, 5, 11, 30, 0, 0, time.UTC)
	return report.Input{Reservations: []report.Reservation{
		{Account: "123456789012", Region: "us-east-1", Source: model.SourceCapacityBlock, ID: "cr-0123456789abcdef0",
			InstanceType: "p5.48xlarge", Count: 1, Start: start, End: start.Add(48 * time.Hour), ReservedHours: 48,
			Payments: []report.Payment{{At: start.Add(-time.Hour), Kind: report.Purchase, Amount: model.MustMoney("3100.25"), Known: true}},
			Use:      report.Use{Known: true, ReservedHours: 48, UsedHours: 24}},
		{Account: "123456789012", Region: "us-west-2", Source: model.SourceTrainingPlan, ID: "arn:aws:sagemaker:us-west-2:123456789012:training-plan/p",
			Name: "plan-nov", InstanceType: "ml.p5.48xlarge", Count: 1, Start: start.AddDate(0, 1, 0), End: start.AddDate(0, 1, 3), ReservedHours: 72,
			Payments: []report.Payment{{At: start.AddDate(0, 1, -1), Kind: report.Purchase, Amount: model.MustMoney("9000"), Known: true}},
			Use:      report.Use{Why: "SageMaker does not publish a training plan's use"}},
	}}
}

// Callless is a backend that answers what needs no call (a source's capabilities, the
// platforms), so that the dialogs open; a test that runs their calls uses the emulator.
type Callless struct{ source.Backend }

func (Callless) Caps(model.Source) source.Caps {
	return source.Caps{DryRun: true, Launch: true}
}

func (Callless) Platforms() []string { return nil }

// SourceCaps is Callless but for Training Plans, which have no dry run: for the tests of
// what a dialog says differently of each source.
type SourceCaps struct{ Callless }

func (SourceCaps) Caps(s model.Source) source.Caps {
	if s == model.SourceTrainingPlan {
		return source.Caps{NoDryRun: "no dry run"}
	}
	return Callless{}.Caps(s)
}
