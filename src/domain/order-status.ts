// The order lifecycle: PENDING → PAID → SHIPPED → DELIVERED, and CANCELLED from PENDING or PAID. The statuses
// themselves are openapi.yaml's OrderStatus; the moves between them are the domain's rule.
import type { OrderStatus } from "../../generated/models.js";

export type { OrderStatus };

const NEXT: Record<OrderStatus, OrderStatus[]> = {
  PENDING: ["PAID", "CANCELLED"],
  PAID: ["SHIPPED", "CANCELLED"],
  SHIPPED: ["DELIVERED"],
  DELIVERED: [],
  CANCELLED: [],
};

export const allowedMoves = (from: OrderStatus) => NEXT[from];
export const canMove = (from: OrderStatus, to: OrderStatus) => NEXT[from].includes(to);
