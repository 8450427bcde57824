// A client written from AWS's documentation alone (the AWS SDK for JavaScript v3, whose
// CloudWatch client speaks awsJson1_0), run against `gpublock sim`: buy a block, launch two
// instances into it, let three hours pass, and read its use from CloudWatch's
// AWS/EC2CapacityReservations metrics. Not part of CI (it needs npm):
//   npm install @aws-sdk/client-ec2@3.1169.0 @aws-sdk/client-cloudwatch@3.1164.0
//   gpublock sim --addr 127.0.0.1:4599 &
//   EP=http://127.0.0.1:4599 node scripts/js-sdk-cloudwatch.mjs

import { EC2Client, DescribeCapacityBlockOfferingsCommand, PurchaseCapacityBlockCommand, RunInstancesCommand, DescribeSubnetsCommand } from "@aws-sdk/client-ec2";
import { CloudWatchClient, GetMetricDataCommand, GetMetricStatisticsCommand, ListMetricsCommand } from "@aws-sdk/client-cloudwatch";
const ep = process.env.EP;
const must = (ok, what) => { if (!ok) { console.error("FAIL:", what); process.exit(1); } };
const creds = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "x" };
const c = new EC2Client({ region: "us-east-1", endpoint: ep, credentials: creds, maxAttempts: 1 });
const cw = new CloudWatchClient({ region: "us-east-1", endpoint: ep, credentials: creds, maxAttempts: 1 });
const clock = async (body) => { const r = await fetch(ep + "/_sim/clock", body ? { method: "POST", body: new URLSearchParams(body) } : {}); return (await r.text()).trim(); };
const now = new Date(await clock());
const offs = await c.send(new DescribeCapacityBlockOfferingsCommand({ InstanceType: "p5.48xlarge", InstanceCount: 2, CapacityDurationHours: 48, StartDateRange: now, EndDateRange: new Date(now.getTime() + 28 * 864e5) }));
const o = offs.CapacityBlockOfferings[0];
const p = await c.send(new PurchaseCapacityBlockCommand({ CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: "Linux/UNIX" }));
const cr = p.CapacityReservation.CapacityReservationId;
const start = new Date(o.StartDate.getTime());
await clock({ set: start.toISOString() });
const subs = await c.send(new DescribeSubnetsCommand({ Filters: [{ Name: "availability-zone", Values: [o.AvailabilityZone] }] }));
await c.send(new RunInstancesCommand({ ImageId: "ami-0123456789abcdef0", InstanceType: "p5.48xlarge", MinCount: 2, MaxCount: 2, SubnetId: subs.Subnets[0].SubnetId,
  InstanceMarketOptions: { MarketType: "capacity-block" }, CapacityReservationSpecification: { CapacityReservationTarget: { CapacityReservationId: cr } } }));
await clock({ advance: "3h" });
const lm = await cw.send(new ListMetricsCommand({ Namespace: "AWS/EC2CapacityReservations" }));
console.log("metrics:", lm.Metrics.length);
const d = await cw.send(new GetMetricDataCommand({ StartTime: start, EndTime: new Date(start.getTime() + 3 * 3600e3), MetricDataQueries: [
  { Id: "used", MetricStat: { Metric: { Namespace: "AWS/EC2CapacityReservations", MetricName: "UsedInstanceCount", Dimensions: [{ Name: "CapacityReservationId", Value: cr }] }, Period: 3600, Stat: "Average" } }] }));
const r = d.MetricDataResults[0];
const hours = r.Values.reduce((a, b) => a + b, 0);
console.log("values", r.Values, r.Timestamps, r.StatusCode, "instance-hours", hours);
must(Math.abs(hours - 6) < 1e-3, "2 instances for 3 hours (the clock runs on between setting it and the launch)");
const s = await cw.send(new GetMetricStatisticsCommand({ Namespace: "AWS/EC2CapacityReservations", MetricName: "UsedInstanceCount", Dimensions: [{ Name: "CapacityReservationId", Value: cr }],
  StartTime: start, EndTime: new Date(start.getTime() + 3 * 3600e3), Period: 3600, Statistics: ["Average", "Maximum"] }));
console.log("stats", s.Datapoints);
try { await cw.send(new GetMetricStatisticsCommand({ Namespace: "AWS/EC2CapacityReservations", MetricName: "UsedInstanceCount", StartTime: start, EndTime: start, Period: 7, Statistics: ["Average"] })); must(false, "bad period refused"); }
catch (e) { console.log("refused:", e.name, e.message); must(e.name === "InvalidParameterValue" || e.name === "InvalidParameterValueException", "error code"); }
console.log("OK");
