// Line items of orders and carts, stored as JSON text.
export interface LineItem {
  sku: string;
  quantity: number;
  unitPrice: number;
}

export const parseItems = (text: string): LineItem[] => JSON.parse(text) as LineItem[];
