// Records which (operation, status) pairs of openapi.yaml the test servers actually answered (the kit's, twinspec/testing).
export { answered, recordStatuses } from "twinspec/testing";
