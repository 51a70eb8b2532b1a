// Line items of orders and carts: their total and their storage as JSON text. Their field rules are openapi.yaml's
// LineItem schema, checked by the generated validators before any input reaches the domain.
import type * as Spec from "../../generated/models.js";

export type LineItem = Spec.LineItem;

/** Items reduced to their fields, in a fixed order (what is stored and answered). */
export const itemsOf = (items: readonly LineItem[]): LineItem[] =>
  items.map(({ sku, quantity, unitPrice }) => ({ sku, quantity, unitPrice }));

/** Sum of quantity × unit price, in whole cents to keep float error out of totals. */
export const totalOf = (items: LineItem[]) =>
  items.reduce((cents, i) => cents + Math.round(i.unitPrice * 100) * i.quantity, 0) / 100;

export const parseItems = (text: string): LineItem[] => JSON.parse(text) as LineItem[];
