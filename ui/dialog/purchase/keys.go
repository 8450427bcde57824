package purchase

import (
	"charm.land/bubbles/v2/key"

	"github.com/gpublock/gpublock/ui/dialog/spend"
)

// Keys is the dialog's keys in its phase: the spend machine's, with the dialog's own
// fields between the word and esc. They feed the root's footer (ShortHelp) and the help.
func (d Model) Keys() spend.KeyMap {
	fields := []key.Binding{
		key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "platform · tags · confirmation")),
		key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "platform")),
	}
	if isPlan(d.o) {
		// A plan has no platform: SageMaker runs its instances.
		fields = []key.Binding{key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "tags · confirmation"))}
	}
	return d.spend.Keys(fields...)
}

// Footer is the root's footer line while the dialog is open.
func (d Model) Footer() string { return d.spend.Footer(d.Keys().Fields...) }
