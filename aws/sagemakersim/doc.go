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
//     epoch-seconds number, and a member of the wrong JSON type (named by member and JSON
//     type, never by the emulator's Go types).
//   - a timestamp outside 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z (epoch seconds 0 to
//     253402300799) is ValidationException naming the member and the value sent: AWS's
//     bounds are not documented; these are what an ISO 8601 date and the state file hold,
//     so that no request can store a time that breaks the next save.
//   - only a window given at both ends can be empty (ValidationException); a lone
//     EndTimeBefore in the past finds nothing. An offering's id holds the window of the
//     search that gave it, so RequestedStartTimeAfter/RequestedEndTimeBefore are always
//     that search's.
//   - a TargetResources list naming a resource twice, and InstanceCount given with
//     UltraServerType, are ValidationException (the stricter reading).
//   - CreateTrainingPlan: SpareInstanceCountPerUltraServer is 0 to the UltraServer's
//     instances less one (17 for ml.u-p6e-gb200x72, 8 for x36), and only for UltraServer
//     offerings; tag keys starting with aws: (any case) and keys given twice are
//     ValidationException.
//   - ListTags answers a plan's tags, none for one of its reserved capacities, and
//     ResourceNotFound for an ARN of nothing held (AWS does not say; an empty list would
//     claim the resource exists). AddTags and DeleteTags change a plan's tags; tagging a
//     reserved capacity is ValidationException (the emulator keeps no tags there, and a
//     call it cannot keep must not look kept), as is more than 50 tags on a plan (AWS's
//     quota; the code it answers is UNCONFIRMED).
//   - ExtendTrainingPlan checks no pattern on TrainingPlanExtensionOfferingId (the model
//     has none): an id no search gave is ResourceNotFound.
//   - a request with no X-Amz-Target, or one naming an operation of no served service, in
//     the JSON protocol (Content-Type application/x-amz-json-1.x, or signed for
//     sagemaker) is UnknownOperationException (HTTP 400) in JSON, never EC2's XML.
//   - a region the emulator does not serve is UnknownOperationException (HTTP 400) "The
//     operation … is not supported in the called region", naming the regions served: on
//     AWS it is an endpoint that does not resolve, and the emulator, one endpoint for
//     every region, answers a client error no SDK retries and no one reads as a
//     credentials problem.
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
//   - plan and reserved-capacity ARNs are in the emulator's account (Options.Account,
//     `gpublock sim --account`); a plan keeps the account of the ARN it was bought with.
//   - request token buckets per account, region and operation, from the emulator's
//     RateLimits (apilimit.SageMaker: a guess, AWS publishes no rates for these operations),
//     answer ThrottlingException (HTTP 400) when empty; --rate-limits off turns them off
//     with EC2's. GET /_sim/limits?service=sagemaker gives them to a client.
package sagemakersim
