// A client written from AWS's documentation alone (the AWS SDK for JavaScript v3), run against
// `gpublock sim`: search, buy, watch the block go active, launch into it, extend it, see the
// instances terminated 30 minutes before the end and the block expire. Not part of CI (it needs npm):
//   npm install @aws-sdk/client-ec2@3.1169.0
//   gpublock sim --addr 127.0.0.1:4599 &
//   EP=http://127.0.0.1:4599 node scripts/js-sdk-lifecycle.mjs

import { EC2Client, DescribeCapacityBlockOfferingsCommand, PurchaseCapacityBlockCommand, DescribeCapacityReservationsCommand,
  RunInstancesCommand, DescribeCapacityBlockExtensionOfferingsCommand, PurchaseCapacityBlockExtensionCommand, DescribeInstancesCommand, DescribeSubnetsCommand } from "@aws-sdk/client-ec2";
const ep = process.env.EP;
const must = (ok, what) => { if (!ok) { console.error("FAIL:", what); process.exit(1); } };
const c = new EC2Client({ region: "us-east-2", endpoint: ep, credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "x" }, maxAttempts: 1 });
const clock = async (body) => { const r = await fetch(ep + "/_sim/clock", body ? { method: "POST", body: new URLSearchParams(body) } : {}); return (await r.text()).trim(); };
const now = new Date(await clock());
const offs = await c.send(new DescribeCapacityBlockOfferingsCommand({ InstanceType: "p5.48xlarge", InstanceCount: 2, CapacityDurationHours: 48,
  StartDateRange: now, EndDateRange: new Date(now.getTime() + 28 * 864e5) }));
console.log("offerings:", offs.CapacityBlockOfferings.length, offs.CapacityBlockOfferings[0]);
must(offs.CapacityBlockOfferings.length > 0, "offerings found");
const o = offs.CapacityBlockOfferings[0];
must(o.EndDate.getUTCHours() === 11 && o.EndDate.getUTCMinutes() === 30, "block ends at 11:30 UTC");
const p = await c.send(new PurchaseCapacityBlockCommand({ CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: "Linux/UNIX" }));
const cr = p.CapacityReservation.CapacityReservationId;
console.log("bought", cr, p.CapacityReservation.State);
must(p.CapacityReservation.State === "payment-pending", "a new block is payment-pending");
await clock({ set: new Date(o.StartDate.getTime() + 60e3).toISOString() });
let r = await c.send(new DescribeCapacityReservationsCommand({ CapacityReservationIds: [cr] }));
console.log("after start:", r.CapacityReservations[0].State, r.CapacityReservations[0].AvailableInstanceCount);
must(r.CapacityReservations[0].State === "active", "active after the start");
const subs = await c.send(new DescribeSubnetsCommand({ Filters: [{ Name: "availability-zone", Values: [o.AvailabilityZone] }] }));
const run = await c.send(new RunInstancesCommand({ ImageId: "ami-0123456789abcdef0", InstanceType: "p5.48xlarge", MinCount: 1, MaxCount: 1, SubnetId: subs.Subnets[0].SubnetId,
  InstanceMarketOptions: { MarketType: "capacity-block" }, CapacityReservationSpecification: { CapacityReservationTarget: { CapacityReservationId: cr } } }));
console.log("launched", run.Instances[0].InstanceId, run.Instances[0].State.Name);
must(run.Instances.length === 1, "one instance launched");
const ext = await c.send(new DescribeCapacityBlockExtensionOfferingsCommand({ CapacityReservationId: cr, CapacityBlockExtensionDurationHours: 24 }));
const e = ext.CapacityBlockExtensionOfferings[0];
console.log("extension offer", e.CapacityBlockExtensionOfferingId, e.UpfrontFee, e.CapacityBlockExtensionEndDate);
await c.send(new PurchaseCapacityBlockExtensionCommand({ CapacityReservationId: cr, CapacityBlockExtensionOfferingId: e.CapacityBlockExtensionOfferingId }));
await clock({ advance: "10m" });
r = await c.send(new DescribeCapacityReservationsCommand({ CapacityReservationIds: [cr] }));
console.log("end now", r.CapacityReservations[0].EndDate);
must(r.CapacityReservations[0].EndDate.getTime() === e.CapacityBlockExtensionEndDate.getTime(), "extension moved the end");
await clock({ set: new Date(r.CapacityReservations[0].EndDate.getTime() - 20 * 60e3).toISOString() });
let i = await c.send(new DescribeInstancesCommand({ Filters: [{ Name: "capacity-reservation-id", Values: [cr] }] }));
console.log("20 min before end, instance:", i.Reservations[0].Instances[0].State.Name);
must(["shutting-down", "terminated"].includes(i.Reservations[0].Instances[0].State.Name), "instances terminated 30 minutes before the end");
await clock({ set: new Date(r.CapacityReservations[0].EndDate.getTime() + 60e3).toISOString() });
r = await c.send(new DescribeCapacityReservationsCommand({ CapacityReservationIds: [cr] }));
console.log("after end:", r.CapacityReservations[0].State);
must(r.CapacityReservations[0].State === "expired", "expired after the end");
console.log("OK: the whole lifecycle works through the JavaScript SDK");
