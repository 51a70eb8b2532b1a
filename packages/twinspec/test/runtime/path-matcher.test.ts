// createPathMatcher: path templates → the template a request path belongs to, and its parameters.
import assert from "node:assert/strict";
import { createPathMatcher, MalformedPath } from "../../src/runtime/path-matcher.js";

describe("createPathMatcher", () => {
  const templates = [
    "/",
    "/users",
    "/users/me",
    "/users/{id}",
    "/users/{id}/posts/{postId}",
    "/users/{userId}/settings",
    "/users/me/settings/{key}",
    "/files/{name}.{ext}",
    "/files/{name}",
    "/reports/{from}-{to}/summary",
    "/a/b/c",
    "/a/{x}/d",
    "/pets/säge",
    "/my files/{id}",
  ];
  const match = createPathMatcher(templates.map((path) => ({ path, value: path })));
  const cases: [string, string | undefined, Record<string, string>?][] = [
    ["/", "/", {}],
    ["/users", "/users", {}],
    // static segments that are not URL-safe, as a client sends them (percent-encoded)
    ["/pets/s%C3%A4ge", "/pets/säge", {}],
    ["/my%20files/3", "/my files/{id}", { id: "3" }],
    ["/users/", "/users", {}],
    ["/users/me", "/users/me", {}],
    ["/users/42", "/users/{id}", { id: "42" }],
    ["/users/42/posts/7", "/users/{id}/posts/{postId}", { id: "42", postId: "7" }],
    // same position, another name in another template
    ["/users/42/settings", "/users/{userId}/settings", { userId: "42" }],
    // static "me" first, then back to {userId} when the static branch has no such path
    ["/users/me/settings", "/users/{userId}/settings", { userId: "me" }],
    ["/users/me/settings/theme", "/users/me/settings/{key}", { key: "theme" }],
    ["/files/report.csv", "/files/{name}.{ext}", { name: "report", ext: "csv" }],
    ["/files/archive.tar.gz", "/files/{name}.{ext}", { name: "archive", ext: "tar.gz" }],
    ["/files/README", "/files/{name}", { name: "README" }],
    ["/reports/2020-2021/summary", "/reports/{from}-{to}/summary", { from: "2020", to: "2021" }],
    ["/users/a%2Fb", "/users/{id}", { id: "a/b" }],
    ["/users/caf%C3%A9", "/users/{id}", { id: "café" }],
    ["/a/b/d", "/a/{x}/d", { x: "b" }],
    ["/a/b/c", "/a/b/c", {}],
    ["/users//posts/7", undefined],
    ["/nothing", undefined],
    ["/users/42/unknown", undefined],
    ["/USERS", undefined],
  ];
  for (const [path, template, params] of cases) {
    it(`${path} → ${template ?? "no match"}`, () => {
      const found = match(path);
      assert.deepEqual(
        found && { template: found.value, params: found.params },
        template === undefined ? undefined : { template, params },
      );
    });
  }

  it("refuses malformed percent-encoding in a parameter", () => {
    assert.throws(() => match("/users/%E0%A4%A"), MalformedPath);
  });

  it("stays correct with 1,000 more templates sharing prefixes", () => {
    const big = createPathMatcher(
      [...templates, ...Array.from({ length: 1000 }, (_, i) => `/users/{id}/r${i}`)].map((path) => ({
        path,
        value: path,
      })),
    );
    assert.deepEqual(big("/users/42/posts/7")?.value, "/users/{id}/posts/{postId}");
    assert.deepEqual(big("/users/42/r999"), { value: "/users/{id}/r999", params: { id: "42" } });
  });
});
