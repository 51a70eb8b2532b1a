// Run by webhook-walk.test.ts in a child mocha: the webhook walk against the fixture (TWINSPEC_ROOT). With
// DROP_FIELD set, every event is published without that payload field (a domain that forgets one); with SKIP_EVENTS,
// no event is published at all (an operation x-emitted-by names that emits nothing).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DurableBus } from "twinspec";
import { describeWebhookWalk } from "twinspec-dev/testing";

const { definition } = await import(pathToFileURL(join(process.env.TWINSPEC_ROOT!, "generated/wiring.js")).href);

const publish = DurableBus.prototype.publish;
if (process.env.DROP_FIELD) {
  DurableBus.prototype.publish = function (type, event, db) {
    const { [process.env.DROP_FIELD!]: _dropped, ...rest } = event as unknown as Record<string, unknown>;
    return publish.call(this, type, rest as never, db);
  };
}
if (process.env.SKIP_EVENTS) DurableBus.prototype.publish = async () => {};

describeWebhookWalk(definition, { deliveryTimeoutMs: Number(process.env.DELIVERY_TIMEOUT_MS ?? 20_000) });
