package model

import "sort"

// InstanceType describes one type that Capacity Blocks sell. For an UltraServer the
// accelerator and size figures are for the whole UltraServer, and Instances says how many
// member instances it is made of.
type InstanceType struct {
	Name             string
	AcceleratorMaker string // NVIDIA or AWS
	AcceleratorModel string // H100, B200, Trainium2 ...
	Accelerators     int    // per instance (per UltraServer for UltraServers)
	AcceleratorGiB   int    // memory per accelerator
	VCPUs            int
	MemoryGiB        int
	NetworkGbps      int
	UltraServer      bool
	Instances        int    // member instances of an UltraServer; 1 otherwise
	MemberType       string // instance type of an UltraServer's members
	// Regions where Capacity Blocks of this type are sold. AWS's own table is not
	// published in a machine-readable form; this follows the reference (§3), which
	// marks the current table as unconfirmed.
	Regions []string
}

// AcceleratorMemoryGiB is the accelerator memory of one instance (or UltraServer).
func (t InstanceType) AcceleratorMemoryGiB() int { return t.Accelerators * t.AcceleratorGiB }

var catalog = []InstanceType{
	{Name: "p4d.24xlarge", AcceleratorMaker: "NVIDIA", AcceleratorModel: "A100", Accelerators: 8, AcceleratorGiB: 40, VCPUs: 96, MemoryGiB: 1152, NetworkGbps: 400, Instances: 1,
		Regions: []string{"us-east-1", "us-east-2", "us-west-2"}},
	{Name: "p4de.24xlarge", AcceleratorMaker: "NVIDIA", AcceleratorModel: "A100", Accelerators: 8, AcceleratorGiB: 80, VCPUs: 96, MemoryGiB: 1152, NetworkGbps: 400, Instances: 1,
		Regions: []string{"us-east-1", "us-west-2"}},
	{Name: "p5.4xlarge", AcceleratorMaker: "NVIDIA", AcceleratorModel: "H100", Accelerators: 1, AcceleratorGiB: 80, VCPUs: 16, MemoryGiB: 256, NetworkGbps: 100, Instances: 1,
		Regions: []string{"us-east-1", "us-east-2", "us-west-2", "ap-northeast-1"}},
	{Name: "p5.48xlarge", AcceleratorMaker: "NVIDIA", AcceleratorModel: "H100", Accelerators: 8, AcceleratorGiB: 80, VCPUs: 192, MemoryGiB: 2048, NetworkGbps: 3200, Instances: 1,
		Regions: []string{"us-east-1", "us-east-2", "us-west-2", "eu-north-1", "eu-west-2", "ap-northeast-1", "ap-south-1", "ap-southeast-2"}},
	{Name: "p5e.48xlarge", AcceleratorMaker: "NVIDIA", AcceleratorModel: "H200", Accelerators: 8, AcceleratorGiB: 141, VCPUs: 192, MemoryGiB: 2048, NetworkGbps: 3200, Instances: 1,
		Regions: []string{"us-east-2", "us-west-2"}},
	{Name: "p5en.48xlarge", AcceleratorMaker: "NVIDIA", AcceleratorModel: "H200", Accelerators: 8, AcceleratorGiB: 141, VCPUs: 192, MemoryGiB: 2048, NetworkGbps: 3200, Instances: 1,
		Regions: []string{"us-east-1", "us-east-2", "us-west-2", "eu-north-1", "eu-west-2", "ap-northeast-1", "ap-south-1"}},
	{Name: "p6-b200.48xlarge", AcceleratorMaker: "NVIDIA", AcceleratorModel: "B200", Accelerators: 8, AcceleratorGiB: 179, VCPUs: 192, MemoryGiB: 2048, NetworkGbps: 3200, Instances: 1,
		Regions: []string{"us-east-1", "us-east-2", "us-west-2", "eu-north-1", "ap-south-1"}},
	{Name: "p6-b300.48xlarge", AcceleratorMaker: "NVIDIA", AcceleratorModel: "B300", Accelerators: 8, AcceleratorGiB: 268, VCPUs: 192, MemoryGiB: 4096, NetworkGbps: 6400, Instances: 1,
		Regions: []string{"us-east-1", "us-west-2"}},
	{Name: "trn1.32xlarge", AcceleratorMaker: "AWS", AcceleratorModel: "Trainium", Accelerators: 16, AcceleratorGiB: 32, VCPUs: 128, MemoryGiB: 512, NetworkGbps: 800, Instances: 1,
		Regions: []string{"us-east-1", "us-east-2", "us-west-2", "ap-southeast-2"}},
	{Name: "trn2.48xlarge", AcceleratorMaker: "AWS", AcceleratorModel: "Trainium2", Accelerators: 16, AcceleratorGiB: 96, VCPUs: 192, MemoryGiB: 2048, NetworkGbps: 3200, Instances: 1,
		Regions: []string{"us-east-2", "us-west-2"}},
	// P6e-GB200 UltraServers: 9 or 18 p6e-gb200.36xlarge instances of 4 GB200 GPUs each,
	// sold in the Dallas Local Zone of us-east-1 only.
	{Name: "u-p6e-gb200x36", AcceleratorMaker: "NVIDIA", AcceleratorModel: "GB200", Accelerators: 36, AcceleratorGiB: 185, VCPUs: 9 * 144, MemoryGiB: 9 * 960, NetworkGbps: 9 * 1600, UltraServer: true, Instances: 9, MemberType: "p6e-gb200.36xlarge",
		Regions: []string{"us-east-1"}},
	{Name: "u-p6e-gb200x72", AcceleratorMaker: "NVIDIA", AcceleratorModel: "GB200", Accelerators: 72, AcceleratorGiB: 185, VCPUs: 18 * 144, MemoryGiB: 18 * 960, NetworkGbps: 18 * 1600, UltraServer: true, Instances: 18, MemberType: "p6e-gb200.36xlarge",
		Regions: []string{"us-east-1"}},
}

// Catalog returns every instance type Capacity Blocks sell, in a stable order.
func Catalog() []InstanceType {
	out := make([]InstanceType, len(catalog))
	copy(out, catalog)
	return out
}

// LookupType finds a type of the catalog by its exact name.
func LookupType(name string) (InstanceType, bool) {
	for _, t := range catalog {
		if t.Name == name {
			return t, true
		}
	}
	return InstanceType{}, false
}

// Sells reports whether Capacity Blocks of the type are sold in the region.
func (t InstanceType) Sells(region string) bool {
	for _, r := range t.Regions {
		if r == region {
			return true
		}
	}
	return false
}

// RegionsSelling returns, sorted, every region that sells at least one of the types.
func RegionsSelling(types ...string) []string {
	seen := map[string]bool{}
	for _, name := range types {
		if t, ok := LookupType(name); ok {
			for _, r := range t.Regions {
				seen[r] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for r := range seen {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// Regions returns every region where any Capacity Block type is sold, sorted.
func Regions() []string {
	names := make([]string, len(catalog))
	for i, t := range catalog {
		names[i] = t.Name
	}
	return RegionsSelling(names...)
}
