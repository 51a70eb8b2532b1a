// The test kit's N+1 walk over every relation of the specs (Customer.orders, Customer.carts, Order.notes, and any
// added later): what one costs in database queries must not grow with the number of parents it is read under.
import { describeRelationWalk } from "twinspec-dev/testing";
import { definition } from "../../generated/wiring.js";

describeRelationWalk(definition);
