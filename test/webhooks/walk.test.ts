// The commerce service's webhooks walked by Twinspec's test kit: orderStatusChanged triggered through each operation
// its x-emitted-by names (updateOrder, checkoutCart) and their paired mutations, its delivery to a receiver on
// 127.0.0.1 verified by standardwebhooks, checked against the declared schema and against the event log's id.
import { describeWebhookWalk } from "twinspec-dev/testing";
import { definition } from "../../generated/wiring.js";

describeWebhookWalk(definition);
