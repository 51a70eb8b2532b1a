// The REST representations, as openapi.yaml declares them.
import type { components } from "../../generated/openapi.js";

type Schemas = components["schemas"];
export type Customer = Schemas["Customer"];
export type Order = Schemas["Order"];
export type Cart = Schemas["Cart"];
export type Job = Schemas["Job"];
