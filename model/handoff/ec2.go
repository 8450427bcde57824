package handoff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gpublock/gpublock/model"
)

// The pages the EC2 tools' files follow.
const (
	karpenterDoc = "https://karpenter.sh/docs/tasks/odcrs/"
	skypilotDoc  = "https://docs.skypilot.co/en/stable/reservations/reservations.html"
	dstackDoc    = "https://dstack.ai/docs/reference/dstack.yml/fleet/"
	pclusterDoc  = "https://docs.aws.amazon.com/parallelcluster/latest/ug/launch-instances-capacity-blocks.html"
	eksDoc       = "https://docs.aws.amazon.com/eks/latest/userguide/capacity-blocks-mng.html"
)

// block is what every EC2 tool takes from a Capacity Block.
type block struct {
	id, instanceType, zone, region, tenancy string
	count                                   int
}

// capacityBlock reads b's reservation id, EC2 instance type, zone, region, tenancy and
// count, or says which is missing. An UltraServer block is launched as its member
// instances (as gpublock's own launch does), so its type is the member type.
func capacityBlock(b model.Block) (block, error) {
	c := block{id: b.ReservationID, instanceType: model.EC2Type(b.InstanceType), zone: b.AvailabilityZone, region: b.Region,
		tenancy: b.LaunchTenancy(), count: b.TotalCount}
	if t, ok := model.LookupType(c.instanceType); ok && t.UltraServer {
		c.instanceType = t.MemberType
	}
	switch {
	case !strings.HasPrefix(c.id, "cr-"):
		return block{}, fmt.Errorf("the block has no capacity reservation id (cr-…), got %q", c.id)
	case c.instanceType == "", c.zone == "", c.region == "":
		return block{}, fmt.Errorf("the block %s lacks its instance type, zone or region", c.id)
	case c.count < 1:
		return block{}, fmt.Errorf("the block %s holds no instances", c.id)
	}
	return c, nil
}

// group is the reservations one purchase made (one per segment of a segmented offering;
// one for a plain offering): every tool's file names all of them.
type group []block

func capacityGroup(bs []model.Block) (group, error) {
	if len(bs) == 0 {
		return nil, fmt.Errorf("no reservation given")
	}
	g := make(group, len(bs))
	for i, b := range bs {
		c, err := capacityBlock(b)
		if err != nil {
			return nil, err
		}
		if c.region != bs[0].Region {
			return nil, fmt.Errorf("the reservations %s and %s are in different regions", bs[0].ReservationID, c.id)
		}
		g[i] = c
	}
	return g, nil
}

// name is a name for the objects made for the group, valid as a Kubernetes, dstack and
// launch-template name: reservation ids are lowercase hex after "cr-".
func (c block) name() string { return "gpublock-" + c.id }

func (g group) name() string { return g[0].name() }

func (g group) ids() []string { return g.each(func(c block) string { return c.id }) }

func (g group) zones() []string { return g.each(func(c block) string { return c.zone }) }

func (g group) types() []string { return g.each(func(c block) string { return c.instanceType }) }

// each is f of every block, each value once, in the group's order.
func (g group) each(f func(block) string) []string {
	var out []string
	for _, c := range g {
		if v := f(c); !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// dedicated reports a group of dedicated reservations, which take only instances
// launched with dedicated tenancy.
func (g group) dedicated() bool { return g[0].tenancy == "dedicated" }

// tenancyNote is what a tool whose file has no tenancy setting must be told of a
// dedicated block, "" otherwise.
func (g group) tenancyNote(tool string) string {
	if !g.dedicated() {
		return ""
	}
	return " The block is of dedicated tenancy: AWS launches into it only instances placed with Tenancy dedicated, and " +
		tool + "'s file has no tenancy setting, so make sure its launches ask for dedicated tenancy."
}

// groupNote says, for a purchase that made several reservations, that the file names
// them all.
func (g group) groupNote() string {
	if len(g) < 2 {
		return ""
	}
	return fmt.Sprintf(" The purchase made %d reservations (one per segment: %s); the file names all of them.", len(g), strings.Join(g.ids(), ", "))
}

// karpenter writes an EC2NodeClass that selects the block by id and a NodePool that only
// launches reserved capacity of capacity-block type, pinned to the block's type and zone.
// Karpenter v1.6+ with the ReservedCapacity feature gate:
// https://karpenter.sh/docs/tasks/odcrs/ (capacityReservationSelectorTerms `- id: cr-…`,
// capacity type `reserved`, label karpenter.k8s.aws/capacity-reservation-type
// `capacity-block`) and https://karpenter.sh/docs/concepts/nodeclasses/ (role,
// amiSelectorTerms, subnetSelectorTerms, securityGroupSelectorTerms are required).
func karpenter(bs []model.Block) (File, error) {
	c, err := capacityGroup(bs)
	if err != nil {
		return File{}, err
	}
	terms := make([]any, len(c))
	for i, id := range c.ids() {
		terms[i] = m{"id", id}
	}
	discovery := []any{m{"tags", m{"karpenter.sh/discovery", "CLUSTER_NAME"}}}
	nodeClass := m{
		"apiVersion", "karpenter.k8s.aws/v1",
		"kind", "EC2NodeClass",
		"metadata", m{"name", c.name()},
		"spec", m{
			"role", "KarpenterNodeRole-CLUSTER_NAME",
			"amiSelectorTerms", []any{m{"alias", "al2023@latest"}},
			"subnetSelectorTerms", discovery,
			"securityGroupSelectorTerms", discovery,
			"capacityReservationSelectorTerms", terms,
		},
	}
	in := func(key string, values ...string) m { return m{"key", key, "operator", "In", "values", values} }
	nodePool := m{
		"apiVersion", "karpenter.sh/v1",
		"kind", "NodePool",
		"metadata", m{"name", c.name()},
		"spec", m{
			"template", m{"spec", m{
				"nodeClassRef", m{"group", "karpenter.k8s.aws", "kind", "EC2NodeClass", "name", c.name()},
				// Only `reserved`: falling back to on-demand would buy what the block
				// already paid for.
				"requirements", []any{
					in("karpenter.sh/capacity-type", "reserved"),
					in("karpenter.k8s.aws/capacity-reservation-type", "capacity-block"),
					in("node.kubernetes.io/instance-type", c.types()...),
					in("topology.kubernetes.io/zone", c.zones()...),
				},
			}},
		},
	}
	out, err := toYAML(nodeClass, nodePool)
	if err != nil {
		return File{}, err
	}
	return File{Name: "karpenter.yaml", Format: YAML, Content: out, Note: fmt.Sprintf(
		"Replace CLUSTER_NAME (node role and the karpenter.sh/discovery tag of your subnets and security groups; a subnet must be in %s). "+
			"Needs Karpenter v1.6+ with the ReservedCapacity feature gate. Apply: kubectl apply -f karpenter.yaml",
		strings.Join(c.zones(), " and in ")) + c.groupNote() + c.tenancyNote("Karpenter")}, nil
}

// skypilot writes the ~/.sky/config.yaml key that lets SkyPilot launch into the block:
// aws.specific_reservations, a list of reservation ids
// (https://docs.skypilot.co/en/stable/reservations/reservations.html). It belongs in the
// config file, not a task YAML: SkyPilot lets a task override only a few config keys
// (OVERRIDEABLE_CONFIG_KEYS_IN_TASK in sky/skylet/constants.py), and this is not one.
// aws.prioritize_reservations is left out: the page says it is for `open` reservations,
// and a Capacity Block is targeted.
func skypilot(bs []model.Block) (File, error) {
	c, err := capacityGroup(bs)
	if err != nil {
		return File{}, err
	}
	out, err := toYAML(m{"aws", m{"specific_reservations", c.ids()}})
	if err != nil {
		return File{}, err
	}
	// A SkyPilot cluster is in one zone: a group across zones is one launch per reservation.
	launches := make([]string, len(c))
	for i, b := range c {
		launches[i] = fmt.Sprintf("sky launch --infra aws/%s/%s --instance-type %s --num-nodes %d task.yaml", b.region, b.zone, b.instanceType, b.count)
	}
	return File{Name: "skypilot-config.yaml", Format: YAML, Content: out, Note: "Merge into ~/.sky/config.yaml (keep your other keys, add to an existing list). " +
		"Then launch on the block, e.g. " + strings.Join(launches, "; and ") + c.groupNote() + c.tenancyNote("SkyPilot")}, nil
}

// dstack writes a backend fleet with `reservation`, which "supports AWS Capacity
// Reservations, AWS Capacity Blocks" (https://dstack.ai/docs/reference/dstack.yml/fleet/;
// dstack's FleetConfiguration model). dstack picks the reservation's zone itself and
// drops spot offers for reservations; spot_policy says on-demand anyway. Several nodes get
// `placement: cluster`, which dstack's distributed tasks require
// (https://dstack.ai/docs/concepts/fleets/).
func dstack(bs []model.Block) (File, error) {
	c, err := capacityGroup(bs)
	if err != nil {
		return File{}, err
	}
	// A fleet takes one reservation: a group is one fleet per reservation, in one stream.
	var fleets []any
	for _, b := range c {
		fleet := m{"type", "fleet", "name", b.name(), "nodes", b.count}
		if b.count > 1 {
			fleet = append(fleet, "placement", "cluster")
		}
		fleet = append(fleet,
			"backends", []string{"aws"},
			"regions", []string{b.region},
			"instance_types", []string{b.instanceType},
			"spot_policy", "on-demand",
			"reservation", b.id)
		fleets = append(fleets, fleet)
	}
	out, err := toYAML(fleets...)
	if err != nil {
		return File{}, err
	}
	// dstack copies a reservation's tenancy into its launches itself (its PR #3992).
	return File{Name: "fleet.dstack.yml", Format: YAML, Content: out, Note: "Needs the aws backend configured for " + c[0].region +
		". dstack requires the .dstack.yml ending. Apply: dstack apply -f fleet.dstack.yml" + c.groupNote()}, nil
}

// parallelCluster writes a cluster configuration with one Slurm queue on the block:
// CapacityType CAPACITY_BLOCK on the queue, the block's id in the compute resource's
// CapacityReservationTarget, and MinCount equal to MaxCount, as "all the instances that are
// part of the CB reservation are managed as static nodes"
// (https://docs.aws.amazon.com/parallelcluster/latest/ug/launch-instances-capacity-blocks.html;
// other keys: https://docs.aws.amazon.com/parallelcluster/latest/ug/cluster-configuration-file-v3.html).
func parallelCluster(bs []model.Block) (File, error) {
	c, err := capacityGroup(bs)
	if err != nil {
		return File{}, err
	}
	// One compute resource per reservation, each all static nodes.
	var resources []any
	for i, b := range c {
		name := "reserved"
		if len(c) > 1 {
			name = fmt.Sprintf("reserved-%d", i+1)
		}
		resources = append(resources, m{
			"Name", name,
			"InstanceType", b.instanceType,
			"MinCount", b.count,
			"MaxCount", b.count,
			"CapacityReservationTarget", m{"CapacityReservationId", b.id},
		})
	}
	var subnets []string
	for _, z := range c.zones() {
		subnets = append(subnets, "SUBNET_ID_IN_"+z)
	}
	cfg := m{
		"Region", c[0].region,
		"Image", m{"Os", "alinux2023"},
		"HeadNode", m{
			"InstanceType", "c5.xlarge",
			"Networking", m{"SubnetId", "HEAD_NODE_SUBNET_ID"},
			"Ssh", m{"KeyName", "KEY_PAIR_NAME"},
		},
		"Scheduling", m{
			"Scheduler", "slurm",
			"SlurmQueues", []any{m{
				"Name", "capacity-block",
				"CapacityType", "CAPACITY_BLOCK",
				"Networking", m{"SubnetIds", subnets},
				"ComputeResources", resources,
			}},
		},
	}
	out, err := toYAML(cfg)
	if err != nil {
		return File{}, err
	}
	return File{Name: "parallelcluster.yaml", Format: YAML, Content: out, Note: fmt.Sprintf(
		"Replace HEAD_NODE_SUBNET_ID, KEY_PAIR_NAME and %s (a subnet in the block's zone). "+
			"Apply: pcluster create-cluster --cluster-name CLUSTER_NAME --cluster-configuration parallelcluster.yaml --region %s",
		strings.Join(subnets, ", "), c[0].region) + c.groupNote() + c.tenancyNote("ParallelCluster")}, nil
}

// eks writes the LaunchTemplateData of the launch template an EKS managed node group needs
// for a Capacity Block: InstanceMarketOptions.MarketType "capacity-block",
// CapacityReservationSpecification.CapacityReservationTarget.CapacityReservationId and the
// block's InstanceType (https://docs.aws.amazon.com/eks/latest/userguide/capacity-blocks-mng.html;
// node groups with Capacity Blocks "can only be created with custom launch templates").
// The node group's capacity type CAPACITY_BLOCK is an argument of create-nodegroup, so it
// is in the note.
func eks(bs []model.Block) (File, error) {
	c, err := capacityGroup(bs)
	if err != nil {
		return File{}, err
	}
	// A launch template targets one reservation: a group's file is a list of templates'
	// data, one per reservation.
	var templates []any
	for _, b := range c {
		data := m{
			"InstanceType", b.instanceType,
			"InstanceMarketOptions", m{"MarketType", "capacity-block"},
			"CapacityReservationSpecification", m{
				"CapacityReservationTarget", m{"CapacityReservationId", b.id},
			},
		}
		if b.tenancy != "" {
			// A dedicated block takes only instances placed dedicated.
			data = append(data, "Placement", m{"Tenancy", b.tenancy})
		}
		templates = append(templates, data)
	}
	var doc any = templates
	if len(templates) == 1 {
		doc = templates[0]
	}
	out, err := toJSON(doc)
	if err != nil {
		return File{}, err
	}
	region := c[0].region
	if len(c) == 1 {
		b := c[0]
		return File{Name: "eks-launch-template.json", Format: JSON, Content: out, Note: eksNote(region, b.name(), "file://eks-launch-template.json", b.zone, b.count)}, nil
	}
	notes := make([]string, len(c))
	for i, b := range c {
		notes[i] = fmt.Sprintf("Reservation %s (entry %d): ", b.id, i) + eksNote(region, b.name(), fmt.Sprintf("\"$(jq -c '.[%d]' eks-launch-template.json)\"", i), b.zone, b.count)
	}
	return File{Name: "eks-launch-template.json", Format: JSON, Content: out,
		Note: strings.TrimSpace(c.groupNote()) + " One launch template and node group per reservation.\n" + strings.Join(notes, "\n")}, nil
}

// eksNote is how one reservation's launch template and node group are made.
func eksNote(region, name, data, zone string, count int) string {
	return fmt.Sprintf(
		"Create the template: aws ec2 create-launch-template --region %[1]s --launch-template-name %[2]s --launch-template-data %[5]s. "+
			"Then: aws eks create-nodegroup --region %[1]s --cluster-name CLUSTER_NAME --nodegroup-name %[2]s --capacity-type CAPACITY_BLOCK "+
			"--launch-template name=%[2]s,version=1 --ami-type AL2023_x86_64_NVIDIA --node-role NODE_ROLE_ARN --subnets SUBNET_ID_IN_%[3]s "+
			"--scaling-config minSize=0,maxSize=%[4]d,desiredSize=0 (AL2023_x86_64_NEURON for Trainium). "+
			"Scale desiredSize to %[4]d once the block is active, and back to 0 before it ends.",
		region, name, zone, count, data)
}
