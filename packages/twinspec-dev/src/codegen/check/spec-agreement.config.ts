// Which JSON Schema means the same as each GraphQL scalar, for comparing the two specs (spec-agreement.ts).
// Everything else the comparison needs — pairs, and differences on purpose — is written in the specs themselves.
import type { AgreementConfig } from "./spec-agreement.js";

export const agreementConfig: AgreementConfig = {
  scalars: {
    ID: { type: "string" },
    String: { type: "string" },
    Int: { type: "integer" },
    Float: { type: "number" },
    Boolean: { type: "boolean" },
    DateTime: { type: "string", format: "date-time" },
  },
};
