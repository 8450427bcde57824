package ec2sim

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/gpublock/gpublock/aws/simcore"
)

// EC2 is the protocol that answers what no other claims: EC2's Query protocol, form-
// encoded POSTs (or GETs) to / whose Action names an EC2 action.
func (s *Server) protocol() Protocol {
	return Protocol{
		Name:  "ec2",
		Mount: func(*simcore.Core) simcore.Handler { return ec2Handler{s} },
	}
}

func init() {
	simcore.RegisterActions(simcore.ActionSet{Service: "ec2", Label: "EC2 actions", Names: actionNames, Primary: true})
}

// ec2Handler is EC2's handler in the core: its requests and its part of the state file,
// the regions' states.
type ec2Handler struct{ s *Server }

func (h ec2Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.s.serveEC2(w, r) }

func (h ec2Handler) SaveState() (json.RawMessage, error) {
	return json.Marshal(h.s.regions.Saved())
}

// LoadState takes the regions' states from the state file. Offerings this process has
// quoted and the file does not hold are kept: a quote is not saved until something is
// bought, and a client that searched here may buy here next.
func (h ec2Handler) LoadState(b json.RawMessage) error {
	var saved map[string]*regionState
	if len(b) > 0 {
		if err := json.Unmarshal(b, &saved); err != nil {
			return fmt.Errorf("ec2 state: %w", err)
		}
	}
	old := h.s.regions.Replace(saved)
	for name, was := range old {
		rs := h.s.region(name)
		for id, o := range was.Offerings {
			if _, ok := rs.Offerings[id]; !ok && !o.Gone {
				rs.Offerings[id] = o
			}
		}
		for id, o := range was.ExtOfferings {
			if _, ok := rs.ExtOfferings[id]; !ok && !o.Gone {
				rs.ExtOfferings[id] = o
			}
		}
	}
	return nil
}

// availabilityZones are a region's availability zones (not its Local Zones), which the
// other markets place their capacity in.
func availabilityZones(region string) []simcore.Zone {
	var out []simcore.Zone
	for _, z := range regions[region].Zones {
		if z.Type == "local-zone" {
			continue
		}
		out = append(out, simcore.Zone{Name: z.Name, ID: z.ID})
	}
	return out
}
