// Line items of orders and carts: their rules, their total, their storage as JSON text.
import { InvalidInputError, type InputError } from "./errors.js";
import { checkFields, type Check } from "./rules.js";

export interface LineItem {
  sku: string;
  quantity: number;
  unitPrice: number;
}

const ITEM: Record<keyof LineItem, Check> = {
  sku: (v) => (typeof v === "string" && /^[A-Za-z0-9._-]{1,64}$/.test(v) ? undefined : "must be 1-64 letters, digits, '.', '_' or '-'"),
  quantity: (v) => (Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 10_000 ? undefined : "must be an integer from 1 to 10000"),
  unitPrice: (v) => (typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 1_000_000 ? undefined : "must be a number from 0 to 1000000"),
};

export const MAX_ITEMS = 100;

/** Validates items (at least `min`); returns them reduced to their fields, in a fixed order. */
export function checkItems(items: unknown, min: number): LineItem[] {
  if (!Array.isArray(items)) throw new InvalidInputError([{ pointer: "/items", message: "must be an array" }]);
  const errors: InputError[] = [];
  if (items.length < min) errors.push({ pointer: "/items", message: `must have at least ${min} item${min > 1 ? "s" : ""}` });
  if (items.length > MAX_ITEMS) errors.push({ pointer: "/items", message: `must have at most ${MAX_ITEMS} items` });
  items.forEach((item, i) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) errors.push({ pointer: `/items/${i}`, message: "must be an object" });
    else errors.push(...checkFields(item as Record<string, unknown>, ITEM, Object.keys(ITEM), `/items/${i}`));
  });
  if (errors.length > 0) throw new InvalidInputError(errors);
  return (items as LineItem[]).map(({ sku, quantity, unitPrice }) => ({ sku, quantity, unitPrice }));
}

/** Sum of quantity × unit price, in whole cents to keep float error out of totals. */
export const totalOf = (items: LineItem[]) => items.reduce((cents, i) => cents + Math.round(i.unitPrice * 100) * i.quantity, 0) / 100;

export const parseItems = (text: string): LineItem[] => JSON.parse(text) as LineItem[];
