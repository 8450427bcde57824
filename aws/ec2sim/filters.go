package ec2sim

import (
	"net/http"
	"regexp"
	"strings"
	"sync"
)

// documentedFilters are the filters each action's API reference documents (read from the
// SDK's own documentation of the Filters input, aws-sdk-go-v2 service/ec2 v1.347.0, and
// reference/ec2-capacity-blocks.md §1). An action accepts exactly these, and applies every
// one: a filter on something the emulator's resources do not have (an IPv6 address, a
// product code) matches none of them, as on AWS it matches none of resources without it.
// "tag:" stands for every tag:KEY.
var documentedFilters = map[string][]string{
	// No tag filter is documented here: a reservation's tags are matched in the reply.
	"DescribeCapacityReservations": {"instance-type", "owner-id", "instance-platform", "availability-zone", "tenancy", "outpost-arn",
		"state", "start-date", "end-date", "end-date-type", "instance-match-criteria", "placement-group-arn"},
	"DescribeCapacityBlocks": {"capacity-block-id", "ultraserver-type", "availability-zone", "start-date", "end-date", "create-date",
		"state", "tags"},
	"DescribeCapacityBlockStatus": {"interconnect-status"},
	"DescribeCapacityBlockExtensionHistory": {"availability-zone", "availability-zone-id", "capacity-block-extension-offering-id",
		"capacity-block-extension-status", "capacity-reservation-id", "instance-type"},
	"DescribeInstances": {
		"affinity", "architecture", "availability-zone", "availability-zone-id",
		"block-device-mapping.attach-time", "block-device-mapping.delete-on-termination",
		"block-device-mapping.device-name", "block-device-mapping.status",
		"block-device-mapping.volume-id", "boot-mode", "capacity-reservation-id",
		"capacity-reservation-specification.capacity-reservation-preference",
		"capacity-reservation-specification.capacity-reservation-target.capacity-reservation-id",
		"capacity-reservation-specification.capacity-reservation-target.capacity-reservation-resource-group-arn",
		"client-token", "current-instance-boot-mode", "dns-name", "ebs-optimized", "ena-support",
		"enclave-options.enabled", "hibernation-options.configured", "host-id", "hypervisor",
		"iam-instance-profile.arn", "iam-instance-profile.id", "image-id", "instance-id",
		"instance-lifecycle", "instance-state-code", "instance-state-name", "instance-type",
		"instance.group-id", "instance.group-name", "ip-address", "ipv6-address", "kernel-id",
		"key-name", "launch-index", "launch-time", "maintenance-options.auto-recovery",
		"metadata-options.http-endpoint", "metadata-options.http-protocol-ipv4",
		"metadata-options.http-protocol-ipv6", "metadata-options.http-put-response-hop-limit",
		"metadata-options.http-tokens", "metadata-options.instance-metadata-tags",
		"metadata-options.state", "monitoring-state",
		"network-interface.addresses.association.allocation-id",
		"network-interface.addresses.association.association-id",
		"network-interface.addresses.association.carrier-ip",
		"network-interface.addresses.association.customer-owned-ip",
		"network-interface.addresses.association.ip-owner-id",
		"network-interface.addresses.association.public-dns-name",
		"network-interface.addresses.association.public-ip", "network-interface.addresses.primary",
		"network-interface.addresses.private-dns-name", "network-interface.addresses.private-ip-address",
		"network-interface.association.allocation-id", "network-interface.association.association-id",
		"network-interface.association.carrier-ip", "network-interface.association.customer-owned-ip",
		"network-interface.association.ip-owner-id", "network-interface.association.public-dns-name",
		"network-interface.association.public-ip", "network-interface.attachment.attach-time",
		"network-interface.attachment.attachment-id",
		"network-interface.attachment.delete-on-termination",
		"network-interface.attachment.device-index", "network-interface.attachment.instance-id",
		"network-interface.attachment.instance-owner-id",
		"network-interface.attachment.network-card-index", "network-interface.attachment.status",
		"network-interface.availability-zone", "network-interface.deny-all-igw-traffic",
		"network-interface.description", "network-interface.group-id", "network-interface.group-name",
		"network-interface.ipv4-prefixes.ipv4-prefix", "network-interface.ipv6-address",
		"network-interface.ipv6-addresses.ipv6-address",
		"network-interface.ipv6-addresses.is-primary-ipv6", "network-interface.ipv6-native",
		"network-interface.ipv6-prefixes.ipv6-prefix", "network-interface.mac-address",
		"network-interface.network-interface-id", "network-interface.operator.managed",
		"network-interface.operator.principal", "network-interface.outpost-arn",
		"network-interface.owner-id", "network-interface.private-dns-name",
		"network-interface.private-ip-address", "network-interface.public-dns-name",
		"network-interface.requester-id", "network-interface.requester-managed",
		"network-interface.status", "network-interface.source-dest-check", "network-interface.subnet-id",
		"network-interface.tag-key", "network-interface.tag-value", "network-interface.vpc-id",
		"network-performance-options.bandwidth-weighting", "operator.managed", "operator.principal",
		"outpost-arn", "owner-id", "placement-group-name", "placement-partition-number", "platform",
		"platform-details", "private-dns-name",
		"private-dns-name-options.enable-resource-name-dns-a-record",
		"private-dns-name-options.enable-resource-name-dns-aaaa-record",
		"private-dns-name-options.hostname-type", "private-ip-address", "product-code",
		"product-code.type", "ramdisk-id", "reason", "requester-id", "reservation-id",
		"root-device-name", "root-device-type", "source-dest-check", "spot-instance-request-id",
		"state-reason-code", "state-reason-message", "subnet-id", "tag:", "tag-key", "tenancy",
		"tpm-support", "usage-operation", "usage-operation-update-time", "virtualization-type", "vpc-id"},
	"DescribeImages": {
		"architecture", "block-device-mapping.delete-on-termination", "block-device-mapping.device-name",
		"block-device-mapping.snapshot-id", "block-device-mapping.volume-size",
		"block-device-mapping.volume-type", "block-device-mapping.encrypted", "creation-date",
		"description", "ena-support", "free-tier-eligible", "hypervisor", "image-allowed", "image-id",
		"image-watermark.source-image-creation-time", "image-watermark.source-image-id",
		"image-watermark.source-image-region", "image-watermark.watermark-creation-time",
		"image-watermark.watermark-key", "image-type", "is-public", "kernel-id", "manifest-location",
		"name", "owner-alias", "owner-id", "platform", "product-code", "product-code.type",
		"public-ssm-parameter-name", "ramdisk-id", "root-device-name", "root-device-type",
		"scan-result.critical-fix-available-since", "scan-result.finding-scan-date",
		"scan-result.high-fix-available-since", "scan-result.highest-finding-severity-label",
		"scan-result.informational-fix-available-since", "scan-result.low-fix-available-since",
		"scan-result.medium-fix-available-since", "source-image-id", "source-image-region",
		"source-instance-id", "state", "state-reason-code", "state-reason-message", "sriov-net-support",
		"tag:", "tag-key", "virtualization-type"},
	"DescribeSubnets": {
		"availability-zone", "availability-zone-id", "available-ip-address-count", "cidr-block",
		"customer-owned-ipv4-pool", "default-for-az", "enable-dns64", "enable-lni-at-device-index",
		"ipv6-cidr-block-association.ipv6-cidr-block", "ipv6-cidr-block-association.association-id",
		"ipv6-cidr-block-association.state", "ipv6-native", "map-customer-owned-ip-on-launch",
		"map-public-ip-on-launch", "outpost-arn", "owner-id",
		"private-dns-name-options-on-launch.hostname-type",
		"private-dns-name-options-on-launch.enable-resource-name-dns-a-record",
		"private-dns-name-options-on-launch.enable-resource-name-dns-aaaa-record", "state", "subnet-arn",
		"subnet-id", "tag:", "tag-key", "vpc-id"},
	"DescribeSecurityGroups": {
		"description", "egress.ip-permission.cidr", "egress.ip-permission.from-port",
		"egress.ip-permission.group-id", "egress.ip-permission.group-name",
		"egress.ip-permission.ipv6-cidr", "egress.ip-permission.prefix-list-id",
		"egress.ip-permission.protocol", "egress.ip-permission.to-port", "egress.ip-permission.user-id",
		"group-id", "group-name", "ip-permission.cidr", "ip-permission.from-port",
		"ip-permission.group-id", "ip-permission.group-name", "ip-permission.ipv6-cidr",
		"ip-permission.prefix-list-id", "ip-permission.protocol", "ip-permission.to-port",
		"ip-permission.user-id", "owner-id", "tag:", "tag-key", "vpc-id"},
	"DescribeKeyPairs": {"key-pair-id", "fingerprint", "key-name", "tag:", "tag-key"},
	"DescribeAvailabilityZones": {"group-long-name", "group-name", "message", "opt-in-status", "parent-zone-id", "parent-zone-name",
		"region-name", "state", "zone-id", "zone-name", "zone-type"},
	"DescribeRegions": {"endpoint", "opt-in-status", "region-name"},
}

// filtersOf is the action's documented filters; an action that documents none takes none.
func filtersOf(action string) []string { return documentedFilters[action] }

// checkFilters rejects filter names the action does not know, as EC2 does. "tag:" in
// allowed admits every tag:KEY filter.
func checkFilters(fs []filter, allowed ...string) *apiError {
	for _, f := range fs {
		ok := false
		for _, a := range allowed {
			if f.name == a || (a == "tag:" && strings.HasPrefix(f.name, "tag:") && len(f.name) > 4) {
				ok = true
				break
			}
		}
		if !ok {
			if len(allowed) > 12 {
				return errf(http.StatusBadRequest, "InvalidParameterValue", "The filter '%s' is invalid; see this action's API reference for its %d filters.", f.name, len(allowed))
			}
			return errf(http.StatusBadRequest, "InvalidParameterValue", "The filter '%s' is invalid; this action accepts %s.", f.name, strings.Join(allowed, ", "))
		}
		if len(f.values) == 0 {
			return badParam("The filter '%s' has no values; give at least one Filter.N.Value.M.", f.name)
		}
	}
	return nil
}

// matchFilters reports whether an item passes every filter: for each filter, one of the
// item's values for that name matches one of the filter's values (with * and ? wildcards).
func matchFilters(fs []filter, values func(name string) []string) bool {
	for _, f := range fs {
		if !matchAny(f.values, values(f.name)) {
			return false
		}
	}
	return true
}

// matching keeps the items that pass every filter; values answers a filter name for an item.
func matching[T any](items []T, fs []filter, values func(T, string) []string) []T {
	var out []T
	for _, it := range items {
		if matchFilters(fs, func(name string) []string { return values(it, name) }) {
			out = append(out, it)
		}
	}
	return out
}

func matchAny(patterns, vals []string) bool {
	for _, p := range patterns {
		for _, v := range vals {
			if glob(p, v) {
				return true
			}
		}
	}
	return false
}

func glob(pattern, s string) bool {
	if !strings.ContainsAny(pattern, "*?") {
		return pattern == s
	}
	var b strings.Builder
	b.WriteString("^")
	for _, r := range pattern {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	return err == nil && re.MatchString(s)
}

// tagValues answers tag:KEY and tag-key filters from a tag list.
func tagValues(tags []tag, name string) ([]string, bool) {
	if name == "tag-key" {
		out := make([]string, len(tags))
		for i, t := range tags {
			out[i] = t.Key
		}
		return out, true
	}
	if key, ok := strings.CutPrefix(name, "tag:"); ok {
		for _, t := range tags {
			if t.Key == key {
				return []string{t.Value}, true
			}
		}
		return nil, true
	}
	return nil, false
}

// idPattern matches AWS IDs: prefix- and 17 (or the older 8) hex digits.
var idPattern = sync.OnceValue(func() map[string]*regexp.Regexp {
	m := map[string]*regexp.Regexp{}
	for _, p := range []string{"cbr", "cbe", "cr", "cb", "i", "r", "subnet", "vpc", "ami", "sg", "key"} {
		m[p] = regexp.MustCompile("^" + p + "-([0-9a-f]{8}|[0-9a-f]{17})$")
	}
	return m
})

func wellFormed(prefix, id string) bool {
	p, ok := idPattern()[prefix]
	return ok && p.MatchString(id)
}
