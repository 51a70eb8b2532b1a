// npm start: this application, served by Twinspec from its specs and its domain (HOST, PORT, DATABASE_URL,
// AUTH_SECRET, …: the twinspec README, "Configuration").
import { fileURLToPath } from "node:url";
import { serve } from "twinspec";
import { definition } from "../generated/wiring.js";

await serve(definition, { migrations: fileURLToPath(new URL("./migrations", import.meta.url)) });
