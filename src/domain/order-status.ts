// The order lifecycle: PENDING → PAID → SHIPPED → DELIVERED, and CANCELLED from PENDING or PAID.
export type OrderStatus = "PENDING" | "PAID" | "SHIPPED" | "DELIVERED" | "CANCELLED";

export const ORDER_STATUSES: OrderStatus[] = ["PENDING", "PAID", "SHIPPED", "DELIVERED", "CANCELLED"];

const NEXT: Record<OrderStatus, OrderStatus[]> = {
  PENDING: ["PAID", "CANCELLED"],
  PAID: ["SHIPPED", "CANCELLED"],
  SHIPPED: ["DELIVERED"],
  DELIVERED: [],
  CANCELLED: [],
};

export const allowedMoves = (from: OrderStatus) => NEXT[from];
export const canMove = (from: OrderStatus, to: OrderStatus) => NEXT[from].includes(to);
