// npm run lint: oxlint (.oxlintrc.json: ESLint's and typescript-eslint's recommended rules that need no types, over
// every file), ESLint with typescript-eslint's type-aware rules (here), then knip. The type-aware rules (promises,
// unbound methods, exhaustive switches) check the code that ships: the application's and the packages' src/, in one
// program (tsconfig.lint.json); tests, benchmarks and examples get oxlint's rules only, since building their program
// too would double the lint's time. ESLint runs no rule oxlint runs: the type program is what takes its time.
import { defineConfig, globalIgnores } from "eslint/config";
import tseslint from "typescript-eslint";

/** What ships: ESLint lints these (npm run lint), with type information. */
const SHIPPED = ["src/**/*.ts", "packages/*/src/**/*.ts"];

export default defineConfig(
  globalIgnores([
    // written by the generator (npm run generate, the fixture's generate:fixture, the golden files' update)
    "generated/",
    "client/generated/",
    "packages/twinspec/test/fixture/generated/",
    "packages/twinspec/test/fixture/client/generated/",
    "packages/twinspec-dev/test/apps/library/generated/",
    "packages/twinspec-dev/test/apps/library/client/generated/",
    "packages/twinspec-dev/test/golden/",
    // copied into a new application by `twinspec init`, where its own generated/ exists (twinspec-dev test/codegen/init.test.ts builds one)
    "packages/twinspec-dev/templates/",
    "**/dist/",
    ".perf/",
    "bench/.tmp/",
    "bench/results/",
    "test/.tmp/",
  ]),
  {
    files: SHIPPED,
    extends: [tseslint.configs.recommendedTypeCheckedOnly],
    languageOptions: { parserOptions: { project: "./tsconfig.lint.json", tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Rules that need no types, which typescript-eslint's sets turn on: oxlint runs them (.oxlintrc.json).
      ...Object.fromEntries(
        ["no-var", "prefer-const", "prefer-rest-params", "prefer-spread"].map((rule) => [rule, "off"]),
      ),
      // `any` is how this code reads parsed documents (OpenAPI and GraphQL specs, JSON bodies): typing each walk over
      // them would be a rewrite (~1,350 findings), not a fix; tsc's strict mode stays the guard.
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
      "@typescript-eslint/prefer-promise-reject-errors": [
        "error",
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
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
