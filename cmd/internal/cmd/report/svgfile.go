package report

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model/report"
)

// checkSVGPath refuses, before anything is read, an --svg file that could not be written:
// its directory missing, or the file there already without --force.
func checkSVGPath(path string, force bool) error {
	if strings.TrimSpace(path) == "" {
		return cmdutil.Usagef("--svg %q: give a file name such as report.svg", path)
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return cmdutil.Usagef("--svg %s: the directory %s does not exist", path, dir)
	}
	st, err := os.Lstat(path)
	switch {
	case err != nil:
		return nil
	case st.IsDir():
		return cmdutil.Usagef("--svg %s is a directory; give a file name such as %s", path, filepath.Join(path, "report.svg"))
	case !force:
		return cmdutil.Usagef("--svg %s exists; give another name, or --force to write over it", path)
	}
	return nil
}

// writeSVG writes the report's SVG to path whole or not at all: into a new file beside it,
// then moved into place. Without force an existing path is kept (a file made since the
// check included). It returns the path written, absolute.
func writeSVG(path string, r report.Report, force bool) (string, error) {
	var b bytes.Buffer
	if err := report.WriteSVG(&b, r); err != nil {
		return "", err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	tmp, err := os.CreateTemp(filepath.Dir(abs), "."+filepath.Base(abs)+".*.tmp")
	if err != nil {
		return "", errors.New(cmdutil.PathReason(err))
	}
	name := tmp.Name()
	defer os.Remove(name) // gone once linked or renamed; left over only by a failure
	_, err = tmp.Write(b.Bytes())
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(name, 0o644)
	}
	if err != nil {
		return "", errors.New(cmdutil.PathReason(err))
	}
	if force {
		if err := os.Rename(name, abs); err != nil {
			return "", errors.New(cmdutil.PathReason(err))
		}
		return abs, nil
	}
	// A hard link is made only where nothing is: the file cannot be written over between
	// the check and now. A file system without links gets the check and a rename.
	switch err := os.Link(name, abs); {
	case err == nil:
		return abs, nil
	case errors.Is(err, fs.ErrExist):
		return "", errors.New("the file exists now; give --force to write over it")
	}
	if _, err := os.Lstat(abs); err == nil {
		return "", errors.New("the file exists now; give --force to write over it")
	}
	if err := os.Rename(name, abs); err != nil {
		return "", errors.New(cmdutil.PathReason(err))
	}
	return abs, nil
}
