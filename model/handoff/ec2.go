package handoff

import (
	"fmt"
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
	id, instanceType, zone, region string
	count                          int
}

// capacityBlock reads b's reservation id, EC2 instance type, zone, region and count, or
// says which is missing. An UltraServer block is launched as its member instances (as
// gpublock's own launch does), so its type is the member type.
func capacityBlock(b model.Block) (block, error) {
	c := block{id: b.ReservationID, instanceType: model.EC2Type(b.InstanceType), zone: b.AvailabilityZone, region: b.Region, count: b.TotalCount}
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

// name is a name for the objects made for the block, valid as a Kubernetes, dstack and
// launch-template name: reservation ids are lowercase hex after "cr-".
func (c block) name() string { return "gpublock-" + c.id }

// karpenter writes an EC2NodeClass that selects the block by id and a NodePool that only
// launches reserved capacity of capacity-block type, pinned to the block's type and zone.
// Karpenter v1.6+ with the ReservedCapacity feature gate:
// https://karpenter.sh/docs/tasks/odcrs/ (capacityReservationSelectorTerms `- id: cr-…`,
// capacity type `reserved`, label karpenter.k8s.aws/capacity-reservation-type
// `capacity-block`) and https://karpenter.sh/docs/concepts/nodeclasses/ (role,
// amiSelectorTerms, subnetSelectorTerms, securityGroupSelectorTerms are required).
func karpenter(b model.Block) (File, error) {
	c, err := capacityBlock(b)
	if err != nil {
		return File{}, err
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
			"capacityReservationSelectorTerms", []any{m{"id", c.id}},
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
					in("node.kubernetes.io/instance-type", c.instanceType),
					in("topology.kubernetes.io/zone", c.zone),
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
		c.zone)}, nil
}

// skypilot writes the ~/.sky/config.yaml key that lets SkyPilot launch into the block:
// aws.specific_reservations, a list of reservation ids
// (https://docs.skypilot.co/en/stable/reservations/reservations.html). It belongs in the
// config file, not a task YAML: SkyPilot lets a task override only a few config keys
// (OVERRIDEABLE_CONFIG_KEYS_IN_TASK in sky/skylet/constants.py), and this is not one.
// aws.prioritize_reservations is left out: the page says it is for `open` reservations,
// and a Capacity Block is targeted.
func skypilot(b model.Block) (File, error) {
	c, err := capacityBlock(b)
	if err != nil {
		return File{}, err
	}
	out, err := toYAML(m{"aws", m{"specific_reservations", []string{c.id}}})
	if err != nil {
		return File{}, err
	}
	return File{Name: "skypilot-config.yaml", Format: YAML, Content: out, Note: fmt.Sprintf(
		"Merge into ~/.sky/config.yaml (keep your other keys, add to an existing list). Then launch on the block, e.g. "+
			"sky launch --infra aws/%s/%s --instance-type %s --num-nodes %d task.yaml",
		c.region, c.zone, c.instanceType, c.count)}, nil
}

// dstack writes a backend fleet with `reservation`, which "supports AWS Capacity
// Reservations, AWS Capacity Blocks" (https://dstack.ai/docs/reference/dstack.yml/fleet/;
// dstack's FleetConfiguration model). dstack picks the reservation's zone itself and
// drops spot offers for reservations; spot_policy says on-demand anyway. Several nodes get
// `placement: cluster`, which dstack's distributed tasks require
// (https://dstack.ai/docs/concepts/fleets/).
func dstack(b model.Block) (File, error) {
	c, err := capacityBlock(b)
	if err != nil {
		return File{}, err
	}
	fleet := m{"type", "fleet", "name", c.name(), "nodes", c.count}
	if c.count > 1 {
		fleet = append(fleet, "placement", "cluster")
	}
	fleet = append(fleet,
		"backends", []string{"aws"},
		"regions", []string{c.region},
		"instance_types", []string{c.instanceType},
		"spot_policy", "on-demand",
		"reservation", c.id)
	out, err := toYAML(fleet)
	if err != nil {
		return File{}, err
	}
	return File{Name: "fleet.dstack.yml", Format: YAML, Content: out, Note: "Needs the aws backend configured for " + c.region +
		". dstack requires the .dstack.yml ending. Apply: dstack apply -f fleet.dstack.yml"}, nil
}

// parallelCluster writes a cluster configuration with one Slurm queue on the block:
// CapacityType CAPACITY_BLOCK on the queue, the block's id in the compute resource's
// CapacityReservationTarget, and MinCount equal to MaxCount, as "all the instances that are
// part of the CB reservation are managed as static nodes"
// (https://docs.aws.amazon.com/parallelcluster/latest/ug/launch-instances-capacity-blocks.html;
// other keys: https://docs.aws.amazon.com/parallelcluster/latest/ug/cluster-configuration-file-v3.html).
func parallelCluster(b model.Block) (File, error) {
	c, err := capacityBlock(b)
	if err != nil {
		return File{}, err
	}
	cfg := m{
		"Region", c.region,
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
				"Networking", m{"SubnetIds", []string{"SUBNET_ID_IN_" + c.zone}},
				"ComputeResources", []any{m{
					"Name", "reserved",
					"InstanceType", c.instanceType,
					"MinCount", c.count,
					"MaxCount", c.count,
					"CapacityReservationTarget", m{"CapacityReservationId", c.id},
				}},
			}},
		},
	}
	out, err := toYAML(cfg)
	if err != nil {
		return File{}, err
	}
	return File{Name: "parallelcluster.yaml", Format: YAML, Content: out, Note: fmt.Sprintf(
		"Replace HEAD_NODE_SUBNET_ID, KEY_PAIR_NAME and SUBNET_ID_IN_%s (a subnet in the block's zone). "+
			"Apply: pcluster create-cluster --cluster-name CLUSTER_NAME --cluster-configuration parallelcluster.yaml --region %s",
		c.zone, c.region)}, nil
}

// eks writes the LaunchTemplateData of the launch template an EKS managed node group needs
// for a Capacity Block: InstanceMarketOptions.MarketType "capacity-block",
// CapacityReservationSpecification.CapacityReservationTarget.CapacityReservationId and the
// block's InstanceType (https://docs.aws.amazon.com/eks/latest/userguide/capacity-blocks-mng.html;
// node groups with Capacity Blocks "can only be created with custom launch templates").
// The node group's capacity type CAPACITY_BLOCK is an argument of create-nodegroup, so it
// is in the note.
func eks(b model.Block) (File, error) {
	c, err := capacityBlock(b)
	if err != nil {
		return File{}, err
	}
	out, err := toJSON(m{
		"InstanceType", c.instanceType,
		"InstanceMarketOptions", m{"MarketType", "capacity-block"},
		"CapacityReservationSpecification", m{
			"CapacityReservationTarget", m{"CapacityReservationId", c.id},
		},
	})
	if err != nil {
		return File{}, err
	}
	return File{Name: "eks-launch-template.json", Format: JSON, Content: out, Note: fmt.Sprintf(
		"Create the template: aws ec2 create-launch-template --region %[1]s --launch-template-name %[2]s --launch-template-data file://eks-launch-template.json. "+
			"Then: aws eks create-nodegroup --region %[1]s --cluster-name CLUSTER_NAME --nodegroup-name %[2]s --capacity-type CAPACITY_BLOCK "+
			"--launch-template name=%[2]s,version=1 --ami-type AL2023_x86_64_NVIDIA --node-role NODE_ROLE_ARN --subnets SUBNET_ID_IN_%[3]s "+
			"--scaling-config minSize=0,maxSize=%[4]d,desiredSize=0 (AL2023_x86_64_NEURON for Trainium). "+
			"Scale desiredSize to %[4]d once the block is active, and back to 0 before it ends.",
		c.region, c.name(), c.zone, c.count)}, nil
}
