// twinspec/testing: the spec-driven test kit an application runs with one line (`walkApi(definition)` in a mocha
// test file): every operation and root field of its specs, walked against a real server and database.
export { walkApi, type WalkOptions } from "./walk.js";
