// Package ec2sim emulates the EC2 Capacity Blocks API (and STS GetCallerIdentity) over HTTP,
// speaking the EC2 Query protocol exactly as the real aws-sdk-go-v2 clients do. It is the
// demo backend of gpublock, the backend of its tests, and `gpublock sim` for other tools.
//
// Clients reach it only through an SDK pointed at its URL (BaseEndpoint); the region of a
// request is the one in its SigV4 credential scope, and state is kept per region. The market
// is deterministic from Options.Seed and the emulator's clock, which tests and demos control
// with SetTime/Advance or the /_sim/clock control endpoint.
//
// Choices where AWS is silent or unconfirmed (see shared/reference/ec2-capacity-blocks.md §6):
//   - totalInstanceCount is the purchased count in every state; availableInstanceCount is 0
//     until the block is active, and the count is also in the
//     aws:ec2capacityreservation:incrementalRequestedQuantity tag.
//   - the 256-instance limit counts non-expired blocks of the region (AWS quotas are
//     regional) and is reported as InstanceLimitExceeded (HTTP 400).
//   - a region the emulator does not serve is answered with AuthFailure (HTTP 401).
//   - offering IDs are cbr-…, extension offering IDs cbe-…, 17 hex digits each; unknown,
//     malformed and spent extension offerings reuse the InvalidCapacityBlockOfferingId* codes.
//   - extending a block that is not active or scheduled, has an unpaid extension, or is
//     outside AWS's window (56 days to 1 hour before its end) is IncorrectState (HTTP 400).
//   - launching into an expired block, or in its last 30 minutes, is InvalidLaunchTargets;
//     an unknown cb-… ID is InvalidCapacityBlockId.NotFound.
//   - payment takes 1–5 minutes of emulator time and always succeeds (no payment-failed);
//     instances are pending for 45 s and shutting-down for 1 min, holding their slot
//     until terminated; terminated instances stay visible for an hour.
//   - a near-term offering (starting within the hour) ends at the 11:30 UTC boundary that
//     brings its length closest to the asked one, and the boundary on the other side is
//     offered too, the closer first, each in its cheapest zone.
//   - base prices are the newest published Capacity Block rates of the embedded pricing
//     catalog (pricing.Embedded), never a refreshed cache, so the market stays deterministic.
//   - unknown parameters of the Capacity Block actions are UnknownParameter; RunInstances
//     and the general describe calls accept any parameter.
package ec2sim
