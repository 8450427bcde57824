package apilimit

// SageMakerSource says where SageMaker's figures come from: nowhere public. AWS documents
// no request rates for the training-plan operations (the SageMaker quotas page lists
// resource counts, not request buckets; searched 2026-12-01), so SageMaker() is a guess.
const SageMakerSource = "a guess: AWS publishes no request rates for SageMaker's training-plan operations (checked 2026-12-01)"

// SageMaker is the request token buckets the emulator keeps for SageMaker's training-plan
// operations, per account, region and operation, and the client paces itself by. AWS
// publishes none (SageMakerSource), so these are a guess, chosen on the conservative side:
// a client that lives within a smaller bucket than AWS's loses only speed, while one that
// counts on a larger bucket gets throttled. The search and both purchases take the figures
// of their EC2 twins, the Capacity Block actions (10 at once, then 0.15 per second), which
// sell from the same kind of scarce, expensive pool; the reads and the tagging operations
// take a bucket a fifth of EC2's non-mutating one (20, then 2 per second).
func SageMaker() Table {
	capacity := Limit{10, 0.15}
	read := Limit{20, 2}
	return Table{
		Actions: map[string]Limit{
			"SearchTrainingPlanOfferings":          capacity,
			"CreateTrainingPlan":                   capacity,
			"ExtendTrainingPlan":                   capacity,
			"DescribeTrainingPlan":                 read,
			"ListTrainingPlans":                    read,
			"DescribeTrainingPlanExtensionHistory": read,
			"DescribeReservedCapacity":             read,
			"ListUltraServersByReservedCapacity":   read,
			"ListTags":                             read,
			"AddTags":                              read,
			"DeleteTags":                           read,
		},
		NonMutating: read,
		Unfiltered:  read,
		Mutating:    capacity,
	}
}

// IsZero reports whether the table has no limits at all (a Table left unset).
func (t Table) IsZero() bool {
	return len(t.Actions) == 0 && t.NonMutating == (Limit{}) && t.Unfiltered == (Limit{}) && t.Mutating == (Limit{})
}
