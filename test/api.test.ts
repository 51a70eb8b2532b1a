// The commerce service walked by Twinspec's test kit, exactly as any application's test/api.test.ts is: every
// operation and root field from the specs alone, against a real server and database.
import { walkApi } from "twinspec/testing";
import { definition } from "../generated/wiring.js";

walkApi(definition);
