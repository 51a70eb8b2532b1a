// npm run lint: ESLint with typescript-eslint, then knip. The type-aware rules (promises, unbound methods, exhaustive
// switches) check the code that ships: the application's and the packages' src/, in one program (tsconfig.lint.json).
// Tests, benchmarks, examples and scripts get the rules that need no types: building their program too would double
// the lint's time. The rule sets are ESLint's and typescript-eslint's recommended ones, less those that only fight
// this code base's style (each with its reason below), plus two that catch real bugs the sets leave out.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

/** What ships, linted with type information: npm run lint runs ESLint over these and over the rest in parallel. */
const SHIPPED = ["src/**/*.ts", "packages/*/src/**/*.ts"];

export default defineConfig(
  globalIgnores([
    // written by the generator (npm run generate, the fixture's generate:fixture, the golden files' update)
    "generated/",
    "client/generated/",
    "packages/twinspec/test/fixture/generated/",
    "packages/twinspec/test/fixture/client/generated/",
    "packages/twinspec/test/golden/",
    // copied into a new application by `twinspec init`, where its own generated/ exists (test/codegen/init.test.ts builds one)
    "packages/twinspec/templates/",
    "**/dist/",
    ".perf/",
    "bench/.tmp/",
    "bench/results/",
    "test/.tmp/",
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // `any` is how this code reads parsed documents (OpenAPI and GraphQL specs, JSON bodies in tests): typing each
      // walk over them would be a rewrite (~1,350 findings), not a fix. tsc's strict mode stays the guard.
      "@typescript-eslint/no-explicit-any": "off",
      // `{}` is meant where it appears: `{} extends V` asks whether every variable is optional, `{}` is the neutral
      // element of the client's mapped-type intersections, and EventMap is empty for applications to augment.
      "@typescript-eslint/no-empty-object-type": "off",
      // The regular expressions with runs of spaces match generated code's indentation (`\n    throw`), which reads
      // better as the code itself than as ` {4}`.
      "no-regex-spaces": "off",
      // The code base's convention for what is unused on purpose: a leading underscore (`_db`, `for (const _ of …)`),
      // and the rest of an object without some of its properties.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    files: SHIPPED,
    extends: [tseslint.configs.recommendedTypeCheckedOnly],
    languageOptions: { parserOptions: { project: "./tsconfig.lint.json", tsconfigRootDir: import.meta.dirname } },
    rules: {
      // What the code does with an `any` (see no-explicit-any above).
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      // An `async` function without `await` is how handlers and stubs here implement a promise-returning interface,
      // and it turns a throw into a rejection: dropping `async` to please the rule would change what callers see.
      "@typescript-eslint/require-await": "off",
      // The bug it is after ("[object Object]" in a message) is no-base-to-string's, which also checks template
      // literals; what it adds is refusing numbers' and arrays' and URLSearchParams' own string forms.
      "@typescript-eslint/restrict-template-expressions": "off",
      // Passing on what was caught (an `unknown`, an AbortSignal's reason) is not making up a non-Error rejection.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingAny: true, allowThrowingUnknown: true }],
      // graphql-js's Kind and OperationTypeNode are string enums: comparing them with their values ("Field",
      // "mutation") is the same comparison, and this code base declares no enum of its own.
      "@typescript-eslint/no-unsafe-enum-comparison": "off",
      // A switch over a union must name each member or have a default.
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      // `return promise` inside try skips the catch and finally meant for it (only that: both forms elsewhere).
      "@typescript-eslint/return-await": ["error", "error-handling-correctness-only"],
    },
  },
);
