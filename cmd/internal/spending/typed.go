package spending

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// readTyped asks the person to type word at ios.In. At a terminal, what was typed
// before the prompt is thrown away, and so is what arrives within ios.Dwell after it:
// a line counts only when it was typed whole after the dwell. A wrong word does not
// cancel: it is named and the word asked again, as in the TUI's dialogs; an empty line,
// the end of input or ctx ending is a no.
func readTyped(ctx context.Context, ios *cmdutil.IOStreams, prompt, word string) bool {
	in, stderr := ios.In, ios.ErrOut
	f, isFile := in.(*os.File)
	tty := isFile && ios.CanPrompt()
	if tty {
		discardTypeAhead(f)
	}
	// Wrapped as the facts are; the cursor waits after the last word.
	fmt.Fprintf(stderr, "%s ", Wrap(fmt.Sprintf("%s Type %s and press enter to go ahead; an empty line cancels:", prompt, word)))
	if tty {
		t := time.NewTimer(ios.Dwell)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			fmt.Fprintln(stderr)
			return false
		}
		// In canonical mode the queue's count covers whole lines only; the flush also drops
		// a line begun within the dwell, whose first keys the person saw echoed.
		early := pendingInput(f)
		discardTypeAhead(f)
		if early > 0 {
			fmt.Fprintf(stderr, "\n%s ", Wrap(fmt.Sprintf("Input typed before the confirmation was readable was discarded; type %s now:", word)))
		}
	}
	// A line is read only when asked for (next), so that nothing is read for a prompt that
	// has already been answered; on a cancel the reader stays blocked on stdin, and the
	// process is about to exit anyway.
	next, lines := make(chan struct{}), make(chan string, 1)
	defer close(next)
	go func() {
		r := bufio.NewReader(in)
		for range next {
			s, err := r.ReadString('\n')
			if err != nil && s == "" {
				close(lines)
				return
			}
			lines <- s
		}
	}()
	for {
		next <- struct{}{}
		select {
		case s, ok := <-lines:
			s = strings.TrimSpace(s)
			switch {
			case !ok || s == "":
				return false
			case s == word:
				return true
			}
			fmt.Fprintf(stderr, "%s ", Wrap(fmt.Sprintf("%q is not %s: type %s, or an empty line to cancel:", s, word, word)))
		case <-ctx.Done():
			fmt.Fprintln(stderr)
			return false
		}
	}
}
