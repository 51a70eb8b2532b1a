// selection.ts: which fields a query selects under a field (selectedFields), and whether a field of the field's own
// type is selected anywhere below it (selectsOwnType), through fragments.
import assert from "node:assert/strict";
import {
  buildSchema,
  getNamedType,
  Kind,
  parse,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from "graphql";
import { selectedFields, selectsOwnType } from "../../src/graphql/selection.js";

const schema = buildSchema(`
  type Query { authors: [Author!]! books: [Book!]! shelf: Shelf }
  type Author { authorId: ID! name: String! books: [Book!]! mentor: Author }
  type Book { bookId: ID! title: String! author: Author! reviews: [Review!]! }
  type Review { reviewId: ID! stars: Int! }
  union Shelf = Book | Author
`);

/** The resolve info of the query's first root field, as an executor hands it to that field's resolver. */
function infoOf(query: string) {
  const document = parse(query);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  )!;
  const field = operation.selectionSet.selections[0] as FieldNode;
  const fragments = Object.fromEntries(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  return {
    fieldNodes: [field],
    fragments,
    schema,
    returnType: schema.getQueryType()!.getFields()[field.name.value].type,
  };
}

describe("selectsOwnType", () => {
  const cases: [given: string, want: boolean][] = [
    ["{ authors { authorId name } }", false],
    ["{ authors { name books { title reviews { stars } } } }", false],
    ["{ authors { books { author { name } } } }", true],
    ["{ authors { mentor { name } } }", true],
    [
      "{ authors { ...withBooks } } fragment withBooks on Author { books { ...byline } } fragment byline on Book { author { name } }",
      true,
    ],
    ["{ authors { ...withBooks } } fragment withBooks on Author { books { title } }", false],
    ["{ books { title author { name } } }", false],
    ["{ books { author { books { title } } } }", true],
    ["{ shelf { ... on Author { name } } }", false],
    ["{ shelf { ... on Book { author { name } } } }", false],
    ["{ shelf { __typename } }", false],
  ];
  for (const [given, want] of cases) {
    it(`${given} → ${want}`, () => assert.equal(selectsOwnType(infoOf(given)), want));
  }

  it("a fragment that spreads itself ends the walk", () => {
    const info = infoOf("{ authors { ...loop } } fragment loop on Author { mentor { ...loop } }");
    assert.equal(getNamedType(info.returnType).name, "Author");
    assert.equal(selectsOwnType(info), true);
    assert.equal(
      selectsOwnType(infoOf("{ books { ...again } } fragment again on Book { reviews { stars } ...again }")),
      false,
    );
  });
});

describe("selectedFields", () => {
  it("names the fields selected right under the field, through fragments, sorted, without __typename", () => {
    assert.deepEqual(
      selectedFields(infoOf("{ authors { name __typename ...f books { title } } } fragment f on Author { authorId }")),
      ["authorId", "books", "name"],
    );
  });
});
