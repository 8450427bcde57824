package deploy

import (
	"slices"
	"testing"
)

func TestParseDockerfile(t *testing.T) {
	im, err := ParseDockerfile(Dockerfile)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(im.Entrypoint, []string{"/gpublock", "watch"}) || im.User != "65532:65532" || len(im.Cmd) == 0 {
		t.Errorf("%+v", im)
	}
	var dests []string
	for _, c := range im.Copies {
		dests = append(dests, c.Dest)
	}
	// The build stage's COPY lines are not the image's.
	if !slices.Equal(dests, []string{"/etc/ssl/certs/ca-certificates.crt", "/gpublock", "/var/lib/gpublock", "/var/cache/gpublock"}) {
		t.Errorf("copies %v", dests)
	}
	for _, bad := range []string{
		"FROM scratch\nUSER 1\nENTRYPOINT /gpublock watch\n",
		"FROM scratch\nENTRYPOINT [\"/gpublock\"]\n",
		"FROM scratch\nUSER 1\nENTRYPOINT [\"/x\"]\nENV A\n",
	} {
		if _, err := ParseDockerfile(bad); err == nil {
			t.Errorf("took %q", bad)
		}
	}
}
