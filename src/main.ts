// npm start: the commerce service, served by Twinspec from its specs and this application's domain (README,
// "Configuration": HOST, PORT, DATABASE_URL, AUTH_SECRET, …), with the service's own Koa middleware.
import { fileURLToPath } from "node:url";
import { serve } from "twinspec";
import { definition } from "../generated/wiring.js";
import { securityHeaders } from "./middleware.js";

await serve(definition, {
  migrations: fileURLToPath(new URL("./migrations", import.meta.url)),
  middleware: [securityHeaders],
});
