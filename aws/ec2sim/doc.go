// Package ec2sim emulates the EC2 Capacity Blocks API over HTTP, speaking the EC2 Query
// protocol exactly as the real aws-sdk-go-v2 clients do. It is the demo backend of
// gpublock, the backend of its tests, and `gpublock sim` for other tools. EC2 is one
// handler on the emulator's core (aws/simcore: clock, faults, buckets, state file); New
// assembles the emulator from the core and its handlers: STS GetCallerIdentity
// (aws/stssim), the Price List (aws/pricelistsim), Options.Protocols (SageMaker:
// aws/sagemakersim), CloudWatch's metrics of the Capacity Reservations (aws/cloudwatchsim,
// made from EC2's state) and EC2, which answers whatever no other handler claims.
//
// Clients reach it only through an SDK pointed at its URL (BaseEndpoint); the region of a
// request is the one in its SigV4 credential scope, and state is kept per region. A
// request without a SigV4 Authorization header is refused with MissingAuthenticationToken
// (HTTP 403), as AWS refuses it; the signature itself is not checked. The market
// is deterministic from Options.Seed and the emulator's clock, which tests and demos control
// with SetTime/Advance or the /_sim/clock control endpoint.
//
// Choices where AWS is silent or unconfirmed (see shared/reference/ec2-capacity-blocks.md §6):
//   - totalInstanceCount is the purchased count in every state; availableInstanceCount is 0
//     until the block is active, and the count is also in the
//     aws:ec2capacityreservation:incrementalRequestedQuantity tag.
//   - the 256-instance limit counts the blocks of the region that are neither expired nor
//     payment-failed (AWS quotas are regional) and is reported as InstanceLimitExceeded (HTTP 400).
//   - the regions served are exactly those where gpublock's catalog says Capacity Blocks are
//     sold (model.Regions); AWS answers the API in other regions too, with nothing on sale,
//     but the emulator answers a request signed for one with UnsupportedOperation
//     (HTTP 400) naming the regions served, and refuses it as a default region or a down=
//     fault, so a demo cannot point at a region gpublock never searches. (A region that
//     does not exist is, on AWS, an endpoint that does not resolve, and one not enabled
//     AuthFailure; a client error that names the regions is clearer than either, is not
//     retried, and is not taken for a credentials problem.) STS answers in any region, as
//     its regional endpoints do. us-west-1, served before, is no longer.
//   - a request in AWS's JSON protocol (Content-Type application/x-amz-json-1.x) that no
//     served service's X-Amz-Target claims is UnknownOperationException (HTTP 400) in
//     JSON, never EC2's XML.
//   - offering IDs are cbr-…, extension offering IDs cbe-…, 17 hex digits each; unknown,
//     malformed and spent extension offerings reuse the InvalidCapacityBlockOfferingId* codes.
//   - extending a block that is not active or scheduled, has an unpaid extension, or is
//     outside AWS's window (56 days to 1 hour before its end) is IncorrectState (HTTP 400).
//   - launching into an expired block, or in its last 30 minutes, is InvalidLaunchTargets;
//     an unknown cb-… ID is InvalidParameterValue (no code is documented for it).
//   - every error code answered is one of EC2's documented codes
//     (docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html; a test checks).
//   - payment takes 1–5 minutes of emulator time (Options.PaymentDelay, `gpublock sim
//     --payment-delay`, chooses a time or a range up to AWS's 12 hours; a payment that
//     would come after 5 minutes before the block's start, or 35 minutes before its end
//     for an extension, comes at that deadline) and succeeds, unless the payfail=N fault
//     is on: then each of the next N purchases answers payment-pending as usual and
//     becomes payment-failed when its payment would have been taken. payment-failed is
//     final (never scheduled, active nor expired, also after the end date); the block stays
//     listed by DescribeCapacityReservations and DescribeCapacityBlocks in that state,
//     with availableInstanceCount 0 and its purchased totalInstanceCount; its capacity goes
//     back to the market (AWS "releases" it) and no longer counts towards the 256-instance
//     limit; launching into it is InvalidLaunchTargets, extending it IncorrectState.
//     An extension bought under payfail shows payment-failed in the extension history; the
//     block keeps its end and can be extended again, and the extension's capacity is
//     released. Failure comes when the payment would have been taken (1–5 minutes), not
//     at AWS's 12-hour or 5-minutes-before-start (35 minutes before the end, for an
//     extension) deadline; a purchase whose reply is lost (lost-reply) still counts as one
//     of the N, and a DryRun or a refused purchase does not.
//   - instances are pending for 45 s and shutting-down for 1 min, holding their slot
//     until terminated; terminated instances stay visible for an hour.
//   - CloudWatch's UsedInstanceCount counts an instance from its launch until it is
//     terminated (pending and shutting-down included, as AvailableInstanceCount does);
//     each five-minute value is the exact time-weighted average over its five minutes, so
//     that hourly averages add up to the instance-hours launched. The instances stay in
//     the state (and the state file) after they are no longer shown, as the history the
//     metrics are read from.
//   - the deny=ACTION fault (or deny=all) answers the named EC2 actions with
//     UnauthorizedOperation, HTTP 403, "You are not authorized to perform this operation."
//     (reference §2.4: no encoded authorization message is given there, so none is sent).
//     A denied action is validated first and refused where it would have succeeded, or,
//     with DryRun, where it would have answered DryRunOperation, so a dry run learns that
//     it is not allowed exactly as from AWS; nothing is changed. STS GetCallerIdentity
//     needs no permission in AWS and is never denied.
//   - the account is Options.Account (`gpublock sim --account`, 123456789012 by default):
//     STS's identity, every ownerId, owner-id filter and ARN, EC2's and SageMaker's, so
//     that two emulators are two accounts. Request buckets are per emulator (one account
//     each). A training plan keeps the account of the ARN it was bought with, should a
//     state file be reopened with another account.
//   - the quota=FAMILY fault makes that instance family's Capacity Block quota 0
//     (model.Family: trn2, p5, p6e-gb200 for the GB200 UltraServers):
//     DescribeCapacityBlockOfferings of it answers CapacityBlockDescribeLimitExceeded,
//     HTTP 400, "You've reached the limit for this account." (reference §2), after the
//     type and count are validated and before the dates (the order is unconfirmed), as
//     AWS does for an account whose "Concurrent TRN2 Capacity Blocks per account" is 0.
//     It is no throttle: it spends a request token and is not retried.
//   - a state change that cannot be saved (a value the state file cannot hold) is undone
//     by reading the file back and answered InternalError; it leaves nothing that would
//     fail the next save.
//   - a near-term offering (starting within the hour) ends at the 11:30 UTC boundary that
//     brings its length closest to the asked one, and the boundary on the other side is
//     offered too, the closer first, each in its cheapest zone.
//   - base prices are the newest published Capacity Block rates of the embedded pricing
//     catalog (pricing.Embedded), never a refreshed cache, so the market stays deterministic.
//   - with a state file, every request holds the file's lock (flock on FILE.lock) from
//     reloading what another emulator saved to saving its own change, so emulators on one
//     file neither lose purchases nor hand out an id twice; a change that cannot be saved
//     is undone and answered InternalError (HTTP 500). Without flock (Windows) run one
//     emulator per file.
//   - the account has Amazon's public images (the same IDs in every region; AMI IDs are
//     regional in AWS), its default VPC's default security group, the key pairs it creates,
//     and two Local Zones of us-east-1: Dallas (GB200 UltraServers; opted in) and Atlanta
//     (p5; not opted in: its offerings need AllAvailabilityZones, its subnets and launches
//     ModifyAvailabilityZoneGroup). Offerings there have ZoneType local-zone (the value is
//     unconfirmed). The codes AWS answers for a launch whose type, platform or zone does
//     not fit its block are not documented: the emulator answers InvalidParameterValue, or
//     InvalidParameterCombination for the platform.
//   - DescribeCapacityBlockOfferings takes exactly one of InstanceTypePreference.N.InstanceType
//     (service/ec2 v1.349.0), the legacy InstanceType, or UltraserverType: two of them is
//     InvalidParameterCombination, none MissingParameter, a type given twice, one Capacity
//     Blocks do not sell, an UltraServer type among the preferences, or more than
//     maxTypePreferences (20: AWS documents no maximum, this is the emulator's
//     assumption) InvalidParameterValue. A type sold in other regions only answers no
//     offering of it, as its search alone does. Each type gets the up to 6 offerings its
//     search alone would (unconfirmed); with Options.CapAcrossTypes the cap of 6 holds for
//     the call across its types instead: each type's offerings are merged by start, then
//     fee, and cut at 6, so an answer of fewer than 6 holds every offering the searches of
//     each type alone would answer, and one of exactly 6 may have been cut.
//     Preference order does not rank the answer (unconfirmed). One call is one token of
//     the bucket whatever its types.
//   - an offering is segmented (capacityBlockOfferingSegmentSet) when the count asked is
//     more than any single zone holds for a window but the region's zones together hold
//     it: parallel segments in the zones with the most free, the largest first, each with
//     its own count and fee; never for UltraServers. When AWS splits an offering is not
//     documented. The top-level fields describe the whole: the fee is the exact sum of the
//     segments' fees, the count their sum, the start the earliest and the end the latest;
//     the zone (and zone id and type) is the first segment's, the one with the most
//     instances. A plain offering has no segment set.
//   - a window over two weeks (minConsecutiveLength) that no zone holds the count over, nor
//     the zones together, is offered as consecutive segments when zones hold it in turn:
//     the whole count in one zone for the longest run of market days it holds from the
//     window's start, then in another from the day that run ends, and so on, at most
//     maxConsecutiveSegments; each priced as a block of its own. The top-level fields are
//     the whole: the first segment's start and zone, the last one's end, the count asked,
//     the fee and the duration the segments' sums. When AWS makes consecutive segments is
//     not documented.
//   - a purchase makes one reservation (and one Capacity Block) per segment, each tagged
//     as asked and extendable on its own, paid by one payment (they are scheduled, or
//     payment-failed, together); the reply has them all in capacityReservationSet and
//     capacityBlockSet, and the first segment's in capacityReservation (AWS does not say
//     which). A plain purchase answers its one reservation in both.
//   - ids are derived from the account as well (but the demo account's, unchanged), so two
//     emulators that differ only in --account hand out different ids, as AWS's are unique.
//   - DescribeInstanceTypes answers the instance types the market sells in the region (an
//     UltraServer's by its member type, p6e-gb200.36xlarge), with every one of them with
//     IncludeUnsupportedInRegion; the figures a scheduler reads (vCPUs, memory, GPUs or
//     Neuron devices, architecture, usage classes with capacity-block, EFA and network
//     cards) come from the catalog, those it does not hold (cards, interfaces, local
//     disks) are approximations (action_types.go). Any other type, real on AWS or not, is
//     InvalidInstanceType: the emulator does not know it.
//   - CreateLaunchTemplate, DescribeLaunchTemplates and DeleteLaunchTemplate keep
//     templates of one version, names checked as AWS documents (3 to 128 of
//     [a-zA-Z0-9().-/_]: InvalidLaunchTemplateName.MalformedException; taken:
//     .AlreadyExistsException), ClientToken idempotent, the market type, tenancy and a
//     targeted reservation's id form checked, its existence not (AWS checks it at launch).
//     RunInstances launches from one (LaunchTemplate.LaunchTemplateId or
//     .LaunchTemplateName, exactly one; Version $Latest, $Default or 1, any other
//     InvalidLaunchTemplateId.VersionNotFound): the request's parameters overwrite the
//     template's, a structure's member by member, a list (SecurityGroupId.N,
//     TagSpecification.N, NetworkInterface.N, ...) whole, never mixed; every rule of a
//     launch applies to the merged parameters.
//   - tenancy: from a week ahead, a few market days of each instance type (12%, by the seed;
//     never UltraServers) are sold as dedicated-tenancy blocks, every zone alike; which
//     blocks AWS sells dedicated is not documented. A reservation takes only launches of
//     its tenancy (Placement.Tenancy, default when absent): a mismatch is
//     ReservationCapacityExceeded, the code AWS answers a targeted launch without
//     "compatible" capacity (the code for this case is unconfirmed); host tenancy is
//     InvalidParameterCombination (Capacity Reservations cannot use Dedicated Hosts).
//   - unknown parameters of every action are UnknownParameter (the names are the SDK's),
//     and each action accepts exactly its documented filters (filters.go), and tag:KEY and
//     tag-key on DescribeCapacityReservations and DescribeCapacityBlocks as AWS does
//     (Karpenter's lookup sends them); reservation-type, documented nowhere, stays refused.
//   - CreateTags and DeleteTags tag Capacity Reservations, instances and key pairs; every
//     resource is resolved before any is changed (an unknown one changes none: its
//     kind's NotFound or Malformed code; an id of a kind the emulator does not make is
//     InvalidID); aws: keys are refused and never deleted; more than 50 tags is
//     TagLimitExceeded. DeleteTags deletes a tag given with a value (even "") only where
//     it has that value, a key alone whatever its value, and with no Tag.N every tag.
package ec2sim
