package ec2sim

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gpublock/gpublock/aws/simcore"
)

func init() {
	ec2Actions["CreateTags"] = guarded(createTags)
	ec2Actions["DeleteTags"] = guarded(deleteTags)
}

// maxTags is AWS's limit of user tags per resource.
const maxTags = 50

// taggable finds the tags of a resource by its id: Capacity Reservations, instances and
// key pairs, the resources the emulator makes. Each id is checked as AWS checks it:
// malformed or unknown ids of a kind answer that kind's code; an id of another kind is
// InvalidID.
func (s *Server) taggable(rs *regionState, c *call, id string) (*[]tag, *apiError) {
	prefix, _, _ := strings.Cut(id, "-")
	switch prefix {
	case "cr":
		r, e := lookupReservation(rs, id)
		if e != nil {
			return nil, e
		}
		return &r.Tags, nil
	case "i":
		ins, e := lookupInstances(rs, []string{id}, c.now)
		if e != nil {
			return nil, e
		}
		return &ins[0].Tags, nil
	case "key":
		if k := simcore.Find(rs.KeyPairs, func(k *keyPair) bool { return k.ID == id }); k != nil {
			return &k.Tags, nil
		}
		return nil, errf(http.StatusBadRequest, "InvalidKeyPair.NotFound", "The key pair '%s' does not exist", id)
	}
	return nil, errf(http.StatusBadRequest, "InvalidID", "The ID '%s' is not valid", id)
}

// tagTargets reads ResourceId.N and resolves every one before anything is changed, so
// that a request naming one unknown resource changes none.
func (s *Server) tagTargets(c *call) ([]*[]tag, *apiError) {
	ids, e := c.form.list("ResourceId")
	if e != nil {
		return nil, e
	}
	if len(ids) == 0 {
		return nil, missingParam("ResourceId.1")
	}
	if len(ids) > 1000 {
		return nil, badParam("%d resources given; CreateTags and DeleteTags take at most 1000.", len(ids))
	}
	rs := s.region(c.region)
	var out []*[]tag
	for _, id := range ids {
		t, e := s.taggable(rs, c, id)
		if e != nil {
			return nil, e
		}
		out = append(out, t)
	}
	return out, nil
}

// requestTags reads Tag.N.Key and Tag.N.Value; value reports, per tag, whether a value
// was given (DeleteTags tells an absent value from an empty one).
func requestTags(f form) (tags []tag, valueGiven []bool, e *apiError) {
	idx, e := f.indices("Tag")
	if e != nil {
		return nil, nil, e
	}
	for _, n := range idx {
		base := "Tag." + strconv.Itoa(n)
		k := f.str(base + ".Key")
		if k == "" {
			return nil, nil, missingParam(base + ".Key")
		}
		if strings.HasPrefix(strings.ToLower(k), "aws:") {
			return nil, nil, badParam("Value (%s) for parameter %s.Key is invalid. Tag keys starting with 'aws:' are reserved for internal use.", k, base)
		}
		v := f.str(base + ".Value")
		if len(k) > 128 || len(v) > 256 {
			return nil, nil, badParam("Tag %q is too long: keys have at most 128 characters, values at most 256.", k)
		}
		tags = append(tags, tag{Key: k, Value: v})
		valueGiven = append(valueGiven, f.has(base+".Value"))
	}
	return tags, valueGiven, nil
}

func createTags(s *Server, c *call) (*xmlBody, *apiError) {
	tags, _, e := requestTags(c.form)
	if e != nil {
		return nil, e
	}
	if len(tags) == 0 {
		return nil, missingParam("Tag.1.Key")
	}
	targets, e := s.tagTargets(c)
	if e != nil {
		return nil, e
	}
	for _, t := range targets {
		merged := slices.Clone(*t)
		for _, nt := range tags {
			if i := slices.IndexFunc(merged, func(o tag) bool { return o.Key == nt.Key }); i >= 0 {
				merged[i].Value = nt.Value // CreateTags overwrites a key's value
			} else {
				merged = append(merged, nt)
			}
		}
		if len(userTags(merged)) > maxTags {
			return nil, errf(http.StatusBadRequest, "TagLimitExceeded", "You've reached the limit on the number of tags (%d) that you can assign to the specified resource.", maxTags)
		}
	}
	if c.dryRun {
		return nil, errDryRun
	}
	for _, t := range targets {
		for _, nt := range tags {
			if i := slices.IndexFunc(*t, func(o tag) bool { return o.Key == nt.Key }); i >= 0 {
				(*t)[i].Value = nt.Value
			} else {
				*t = append(*t, nt)
			}
		}
	}
	return tagsChanged(s)
}

// deleteTags removes the tags named: a tag given with a value (even an empty one) only
// where the resource's value is that one; a key without a value whatever its value; no
// Tag.N at all, every tag but AWS's own.
func deleteTags(s *Server, c *call) (*xmlBody, *apiError) {
	tags, valueGiven, e := requestTags(c.form)
	if e != nil {
		return nil, e
	}
	targets, e := s.tagTargets(c)
	if e != nil {
		return nil, e
	}
	if c.dryRun {
		return nil, errDryRun
	}
	for _, t := range targets {
		*t = slices.DeleteFunc(*t, func(have tag) bool {
			if strings.HasPrefix(have.Key, "aws:") {
				return false
			}
			if len(tags) == 0 {
				return true
			}
			for i, del := range tags {
				if del.Key == have.Key && (!valueGiven[i] || del.Value == have.Value) {
					return true
				}
			}
			return false
		})
	}
	return tagsChanged(s)
}

// tagsChanged saves the state and answers <return>true</return>, as both actions do.
func tagsChanged(s *Server) (*xmlBody, *apiError) {
	if e := s.core.Commit(); e != nil {
		return nil, e
	}
	var x xmlBody
	x.bool("return", true)
	return &x, nil
}
