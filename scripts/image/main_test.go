//go:build linux

package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"debug/elf"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// The image is built from the repository with one go build and no network: it holds the
// binary at the entrypoint's path, runs gpublock watch as user 65532, and the binary taken
// out of its layer watches `gpublock sim` (the same binary's emulator) for a round, logs
// JSON lines, keeps its health, and stops on SIGTERM with exit 0.
func TestImageRunsTheWatcherAgainstTheEmulator(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gpublock and an image (-short skips)")
	}
	ctx := context.Background()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "build", "gpublock")
	if err := buildBinary(ctx, filepath.Join("..", ".."), bin, runtime.GOARCH, "image-test"); err != nil {
		t.Fatal(err)
	}
	roots := filepath.Join(tmp, "roots.pem")
	if err := os.WriteFile(roots, []byte("-----BEGIN CERTIFICATE-----\ntest\n-----END CERTIFICATE-----\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tarPath, ociDir := filepath.Join(tmp, "gpublock.tar"), filepath.Join(tmp, "oci")
	if err := run(ctx, options{out: tarPath, oci: ociDir, tag: "gpublock:test", binary: bin, caBundle: roots, arch: runtime.GOARCH}); err != nil {
		t.Fatal(err)
	}

	// What docker load reads.
	img, err := tarball.ImageFromPath(tarPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cf.Config.Entrypoint, []string{"/gpublock", "watch"}) || cf.Config.User != "65532:65532" ||
		cf.OS != "linux" || cf.Architecture != runtime.GOARCH || !slices.Contains(cf.Config.Env, "XDG_STATE_HOME=/var/lib") {
		t.Errorf("image config: %+v (os %s, arch %s)", cf.Config, cf.OS, cf.Architecture)
	}
	if _, ok := cf.Config.ExposedPorts["8080/tcp"]; !ok {
		t.Errorf("exposed ports %v", cf.Config.ExposedPorts)
	}
	// The same image in the OCI layout.
	idx, err := layout.ImageIndexFromPath(ociDir)
	if err != nil {
		t.Fatal(err)
	}
	man, err := idx.IndexManifest()
	if err != nil || len(man.Manifests) != 1 {
		t.Fatalf("OCI layout index: %+v %v", man, err)
	}
	want, _ := img.Digest()
	if man.Manifests[0].Digest != want {
		t.Errorf("the OCI layout holds %s, the tarball %s", man.Manifests[0].Digest, want)
	}

	// The files of the image, as a container sees them.
	files := map[string]*tar.Header{}
	var fromImage []byte
	tr := tar.NewReader(mutate.Extract(img))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		files[strings.TrimSuffix(h.Name, "/")] = h
		if h.Name == "gpublock" {
			if fromImage, err = io.ReadAll(tr); err != nil {
				t.Fatal(err)
			}
		}
	}
	if f, err := elf.Open(bin); err != nil {
		t.Fatal(err)
	} else {
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Errorf("the binary asks for a dynamic loader: it would not run in an image of nothing else")
			}
		}
		f.Close()
	}
	built, _ := os.ReadFile(bin)
	if h := files["gpublock"]; h == nil || h.Mode&0o111 == 0 || !bytes.Equal(fromImage, built) {
		t.Fatalf("the image's /gpublock is not the binary built, executable: %+v", h)
	}
	for _, d := range []string{"var/lib/gpublock", "var/cache/gpublock"} {
		if h := files[d]; h == nil || h.Uid != 65532 || h.Typeflag != tar.TypeDir {
			t.Errorf("%s: %+v, want a directory of 65532", d, h)
		}
	}
	if files["etc/ssl/certs/ca-certificates.crt"] == nil {
		t.Errorf("no TLS roots in the image: %v", files)
	}

	// The binary out of the image: its emulator, then its watcher against it.
	exe := filepath.Join(tmp, "from-image", "gpublock")
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, fromImage, 0o755); err != nil {
		t.Fatal(err)
	}
	env := imageEnv(t, tmp, cf.Config.Env)
	url := startSim(t, exe, env)
	healthFile := filepath.Join(tmp, "health.json")
	args := append(slices.Clone(cf.Config.Cmd), "--endpoint-url", url, "--region", "us-east-1", "--interval", "1h",
		"--health-file", healthFile, "--health-addr", "127.0.0.1:0")
	watch := exec.Command(exe, append(cf.Config.Entrypoint[1:], args...)...)
	watch.Env = env
	var stderr lockedBuffer
	watch.Stderr = &stderr
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- watch.Wait() }()
	t.Cleanup(func() { _ = watch.Process.Kill() })

	var health struct {
		Status  string `json:"status"`
		Rounds  int    `json:"rounds"`
		Outcome string `json:"outcome"`
	}
	readHealth := func() {
		data, _ := os.ReadFile(healthFile)
		health.Rounds = 0
		_ = json.Unmarshal(data, &health)
	}
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if readHealth(); health.Rounds >= 1 {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("the watcher exited (%v) before a round ended:\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no round ended:\n%s", stderr.String())
		}
	}
	if health.Status != "ok" || health.Outcome != "ok" {
		t.Errorf("health after the first round: %+v\n%s", health, stderr.String())
	}
	addr := regexp.MustCompile(`"health_addr":"([^"]+)"`).FindStringSubmatch(stderr.String())
	if addr == nil {
		t.Fatalf("no health address logged:\n%s", stderr.String())
	}
	resp, err := http.Get("http://" + addr[1] + "/healthz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /healthz: %v %v", resp, err)
	}
	resp.Body.Close()

	if err := watch.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("after SIGTERM: %v, want exit 0\n%s", err, stderr.String())
		}
	case <-time.After(time.Minute):
		t.Fatalf("the watcher did not stop on SIGTERM:\n%s", stderr.String())
	}
	if readHealth(); health.Status != "stopped" {
		t.Errorf("health after SIGTERM: %+v", health)
	}
	kinds := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil || e["time"] == nil || e["level"] == nil || e["msg"] == nil {
			t.Fatalf("not a JSON event: %q (%v)", line, err)
		}
		kinds[e["event"].(string)] = true
	}
	for _, k := range []string{"started", "round-started", "round-ended", "stopped"} {
		if !kinds[k] {
			t.Errorf("no %s event:\n%s", k, stderr.String())
		}
	}
}

// imageEnv is the image's environment with its directories moved under root (this machine
// runs the binary outside the image), and the emulator's credentials: nothing of the
// test's own environment reaches the binary.
func imageEnv(t *testing.T, root string, env []string) []string {
	t.Helper()
	out := []string{"AWS_ACCESS_KEY_ID=AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY=dummy", "AWS_REGION=us-east-1", "AWS_EC2_METADATA_DISABLED=true"}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(v, "/") && k != "PATH" {
			v = filepath.Join(root, "fs", v)
			if err := os.MkdirAll(v, 0o700); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, k+"="+v)
	}
	return out
}

// startSim runs exe's emulator until the test ends and returns its URL.
func startSim(t *testing.T, exe string, env []string) string {
	t.Helper()
	sim := exec.Command(exe, "sim", "--addr", "127.0.0.1:0")
	sim.Env = env
	out, err := sim.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Process.Kill(); _ = sim.Wait() })
	urlRE := regexp.MustCompile(`AWS_ENDPOINT_URL_EC2=(http://127\.0\.0\.1:\d+)`)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := urlRE.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case url := <-found:
		return url
	case <-time.After(time.Minute):
		t.Fatal("gpublock sim printed no endpoint")
	}
	return ""
}

// lockedBuffer is a buffer a process writes while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
