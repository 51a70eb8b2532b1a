// npm run mock: a server that answers from the specs alone (examples and schemas), with no domain and no database.
import { serveMock } from "twinspec-dev/mock";
import { definition } from "../generated/wiring.js";

await serveMock(definition);
