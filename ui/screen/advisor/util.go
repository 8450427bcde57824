package advisor

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func keyIs(k tea.KeyPressMsg, b ...key.Binding) bool { return key.Matches(k, b...) }
