package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/gpublock/gpublock/cmd/gpublock/deploy"
	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// pendingFlags are flags the deploy files use that another part of the program adds: each
// is checked once the program has it. The team's S3 store is the --state flag.
var pendingFlags = []string{"state"}

// checkWatchArgs runs args (after the program's name) through the program's own commands,
// up to the point where gpublock watch would start: every flag must be one the program has,
// with a value it takes. It returns the flags' values as parsed.
func checkWatchArgs(t *testing.T, where string, args []string) map[string]string {
	t.Helper()
	var out, errb bytes.Buffer
	f := cmdutil.New(version, cmdutil.System(&out, &errb))
	root := newRootCmd(context.Background(), f)
	watch, rest, err := root.Find(args)
	if err != nil || watch.Name() != "watch" {
		t.Fatalf("%s runs %q: not gpublock watch (%v)", where, args, err)
	}
	for _, name := range pendingFlags {
		if watch.Flags().Lookup(name) != nil || watch.InheritedFlags().Lookup(name) != nil {
			continue
		}
		if i := slices.Index(rest, "--"+name); i >= 0 && i+1 < len(rest) {
			t.Logf("%s: --%s %s not checked: the program has no --%s yet", where, name, rest[i+1], name)
			rest = slices.Delete(slices.Clone(rest), i, i+2)
		}
	}
	// The program's root with its watch replaced by one that stops before running.
	root.RemoveCommand(watch)
	var ran *blocks.Options
	root.AddCommand(blocks.NewCmdWatch(f, func(o *blocks.Options) error { ran = o; return nil }))
	if code := cmdtest.ExecRoot(context.Background(), f, root, append([]string{"watch"}, rest...)...); code != 0 || ran == nil {
		t.Fatalf("%s: gpublock %s: exit %d\n%s", where, strings.Join(args, " "), code, errb.String())
	}
	values := map[string]string{}
	w, _, _ := root.Find([]string{"watch"})
	w.Flags().Visit(func(fl *pflag.Flag) { values[fl.Name] = fl.Value.String() })
	return values
}

func readDeploy(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("deploy", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestDockerfileRunsTheWatcher(t *testing.T) {
	im, err := deploy.ParseDockerfile(deploy.Dockerfile)
	if err != nil {
		t.Fatal(err)
	}
	if im.User != "65532:65532" && im.User != "65532" {
		t.Errorf("USER %q, want 65532", im.User)
	}
	if filepath.Base(im.Binary()) != "gpublock" || !slices.ContainsFunc(im.Copies, func(c deploy.Copy) bool { return c.Dest == im.Binary() }) {
		t.Errorf("ENTRYPOINT %v does not run the binary COPY puts in the image: %+v", im.Entrypoint, im.Copies)
	}
	values := checkWatchArgs(t, "Dockerfile", append(im.Entrypoint[1:], im.Cmd...))
	if values["log-format"] != "json" || values["health-addr"] == "" {
		t.Errorf("the image's command sets %v: want JSON logs and a health endpoint", values)
	}
	_, port, _ := net.SplitHostPort(values["health-addr"])
	if !slices.Contains(im.ExposedPorts, port+"/tcp") {
		t.Errorf("EXPOSE %v lacks the health port %s", im.ExposedPorts, port)
	}
}

// unitSettings are the key=value lines of a systemd unit, by section.
func unitSettings(text string) map[string]map[string][]string {
	out := map[string]map[string][]string{}
	section := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "["):
			section = strings.Trim(line, "[]")
			out[section] = map[string][]string{}
		default:
			k, v, _ := strings.Cut(line, "=")
			out[section][k] = append(out[section][k], v)
		}
	}
	return out
}

func TestSystemdUnitRunsTheWatcher(t *testing.T) {
	unit := unitSettings(readDeploy(t, "gpublock-watch.service"))
	svc := unit["Service"]
	for k, want := range map[string]string{"Type": "simple", "Restart": "on-failure", "DynamicUser": "yes", "KillSignal": "SIGTERM", "StateDirectory": "gpublock"} {
		if got := svc[k]; len(got) != 1 || got[0] != want {
			t.Errorf("[Service] %s=%v, want %s", k, got, want)
		}
	}
	exec := svc["ExecStart"]
	if len(exec) != 1 {
		t.Fatalf("ExecStart %v", exec)
	}
	argv := strings.Fields(exec[0]) // the unit quotes nothing
	if filepath.Base(argv[0]) != "gpublock" {
		t.Errorf("ExecStart runs %s", argv[0])
	}
	values := checkWatchArgs(t, "gpublock-watch.service", argv[1:])
	// The health file must be where the unit lets the service write.
	if dir := filepath.Dir(values["health-file"]); dir != "/run/"+svc["RuntimeDirectory"][0] && dir != "/var/lib/"+svc["StateDirectory"][0] {
		t.Errorf("--health-file %s is outside the unit's RuntimeDirectory and StateDirectory", values["health-file"])
	}
	if values["log-format"] != "json" {
		t.Errorf("the unit's watcher logs %q, want json", values["log-format"])
	}
}

// k8s is the part of a Deployment the test reads.
type k8s struct {
	Kind string `yaml:"kind"`
	Spec struct {
		Replicas int `yaml:"replicas"`
		Template struct {
			Spec struct {
				TerminationGracePeriodSeconds int `yaml:"terminationGracePeriodSeconds"`
				SecurityContext               struct {
					RunAsUser int `yaml:"runAsUser"`
				} `yaml:"securityContext"`
				Containers []struct {
					Command []string `yaml:"command"`
					Args    []string `yaml:"args"`
					Ports   []struct {
						Name          string `yaml:"name"`
						ContainerPort int    `yaml:"containerPort"`
					} `yaml:"ports"`
					LivenessProbe struct {
						HTTPGet struct {
							Path string `yaml:"path"`
							Port any    `yaml:"port"`
						} `yaml:"httpGet"`
					} `yaml:"livenessProbe"`
				} `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

func TestKubernetesDeploymentRunsTheWatcher(t *testing.T) {
	dec := yaml.NewDecoder(strings.NewReader(readDeploy(t, "kubernetes.yaml")))
	var dep *k8s
	for {
		var doc k8s
		if err := dec.Decode(&doc); err != nil {
			break
		}
		if doc.Kind == "Deployment" {
			dep = &doc
		}
	}
	if dep == nil {
		t.Fatal("no Deployment in kubernetes.yaml")
	}
	pod := dep.Spec.Template.Spec
	if dep.Spec.Replicas != 1 || len(pod.Containers) != 1 || pod.TerminationGracePeriodSeconds < 60 {
		t.Fatalf("want 1 replica of 1 container with a SIGTERM grace of a minute or more: %+v", dep.Spec)
	}
	c := pod.Containers[0]
	im, err := deploy.ParseDockerfile(deploy.Dockerfile)
	if err != nil {
		t.Fatal(err)
	}
	argv := append(slices.Clone(im.Entrypoint), c.Args...)
	if len(c.Command) > 0 {
		argv = append(slices.Clone(c.Command), c.Args...)
	}
	values := checkWatchArgs(t, "kubernetes.yaml", argv[1:])
	if !slices.Contains(c.Args, "--state") {
		t.Errorf("the Deployment keeps no team state in S3: %v", c.Args)
	}
	_, port, _ := net.SplitHostPort(values["health-addr"])
	var probePort string
	for _, p := range c.Ports {
		if p.Name == c.LivenessProbe.HTTPGet.Port || p.ContainerPort == c.LivenessProbe.HTTPGet.Port {
			probePort = strconv.Itoa(p.ContainerPort)
		}
	}
	if c.LivenessProbe.HTTPGet.Path != "/healthz" || probePort != port {
		t.Errorf("the liveness probe asks %v on port %q; the watcher serves /healthz on %q", c.LivenessProbe.HTTPGet.Path, probePort, port)
	}
	if uid := strconv.Itoa(pod.SecurityContext.RunAsUser); !strings.HasPrefix(im.User, uid) {
		t.Errorf("runAsUser %s, the image's USER %s", uid, im.User)
	}
}
