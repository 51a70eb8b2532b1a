// The URL of one resource (Location headers, links), from the path template openapi.yaml gives it.
import { resources, type ResourceTag } from "../../generated/contract.js";

export const location = (resource: ResourceTag, id: string) => {
  const { path, id: param } = resources[resource];
  return path.replace(`{${param}}`, encodeURIComponent(id));
};
