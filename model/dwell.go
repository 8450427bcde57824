package model

import "time"

// ConfirmDwell is how long after a confirmation's facts are drawn (the TUI's dialog, the
// CLI's typed prompt) the first key counts. Keys before it are discarded: they were pressed
// before anyone could have read what they confirm. A burst (enter, buy, enter sent at once,
// or typed ahead from habit) lands within a few hundred milliseconds: a fast typist's five
// keys take 300–500 ms, and a held key repeats after 250–660 ms (Windows' default 500 ms,
// X11's 660 ms). Reading the fee, the dates and the account takes a person well over a
// second, so a wait shorter than that never delays one who reads; browsers hold a security
// prompt's button for 1 s for the same reason (Firefox's security.dialog_enable_delay).
// 800 ms is above every burst and key repeat and below any reading.
const ConfirmDwell = 800 * time.Millisecond
