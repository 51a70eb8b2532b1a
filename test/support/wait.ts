// Bounded waiting in tests (a job, an event from another instance): the twinspec package's test support.
export { sleep, until } from "../../packages/twinspec/test/support/wait.js";
