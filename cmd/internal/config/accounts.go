package config

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gpublock/gpublock/model"
)

// Account is one entry of the file's accounts:
//
//	accounts:
//	  - profile: ml-prod                   # a profile of ~/.aws/config
//	    regions: [us-east-1, us-west-2]    # where its reservations are listed (default: every region)
//	    endpoint_url: http://127.0.0.1:4566  # optional; the profile's own endpoint_url works too
type Account struct {
	Profile     string
	Regions     []string
	EndpointURL string
}

// yamlAccounts reads the accounts list, each entry's mistakes at its own line.
func yamlAccounts(k, v *yaml.Node) ([]Account, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, yamlError(k, "accounts: want a list of {profile: NAME, regions: [...], endpoint_url: URL}, not %s", yamlShown(v))
	}
	if len(v.Content) == 0 {
		return nil, yamlError(k, "accounts: the list is empty; name at least one profile, or leave the key out")
	}
	var out []Account
	seen := map[string]int{}
	for i, item := range v.Content {
		where := "accounts, entry " + strconv.Itoa(i+1)
		if item.Kind != yaml.MappingNode {
			return nil, yamlError(item, "%s: want {profile: NAME, regions: [...], endpoint_url: URL}, not %s", where, yamlShown(item))
		}
		var a Account
		keys := map[string]bool{}
		for j := 0; j+1 < len(item.Content); j += 2 {
			ak, av := item.Content[j], item.Content[j+1]
			if keys[ak.Value] {
				return nil, yamlError(ak, "%s: key %s given twice; give it once", where, ak.Value)
			}
			keys[ak.Value] = true
			if av.Kind == yaml.ScalarNode && av.Tag == "!!null" {
				return nil, yamlError(ak, "%s: key %s is null; give a value or leave the key out", where, ak.Value)
			}
			var err error
			switch ak.Value {
			case "profile":
				a.Profile, err = yamlScalar(ak, av, "a profile name", "!!str")
				if err == nil {
					err = checkProfileName(ak, where, a.Profile)
				}
			case "regions":
				a.Regions, err = yamlRegions(ak, av, where)
			case "endpoint_url":
				a.EndpointURL, err = yamlScalar(ak, av, "an http:// or https:// URL", "!!str")
				if err == nil {
					if u, perr := url.Parse(a.EndpointURL); perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
						err = yamlError(ak, "%s: endpoint_url %q: want an http:// or https:// URL such as http://127.0.0.1:4566", where, a.EndpointURL)
					}
				}
			default:
				return nil, yamlError(ak, "%s: unknown key %s (allowed: profile, regions, endpoint_url)", where, ak.Value)
			}
			if err != nil {
				return nil, err
			}
		}
		if !keys["profile"] {
			return nil, yamlError(item, "%s: profile is missing; each account is named by a profile of ~/.aws/config", where)
		}
		if first, dup := seen[a.Profile]; dup {
			return nil, yamlError(item, "%s: profile %s is listed twice (first on line %d); list each account once", where, a.Profile, first)
		}
		seen[a.Profile] = item.Line
		out = append(out, a)
	}
	return out, nil
}

// checkProfileName refuses what --profile could not name: nothing, blanks, or a comma, which
// separates the profiles of a list.
func checkProfileName(k *yaml.Node, where, name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return yamlError(k, "%s: profile is empty; name a profile of ~/.aws/config", where)
	case strings.ContainsAny(name, ", \t"):
		return yamlError(k, "%s: profile %q: one profile name, without commas or spaces; list each account as its own entry", where, name)
	}
	return nil
}

func yamlRegions(k, v *yaml.Node, where string) ([]string, error) {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		return nil, yamlError(k, "%s: regions: want a list of regions such as [us-east-1, us-west-2], not %s", where, yamlShown(v))
	}
	var out []string
	for _, r := range v.Content {
		if r.Kind != yaml.ScalarNode || r.Tag != "!!str" {
			return nil, yamlError(r, "%s: regions: want a region name, not %s", where, yamlShown(r))
		}
		if !slices.Contains(model.Regions(), r.Value) {
			return nil, yamlError(r, "%s: regions: %q is not a Capacity Block region; allowed: %s", where, r.Value, strings.Join(model.Regions(), ", "))
		}
		if !slices.Contains(out, r.Value) {
			out = append(out, r.Value)
		}
	}
	return out, nil
}

func accountsNode(accts []Account) *yaml.Node {
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	list := &yaml.Node{Kind: yaml.SequenceNode}
	for _, a := range accts {
		m := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		m.Content = append(m.Content, str("profile"), str(a.Profile))
		if len(a.Regions) > 0 {
			rs := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
			for _, r := range a.Regions {
				rs.Content = append(rs.Content, str(r))
			}
			m.Content = append(m.Content, str("regions"), rs)
		}
		if a.EndpointURL != "" {
			m.Content = append(m.Content, str("endpoint_url"), str(a.EndpointURL))
		}
		list.Content = append(list.Content, m)
	}
	return list
}
