// Package newfile saves what a screen exports under a name of its own, so that a save never
// replaces a file: gpublock-WHAT-YYYYMMDD-HHMMSS (UTC) in a folder, with -2, -3… where
// that name is taken.
package newfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gpublock/gpublock/model"
)

// most is how many names are tried before a save gives up.
const most = 99

// Name is the name, without its extension, of what is saved at a time:
// gpublock-offerings-20261206-051203.
func Name(what string, at time.Time) string {
	return "gpublock-" + what + "-" + at.UTC().Format(model.LayoutFileStamp)
}

// Write creates the first free name of Name(what, at) in dir with ext, and writes it with
// write. A name is free when neither it nor its base with any of siblings (other extensions
// saved beside it) exists. A file it could not finish is removed, so that a half file is
// never read as the whole.
func Write(dir, what string, at time.Time, ext string, siblings []string, write func(io.Writer) error) (string, error) {
	base := filepath.Join(dir, Name(what, at))
next:
	for i := 1; i <= most; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		for _, s := range siblings {
			if _, err := os.Lstat(name + s); err == nil {
				continue next
			}
		}
		f, err := os.OpenFile(name+ext, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		err = write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name + ext)
			return "", err
		}
		return name + ext, nil
	}
	return "", fmt.Errorf("every name from %s%s to -%d is taken", base, ext, most)
}
