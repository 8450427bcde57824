package extend

import (
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/screen"
)

// The dialog looks again while the payment is pending, and stops, asking for the blocks
// again, once it has settled; a later look answers no one.
func TestExtendDialogStopsWatching(t *testing.T) {
	blk := testBlock()
	d := New(testEnv(), nil, blk)
	d.step = stepBuying
	d.off = model.ExtensionOffering{ID: "cbe-0123456789abcdef0", Start: blk.End, End: blk.End.Add(24 * time.Hour)}
	pending := model.Extension{OfferingID: d.off.ID, Status: model.ExtensionPaymentPending}
	dd, cmd, _ := d.Update(extendedMsg{dialog: d.id, res: source.ExtendResult{RequestID: "gpb-1", Extension: pending}})
	if cmd == nil || dd.(Model).status != model.ExtensionPaymentPending {
		t.Fatal("a pending extension is not watched")
	}
	listed := blk
	listed.Extensions = []model.Extension{{OfferingID: "cbe-other", Status: model.ExtensionPaymentFailed}, pending}
	if dd, cmd, _ = dd.Update(dialog.BlockPolledMsg{Dialog: d.id, Block: listed, Found: true}); cmd == nil || extensionSettled(dd.(Model).status) {
		t.Fatal("still pending (another extension failed), the dialog stops looking")
	}
	listed.Extensions[1].Status = model.ExtensionPaymentFailed
	dd, cmd, _ = dd.Update(dialog.BlockPolledMsg{Dialog: d.id, Block: listed, Found: true})
	if cmd == nil || dd.(Model).status != model.ExtensionPaymentFailed {
		t.Fatalf("failed: status %s, command %v", dd.(Model).status, cmd != nil)
	}
	if _, ok := cmd().(screen.RefreshBlocksMsg); !ok {
		t.Errorf("settled, the dialog sent %#v, want the blocks listed again", cmd())
	}
	if _, cmd, _ = dd.Update(dialog.BlockPolledMsg{Dialog: d.id, Block: listed, Found: true}); cmd != nil {
		t.Error("settled, the dialog still looks")
	}
}
