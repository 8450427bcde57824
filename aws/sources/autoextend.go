package sources

import (
	"context"
	"time"

	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// AutoExtendDue is aws/autoextend's: the asks no gpublock on this machine has decided.
func (b backend) AutoExtendDue(ctx context.Context, p model.AutoExtendPolicy, blocks []model.Block, now time.Time) ([]source.AutoExtendAsk, error) {
	return b.auto.Due(p, blocks, now)
}

// DecideAutoExtend records a step of an ask as blocks --watch records its own, through
// the same recorder, at the backend's time.
func (b backend) DecideAutoExtend(ctx context.Context, ask source.AutoExtendAsk, o source.AutoExtendOutcome) error {
	return b.auto.Decide(ask, o, b.c.Now(ctx))
}

// Option is a setting of New.
type Option func(*options)

type options struct{ notifier *notify.Notifier }

// WithNotifier sends the auto-extension's declines and outcomes through n, as the
// warnings of the front end that opens the backend are sent.
func WithNotifier(n *notify.Notifier) Option { return func(o *options) { o.notifier = n } }
