package ec2sim

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gpublock/gpublock/model"
)

func init() {
	ec2Actions["DescribeInstanceTypes"] = guarded(describeInstanceTypes)
}

// typeInfo is what DescribeInstanceTypes says of a type the market sells. The figures
// come from the catalog (vCPUs, memory, accelerators, network); those it does not hold
// are the emulator's approximations of AWS's: a network card per 100 Gbps (at most 32),
// two interfaces per card, EFA on every card, 8 local NVMe disks of 3,800 GB on the
// 48xlarge and 24xlarge types.
type typeInfo struct {
	name     string
	t        model.InstanceType // per instance: an UltraServer's member figures
	inRegion bool
}

// instanceTypesIn are the instance types sold in region (UltraServers by their member
// type), or every one with all, in the catalog's order.
func instanceTypesIn(region string, all bool) []typeInfo {
	var out []typeInfo
	seen := map[string]bool{}
	for _, t := range model.Catalog() {
		name := t.Name
		if t.UltraServer {
			name = t.MemberType
			n := t.Instances
			t.Accelerators, t.VCPUs, t.MemoryGiB, t.NetworkGbps = t.Accelerators/n, t.VCPUs/n, t.MemoryGiB/n, t.NetworkGbps/n
		}
		in := t.Sells(region)
		if seen[name] || !in && !all {
			continue
		}
		seen[name] = true
		out = append(out, typeInfo{name: name, t: t, inRegion: in})
	}
	return out
}

func (ti typeInfo) neuron() bool { return ti.t.AcceleratorMaker == "AWS" }

func (ti typeInfo) cards() int { return max(1, min(32, ti.t.NetworkGbps/100)) }

func (ti typeInfo) storageGB() int {
	if strings.HasSuffix(ti.name, ".48xlarge") || strings.HasSuffix(ti.name, ".24xlarge") {
		return 8 * 3800
	}
	return 3800
}

// field answers DescribeInstanceTypes' filters.
func (ti typeInfo) field(name string) []string {
	switch name {
	case "instance-type":
		return []string{ti.name}
	case "current-generation", "instance-storage-supported", "network-info.efa-supported", "network-info.ipv6-supported",
		"network-info.encryption-in-transit-supported", "auto-recovery-supported", "dedicated-hosts-supported":
		return []string{"true"}
	case "bare-metal", "burstable-performance-supported", "free-tier-eligible", "hibernation-supported":
		return []string{"false"}
	case "hypervisor":
		return []string{"nitro"}
	case "supported-usage-class":
		return usageClasses
	case "supported-root-device-type":
		return []string{"ebs"}
	case "supported-virtualization-type":
		return []string{"hvm"}
	case "supported-boot-mode":
		return []string{"uefi"}
	case "processor-info.supported-architecture":
		return []string{architecture(ti.name)}
	case "vcpu-info.default-vcpus":
		return []string{strconv.Itoa(ti.t.VCPUs)}
	case "vcpu-info.default-cores":
		return []string{strconv.Itoa(ti.t.VCPUs / 2)}
	case "vcpu-info.default-threads-per-core", "vcpu-info.valid-threads-per-core":
		return []string{"2"}
	case "memory-info.size-in-mib":
		return []string{strconv.Itoa(ti.t.MemoryGiB * 1024)}
	case "network-info.network-performance":
		return []string{networkPerformance(ti.t.NetworkGbps)}
	case "network-info.maximum-network-cards":
		return []string{strconv.Itoa(ti.cards())}
	case "network-info.maximum-network-interfaces":
		return []string{strconv.Itoa(2 * ti.cards())}
	case "network-info.efa-info.maximum-efa-interfaces":
		return []string{strconv.Itoa(ti.cards())}
	case "network-info.ena-support":
		return []string{"required"}
	case "instance-storage-info.total-size-in-gb":
		return []string{strconv.Itoa(ti.storageGB())}
	case "instance-storage-info.disk.type":
		return []string{"ssd"}
	case "instance-storage-info.nvme-support", "ebs-info.nvme-support":
		return []string{"required"}
	case "ebs-info.ebs-optimized-support":
		return []string{"default"}
	case "nitro-enclaves-support", "nitro-tpm-support":
		return []string{"supported"}
	}
	return nil // the rest: figures the emulator does not keep, which match nothing
}

// usageClasses: every type Capacity Blocks sell is also sold on demand and as Spot.
var usageClasses = []string{"on-demand", "spot", "capacity-block"}

func networkPerformance(gbps int) string { return fmt.Sprintf("%d Gigabit", gbps) }

func describeInstanceTypes(s *Server, c *call) (*xmlBody, *apiError) {
	names, e := c.form.list("InstanceType")
	if e != nil {
		return nil, e
	}
	if len(names) > 100 {
		return nil, badParam("%d instance types given; DescribeInstanceTypes takes at most 100.", len(names))
	}
	fs, e := c.form.knownFilters(filtersOf(c.action)...)
	if e != nil {
		return nil, e
	}
	all, e := c.form.optBool("IncludeUnsupportedInRegion")
	if e != nil {
		return nil, e
	}
	if c.form.has("MaxResults") && len(names) > 0 {
		return nil, errf(http.StatusBadRequest, "InvalidParameterCombination", "The parameter instanceTypes cannot be used with the parameter maxResults")
	}
	if _, set, e := c.form.optInt("MaxResults", 5, 100); set && e != nil {
		return nil, e
	}
	known := instanceTypesIn(c.region, all)
	items := known
	if len(names) > 0 {
		// AWS knows every EC2 type; the emulator only those it sells, and answers any other
		// as AWS answers a type that does not exist.
		var missing []string
		items = nil
		for _, n := range names {
			i := slices.IndexFunc(known, func(ti typeInfo) bool { return ti.name == n })
			if i < 0 {
				missing = append(missing, n)
				continue
			}
			items = append(items, known[i])
		}
		if len(missing) > 0 {
			return nil, errf(http.StatusBadRequest, "InvalidInstanceType", "The following supplied instance types do not exist: [%s]", strings.Join(missing, ", "))
		}
	}
	hits := matching(items, fs, func(ti typeInfo, name string) []string { return ti.field(name) })
	return pageSet(s, c, hits, 5, "instanceTypeSet", writeInstanceType)
}

func writeInstanceType(x *xmlBody, ti typeInfo) {
	t := ti.t
	list := func(name string, vals ...string) {
		x.open(name)
		for _, v := range vals {
			x.str("item", v)
		}
		x.close(name)
	}
	x.open("item")
	x.str("instanceType", ti.name)
	x.bool("currentGeneration", true)
	x.bool("freeTierEligible", false)
	list("supportedUsageClasses", usageClasses...)
	list("supportedRootDeviceTypes", "ebs")
	list("supportedVirtualizationTypes", "hvm")
	x.bool("bareMetal", false)
	x.str("hypervisor", "nitro")
	x.open("processorInfo")
	list("supportedArchitectures", architecture(ti.name))
	x.close("processorInfo")
	x.open("vCpuInfo")
	x.int("defaultVCpus", t.VCPUs)
	x.int("defaultCores", t.VCPUs/2)
	x.int("defaultThreadsPerCore", 2)
	list("validThreadsPerCore", "1", "2")
	x.close("vCpuInfo")
	x.open("memoryInfo")
	x.int("sizeInMiB", t.MemoryGiB*1024)
	x.close("memoryInfo")
	x.bool("instanceStorageSupported", true)
	x.open("instanceStorageInfo")
	x.int("totalSizeInGB", ti.storageGB())
	x.open("disks")
	x.open("item")
	x.int("sizeInGB", 3800)
	x.int("count", ti.storageGB()/3800)
	x.str("type", "ssd")
	x.close("item")
	x.close("disks")
	x.str("nvmeSupport", "required")
	x.str("encryptionSupport", "required")
	x.close("instanceStorageInfo")
	x.open("ebsInfo")
	x.str("ebsOptimizedSupport", "default")
	x.str("encryptionSupport", "supported")
	x.str("nvmeSupport", "required")
	x.close("ebsInfo")
	x.open("networkInfo")
	x.str("networkPerformance", networkPerformance(t.NetworkGbps))
	x.int("maximumNetworkInterfaces", 2*ti.cards())
	x.int("maximumNetworkCards", ti.cards())
	x.int("defaultNetworkCardIndex", 0)
	x.open("networkCards")
	for i := 0; i < ti.cards(); i++ {
		x.open("item")
		x.int("networkCardIndex", i)
		x.str("networkPerformance", networkPerformance(t.NetworkGbps/ti.cards()))
		x.int("maximumNetworkInterfaces", 2)
		x.close("item")
	}
	x.close("networkCards")
	x.int("ipv4AddressesPerInterface", 50)
	x.int("ipv6AddressesPerInterface", 50)
	x.bool("ipv6Supported", true)
	x.str("enaSupport", "required")
	x.bool("efaSupported", true)
	x.open("efaInfo")
	x.int("maximumEfaInterfaces", ti.cards())
	x.close("efaInfo")
	x.bool("encryptionInTransitSupported", true)
	x.close("networkInfo")
	if ti.neuron() {
		x.open("neuronInfo")
		x.open("neuronDevices")
		x.open("item")
		x.int("count", t.Accelerators)
		x.str("name", t.AcceleratorModel)
		x.open("memoryInfo")
		x.int("sizeInMiB", t.AcceleratorGiB*1024)
		x.close("memoryInfo")
		x.close("item")
		x.close("neuronDevices")
		x.int("totalNeuronDeviceMemoryInMiB", t.Accelerators*t.AcceleratorGiB*1024)
		x.close("neuronInfo")
	} else {
		x.open("gpuInfo")
		x.open("gpus")
		x.open("item")
		x.str("name", t.AcceleratorModel)
		x.str("manufacturer", t.AcceleratorMaker)
		x.int("count", t.Accelerators)
		x.open("memoryInfo")
		x.int("sizeInMiB", t.AcceleratorGiB*1024)
		x.close("memoryInfo")
		x.close("item")
		x.close("gpus")
		x.int("totalGpuMemoryInMiB", t.Accelerators*t.AcceleratorGiB*1024)
		x.close("gpuInfo")
	}
	x.open("placementGroupInfo")
	list("supportedStrategies", "cluster", "partition", "spread")
	x.close("placementGroupInfo")
	x.bool("hibernationSupported", false)
	x.bool("burstablePerformanceSupported", false)
	x.bool("dedicatedHostsSupported", true)
	x.bool("autoRecoverySupported", true)
	list("supportedBootModes", "uefi")
	x.str("nitroEnclavesSupport", "supported")
	x.str("nitroTpmSupport", "supported")
	x.bool("supportedInRegion", ti.inRegion)
	x.close("item")
}
