package ui

import "strings"

// waitLengths waits until the extend dialog lists every length AWS answered for, so that
// the keys pressed next move through the whole list.
func waitLengths(s *screen) string {
	s.t.Helper()
	return s.waitFor("every length answered", func(text string) bool {
		return strings.Contains(text, "choose the length") && !strings.Contains(text, "Still asking")
	})
}
