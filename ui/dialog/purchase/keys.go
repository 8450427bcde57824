package purchase

import (
	"charm.land/bubbles/v2/key"

	"github.com/gpublock/gpublock/ui/dialog/spend"
)

// KeyMap is the dialog's keys in its phase: the spend machine's, with the dialog's own
// fields between the word and esc. They feed the root's footer (ShortHelp) and the help,
// and Update matches them.
type KeyMap struct {
	spend.KeyMap
	Next, Prev                 key.Binding // between the fields
	PlatformNext, PlatformPrev key.Binding // on the platform field
}

// Keys is the dialog's keys in its phase. A source without a platform to choose (a training
// plan: SageMaker runs its instances) has no platform keys.
func (d Model) Keys() KeyMap {
	k := KeyMap{
		Next:         key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "platform · tags · confirmation")),
		Prev:         key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "back")),
		PlatformNext: key.NewBinding(key.WithKeys("right", "l", "down", "j", "space"), key.WithHelp("→", "next platform")),
		PlatformPrev: key.NewBinding(key.WithKeys("left", "h", "up", "k"), key.WithHelp("←", "previous platform")),
	}
	fields := []key.Binding{k.Next, k.Prev, k.PlatformNext, k.PlatformPrev}
	if !d.hasPlatform() {
		fields[0].SetHelp("tab", "tags · confirmation")
		fields = fields[:2]
	}
	k.KeyMap = d.spend.Keys(fields...)
	k.Next, k.Prev = k.Fields[0], k.Fields[1]
	if d.hasPlatform() {
		k.PlatformNext, k.PlatformPrev = k.Fields[2], k.Fields[3]
	} else {
		k.PlatformNext.SetEnabled(false)
		k.PlatformPrev.SetEnabled(false)
	}
	return k
}

// Footer is the root's footer line while the dialog is open.
func (d Model) Footer() string { return d.spend.Footer(d.Keys().Fields...) }
