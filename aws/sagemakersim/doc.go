// Package sagemakersim teaches the emulator SageMaker Training Plans: the awsJson1_1
// protocol at POST / with X-Amz-Target: SageMaker.<Operation>, a handler on the emulator's
// core (aws/simcore), on the same port, clock, seed, faults and state file as EC2, mounted
// with one registration:
//
//	ec2sim.New(ec2sim.Options{…, Protocols: []ec2sim.Protocol{sagemakersim.Protocol()}})
//
// It follows shared/reference/sagemaker-training-plans.md. Choices where AWS is silent or
// the reference says UNCONFIRMED (each the stricter or the safer reading):
//   - a search needs DurationHours, TargetResources and InstanceType (or UltraServerType);
//     a type the region does not offer is ValidationException "Invalid instance type ml.X",
//     a count outside 1, 2, 4 … 64 "Invalid instance count N for instance type ml.X";
//     lengths are whole days, 1 to 182.
//   - unknown request members are SerializationException; so is a timestamp that is not an
//     epoch-seconds number.
//   - plans start at the 11:30 UTC day boundary and up to 8 weeks ahead, as Capacity Blocks;
//     at most three offerings per search; a third are split into 2–5 reserved capacities
//     with gaps of up to two days; prices move around the published EC2 Capacity Block rate
//     of the same type (gpublock's catalog has no training-plan rate). SageMaker's supply
//     is its own pool, apart from EC2's.
//   - offering ids are tpo-/tpeo- and 64 hex digits; an offering is valid until its first
//     capacity starts, and is spent once bought (ResourceNotFound afterwards).
//   - the plan name is unique per region among all plans, expired and failed ones too.
//   - the quota is 128 instances of a type per region in plans neither expired nor failed
//     (ResourceLimitExceeded).
//   - payment is taken after the emulator's payment delay (1–5 minutes unless set) from
//     CreateTrainingPlan or ExtendTrainingPlan, and at the latest by the EC2 side's
//     deadlines (5 minutes before the plan starts, 35 before an extension does); under
//     payfail=N it fails instead: the plan is Failed (final, StatusMessage says why) and its
//     capacity goes back on sale; a failed extension shows Status and PaymentStatus Failed
//     and leaves the end unchanged.
//   - a plan's DurationHours is the sum of its capacities' hours, paid extensions included;
//     its UpfrontFee stays the purchase's fee (extensions carry theirs in the history).
//   - a paid extension lengthens the last reserved capacity. Only a Scheduled or Active plan
//     without an unpaid extension can be extended (ValidationException otherwise, also for
//     an unknown plan ARN in a search, which models no ResourceNotFound). At most one
//     extension offering is given per length, in the last capacity's zone, and sometimes
//     none (capacity is not guaranteed).
//   - ListTrainingPlans sorts by StartTime, newest first, unless asked; several Status
//     filters must all hold; pages are 10 by default (DescribeTrainingPlanExtensionHistory
//     and ListUltraServersByReservedCapacity too); a NextToken not issued here is a
//     ValidationException.
//   - UltraServer types: ml.u-p6e-gb200x72 (18 × ml.p6e-gb200.36xlarge) and
//     ml.u-p6e-gb200x36 (9), one spare instance per UltraServer by default.
//   - faults: throttle is ThrottlingException (HTTP 400), error InternalFailure (500), down
//     ServiceUnavailable (503), deny=<Operation> AccessDeniedException (400, after
//     validation); lost-reply commits CreateTrainingPlan/ExtendTrainingPlan and answers 500;
//     sold makes the offering gone at purchase (ResourceNotFound).
//   - a request signed for another service than sagemaker is InvalidSignatureException (403).
//   - request token buckets per account, region and operation, from the emulator's
//     RateLimits (apilimit.SageMaker: a guess, AWS publishes no rates for these operations),
//     answer ThrottlingException (HTTP 400) when empty; --rate-limits off turns them off
//     with EC2's. GET /_sim/limits?service=sagemaker gives them to a client.
package sagemakersim
