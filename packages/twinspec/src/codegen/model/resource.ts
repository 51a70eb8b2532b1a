// One resource of the specs: a tag of openapi.yaml with x-resource (read in contract.ts).
export interface Resource {
  /** the tag: names its files (src/domain/<tag>.ts, src/rest/<tag>.ts, src/graphql/<tag>.ts) */
  tag: string;
  /** the component schema (and GraphQL type) of one such resource */
  schema: string;
  /** the property, path parameter and GraphQL argument that identify one */
  id: string;
  idPrefix: string;
  /** "self": an instance is its own owner (a token whose sub is its id acts for it); "none": nobody owns it; else the property naming its owner */
  owner: string;
  /** owned through a parent (x-resource owner: { through, by }): the parent's tag; `owner` is then the property naming the parent */
  through?: string;
  /** path template of one resource (its GET), for Location headers */
  path: string;
  /** its GET answers an ETag: the domain model needs the version that ETag is made from */
  etag: boolean;
}
