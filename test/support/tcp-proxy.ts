// The cuttable TCP proxy between a server under test and its database: the twinspec package's test support.
export { TcpProxy, type Cut } from "../../packages/twinspec/test/support/tcp-proxy.js";
