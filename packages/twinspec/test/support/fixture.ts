// Where the fixture application lives: the package's tests serve it, never an application of the repository.
import { fileURLToPath } from "node:url";

export const FIXTURE = fileURLToPath(new URL("../fixture", import.meta.url));
