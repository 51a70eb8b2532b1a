// One resource of the specs: a tag of openapi.yaml with x-resource (read in contract.ts). What the generated contract
// tells the runtime of it (ResourceInfo), and what only the generator needs besides.
import type { ResourceInfo } from "twinspec/internals";

export interface Resource extends ResourceInfo {
  /** the tag: names its files (src/domain/<tag>.ts, src/rest/<tag>.ts, src/graphql/<tag>.ts) */
  tag: string;
  /** its GET answers an ETag: the domain model needs the version that ETag is made from */
  etag: boolean;
}
