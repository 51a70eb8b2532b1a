// npm start: the commerce service, served by Twinspec from its specs and this application's domain (README,
// "Configuration": HOST, PORT, DATABASE_URL, AUTH_SECRET, …).
import { fileURLToPath } from "node:url";
import { serve } from "twinspec";
import { definition } from "../generated/wiring.js";

await serve(definition, { migrations: fileURLToPath(new URL("./migrations", import.meta.url)) });
