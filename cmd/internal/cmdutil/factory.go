package cmdutil

import (
	"context"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/cmd/internal/config"
	"github.com/gpublock/gpublock/pricing"
)

// Factory carries what the commands share, made once by cmd/gpublock: the streams, the
// AWS flags that open the sources and the spend service, the price catalog and the
// configuration file.
type Factory struct {
	IOStreams *IOStreams
	// AWS are the root's persistent flags, declared once for every command.
	AWS *AWSFlags
	// Backend opens the sources and the spend service that flags (a command's copy of
	// AWS) name: AWS, an endpoint, or the built-in simulator.
	Backend BackendFunc
	// Version is the program's.
	Version string
	// Now is the local clock, for what is dated on this machine (the price catalog's age).
	Now func() time.Time
	// Wait waits d and reports false when ctx ends first: the pause between the rounds of a
	// watch.
	Wait func(ctx context.Context, d time.Duration) bool
	// Config reads the configuration file.
	Config config.Loader
	// Catalog is the price catalog (LoadCatalog).
	Catalog func() (*pricing.Catalog, error)
	// Notify is how long the warnings' notifications may take.
	Notify NotifyTimings
}

// NotifyTimings bound the delivery of the on-call warnings.
type NotifyTimings struct {
	// Backoff is the wait before a failed notification is tried again (doubled after).
	Backoff time.Duration
	// OneShotTimeout and OneShotGrace are what a one-shot `blocks` gives an attempt and all
	// its deliveries at its end: cron and a person at the prompt do not wait on a webhook
	// that hangs.
	OneShotTimeout, OneShotGrace time.Duration
}

// New is the program's factory over the streams given.
func New(version string, streams *IOStreams) *Factory {
	return &Factory{
		IOStreams: streams,
		AWS:       &AWSFlags{Version: version},
		Version:   version,
		Now:       time.Now,
		Wait:      wait,
		Config:    LoadUserConfig,
		Catalog:   LoadCatalog,
		Backend: func(ctx context.Context, flags *AWSFlags) (*awsapi.Client, BackendInfo, error) {
			return OpenBackend(ctx, flags, streams.ErrOut)
		},
		Notify: NotifyTimings{Backoff: 2 * time.Second, OneShotTimeout: 5 * time.Second, OneShotGrace: 10 * time.Second},
	}
}

// BackendFunc opens the client of the sources and the spend service.
type BackendFunc func(ctx context.Context, flags *AWSFlags) (*awsapi.Client, BackendInfo, error)

func wait(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
