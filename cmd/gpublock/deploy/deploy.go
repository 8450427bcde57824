// Package deploy holds the files that run gpublock watch unattended, checked in beside the
// command whose flags they use: a Dockerfile, a systemd unit and a Kubernetes Deployment. It
// reads the image's configuration from the Dockerfile, so that the image built without a
// container engine (scripts/image) is the one the Dockerfile describes; the tests of
// cmd/gpublock check that every command these files run is one the program accepts.
package deploy

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// Dockerfile is the image's recipe.
//
//go:embed Dockerfile
var Dockerfile string

// Image is the final stage of the Dockerfile.
type Image struct {
	Entrypoint, Cmd []string
	Env             []string // KEY=VALUE
	User            string
	ExposedPorts    []string // e.g. "8080/tcp"
	// Copies are the final stage's COPY lines: what lands where, and its owner.
	Copies []Copy
}

// Copy is one COPY of the final stage.
type Copy struct {
	From, Chown, Src, Dest string
}

// Binary is where the image holds gpublock: its entrypoint's program.
func (im Image) Binary() string { return im.Entrypoint[0] }

// ParseDockerfile reads the final stage of a Dockerfile: its ENTRYPOINT and CMD (exec form,
// JSON arrays), USER, ENV (KEY=VALUE pairs), EXPOSE and COPY lines. Lines continued with a
// backslash are joined; comments are skipped.
func ParseDockerfile(text string) (Image, error) {
	var im Image
	lines, last := joinLines(text), -1
	for i, line := range lines {
		if word, _, _ := strings.Cut(line, " "); strings.EqualFold(word, "FROM") {
			last = i // only the last stage is the image
		}
	}
	for _, line := range lines[last+1:] {
		word, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		switch strings.ToUpper(word) {
		case "ENTRYPOINT", "CMD":
			var argv []string
			if err := json.Unmarshal([]byte(rest), &argv); err != nil {
				return Image{}, fmt.Errorf("%s %s: want the exec form, a JSON array: %v", word, rest, err)
			}
			if strings.EqualFold(word, "ENTRYPOINT") {
				im.Entrypoint = argv
			} else {
				im.Cmd = argv
			}
		case "USER":
			im.User = rest
		case "ENV":
			for _, kv := range strings.Fields(rest) {
				if !strings.Contains(kv, "=") {
					return Image{}, fmt.Errorf("ENV %s: want KEY=VALUE pairs", rest)
				}
				im.Env = append(im.Env, kv)
			}
		case "EXPOSE":
			for _, p := range strings.Fields(rest) {
				if !strings.Contains(p, "/") {
					p += "/tcp"
				}
				im.ExposedPorts = append(im.ExposedPorts, p)
			}
		case "COPY":
			var c Copy
			var paths []string
			for _, f := range strings.Fields(rest) {
				switch {
				case strings.HasPrefix(f, "--from="):
					c.From = strings.TrimPrefix(f, "--from=")
				case strings.HasPrefix(f, "--chown="):
					c.Chown = strings.TrimPrefix(f, "--chown=")
				default:
					paths = append(paths, f)
				}
			}
			if len(paths) != 2 {
				return Image{}, fmt.Errorf("COPY %s: want one source and one destination", rest)
			}
			c.Src, c.Dest = paths[0], paths[1]
			im.Copies = append(im.Copies, c)
		}
	}
	if len(im.Entrypoint) == 0 || im.User == "" {
		return Image{}, fmt.Errorf("the Dockerfile's last stage has no ENTRYPOINT or no USER")
	}
	return im, nil
}

// joinLines are the Dockerfile's instructions, one a line.
func joinLines(text string) []string {
	var out []string
	cur := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") || line == "" && cur == "" {
			continue
		}
		if more, ok := strings.CutSuffix(line, "\\"); ok {
			cur += more + " "
			continue
		}
		if cur += line; strings.TrimSpace(cur) != "" {
			out = append(out, strings.TrimSpace(cur))
		}
		cur = ""
	}
	return out
}
