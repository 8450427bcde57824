// Command image builds the watcher's container image without a container engine or a
// network: the static gpublock binary (CGO_ENABLED=0) in one layer over nothing, with the
// entrypoint, command, user, environment and directories of cmd/gpublock/deploy/Dockerfile,
// written as a tarball that `docker load` (and podman, skopeo, crane) read, or as an OCI
// image layout. Run it from the repository's root:
//
//	go run ./scripts/image -o gpublock-image.tar
//	go run ./scripts/image -oci gpublock-oci -arch arm64
//
// It lives apart from cmd/gpublock so that the program never links go-containerregistry.
package main

import (
	"archive/tar"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"

	"github.com/gpublock/gpublock/cmd/gpublock/deploy"
)

// options are the command's flags.
type options struct {
	out, oci, tag      string
	binary, caBundle   string
	arch, version, dir string
}

func main() {
	var o options
	flag.StringVar(&o.out, "o", "", "write the image as a tarball `file` that docker load reads")
	flag.StringVar(&o.oci, "oci", "", "write the image as an OCI image layout in this `directory`")
	flag.StringVar(&o.tag, "tag", "gpublock:dev", "the image's `name` in the tarball")
	flag.StringVar(&o.binary, "binary", "", "a gpublock `binary` already built for linux with CGO_ENABLED=0 (default: build one)")
	flag.StringVar(&o.caBundle, "ca-bundle", "/etc/ssl/certs/ca-certificates.crt", "the TLS roots `file` the image carries for AWS's endpoints")
	flag.StringVar(&o.arch, "arch", runtime.GOARCH, "the image's `architecture` (amd64, arm64)")
	flag.StringVar(&o.version, "version", "dev", "the version built into the binary")
	flag.StringVar(&o.dir, "C", ".", "the repository's root `directory`")
	flag.Parse()
	if err := run(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options) error {
	if o.out == "" && o.oci == "" {
		return fmt.Errorf("say where to write the image: -o FILE (docker load) or -oci DIR")
	}
	if o.binary == "" {
		tmp, err := os.MkdirTemp("", "gpublock-image")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		o.binary = filepath.Join(tmp, "gpublock")
		if err := buildBinary(ctx, o.dir, o.binary, o.arch, o.version); err != nil {
			return err
		}
	}
	img, err := build(o.binary, o.caBundle, o.arch)
	if err != nil {
		return err
	}
	if o.out != "" {
		ref, err := name.NewTag(o.tag)
		if err != nil {
			return fmt.Errorf("-tag %s: %w", o.tag, err)
		}
		if err := tarball.WriteToFile(o.out, ref, img); err != nil {
			return err
		}
	}
	if o.oci != "" {
		p, err := layout.Write(o.oci, empty.Index)
		if err != nil {
			return err
		}
		if err := p.AppendImage(img); err != nil {
			return err
		}
	}
	return nil
}

// buildBinary builds gpublock for linux without cgo: a static binary, which is all the
// image holds.
func buildBinary(ctx context.Context, dir, out, arch, version string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags", "-s -w -X main.version="+version, "-o", out, "./cmd/gpublock")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+arch)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build ./cmd/gpublock: %w", err)
	}
	return nil
}

// build is the image the Dockerfile describes, over binary and the TLS roots in caBundle.
func build(binary, caBundle, arch string) (v1.Image, error) {
	df, err := deploy.ParseDockerfile(deploy.Dockerfile)
	if err != nil {
		return nil, err
	}
	layerTar, err := layerOf(df, binary, caBundle)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(layerTar)), nil })
	if err != nil {
		return nil, err
	}
	img, err := mutate.AppendLayers(empty.Image, layer)
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture = "linux", arch
	cf.Config.Entrypoint = df.Entrypoint
	cf.Config.Cmd = df.Cmd
	cf.Config.User = df.User
	cf.Config.Env = append([]string{"PATH=/"}, df.Env...)
	cf.Config.ExposedPorts = map[string]struct{}{}
	for _, p := range df.ExposedPorts {
		cf.Config.ExposedPorts[p] = struct{}{}
	}
	return mutate.ConfigFile(img, cf)
}

// epoch dates every file of the layer, so that one binary gives one image digest.
var epoch = time.Unix(0, 0).UTC()

// layerOf is the layer's tar: the Dockerfile's COPY lines of the final stage, each from what
// it stands for here: the binary to the entrypoint's path, the TLS roots to theirs, and the
// directories copied with an owner as empty directories of that owner.
func layerOf(df deploy.Image, binary, caBundle string) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dirs := map[string]bool{}
	parents := func(p string) error {
		var missing []string
		for d := path.Dir(p); d != "/" && !dirs[d]; d = path.Dir(d) {
			missing = append(missing, d)
		}
		slices.Reverse(missing)
		for _, d := range missing {
			dirs[d] = true
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: strings.TrimPrefix(d, "/") + "/", Mode: 0o755, ModTime: epoch}); err != nil {
				return err
			}
		}
		return nil
	}
	file := func(dest, src string, mode int64) error {
		data, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if err := parents(dest); err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: strings.TrimPrefix(dest, "/"), Mode: mode, Size: int64(len(data)), ModTime: epoch}); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	}
	for _, c := range df.Copies {
		switch {
		case c.Dest == df.Binary():
			if err := file(c.Dest, binary, 0o755); err != nil {
				return nil, fmt.Errorf("the binary: %w", err)
			}
		case path.Base(c.Dest) == "ca-certificates.crt":
			if err := file(c.Dest, caBundle, 0o644); err != nil {
				return nil, fmt.Errorf("the TLS roots (-ca-bundle): %w", err)
			}
		case c.Chown != "":
			uid, gid, err := owner(c.Chown)
			if err != nil {
				return nil, err
			}
			if err := parents(c.Dest); err != nil {
				return nil, err
			}
			dirs[c.Dest] = true
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: strings.TrimPrefix(c.Dest, "/") + "/", Mode: 0o700, Uid: uid, Gid: gid, ModTime: epoch}); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("the Dockerfile copies %s to %s, which this builder does not know how to make", c.Src, c.Dest)
		}
	}
	// A temporary directory for whatever the SDK or Go's runtime wants one for.
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: "tmp/", Mode: 0o1777, ModTime: epoch}); err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// owner reads --chown=UID:GID (numbers: the image has no /etc/passwd).
func owner(s string) (uid, gid int, err error) {
	u, g, ok := strings.Cut(s, ":")
	if !ok {
		g = u
	}
	if uid, err = strconv.Atoi(u); err == nil {
		gid, err = strconv.Atoi(g)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("--chown=%s: want numeric UID:GID", s)
	}
	return uid, gid, nil
}
