// Every REST collection paired with a GraphQL relation (listCustomerOrders and Customer.orders, listOrderNotes and
// Order.notes, listCustomerCarts and Customer.carts) lists the same items in the same order, for a handful of
// parents: the test kit's comparison (twinspec-dev/testing).
import { describeTransportAgreement } from "twinspec-dev/testing";
import { definition } from "../../generated/wiring.js";

describeTransportAgreement(definition);
