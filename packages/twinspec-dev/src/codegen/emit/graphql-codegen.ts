// graphql-codegen's outputs for a codegen.yml, in this process and in memory, through its programmatic API: the
// schema and the documents are loaded once (@graphql-tools/load with the GraphQL file loader, with the options the
// CLI loads them with), then @graphql-codegen/core's codegen() runs for each output, a preset's outputs coming from
// its buildGeneratesSection. @graphql-codegen/cli, whose start-up (every loader: URLs, git, GitHub, code files; the
// config search; the task renderer) costs more than the generation itself, is loaded only for a codegen.yml that
// needs more than .graphql files: a URL or a code file as schema or documents, `require`, document transforms.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { isDocumentString } from "@graphql-tools/utils";

/** codegen.yml as graphql-codegen reads it (the keys this module acts on). */
export interface CodegenConfig {
  schema?: unknown;
  documents?: unknown;
  config?: Record<string, unknown>;
  generates?: Record<string, unknown>;
  emitLegacyCommonJSImports?: boolean;
  importExtension?: string;
  ignoreNoDocuments?: boolean;
  [key: string]: unknown;
}

interface Output {
  plugins?: unknown;
  preset?: unknown;
  presetConfig?: Record<string, unknown>;
  config?: Record<string, unknown> | string;
  schema?: unknown;
  documents?: unknown;
  [key: string]: unknown;
}

/** What the GraphQL file loader reads. */
const GRAPHQL_FILE = /\.(graphqls?|gqls?)(\})?$/;
const GRAPHQL_EXTENSIONS = /\{[^}]*\}$/;
/** Root and output keys the in-process run acts on as the CLI does (the others change nothing of an output's text). */
const OUTSIDE_IN_PROCESS = ["require", "pluginLoader", "externalDocuments", "documentTransforms", "hooks"];

/** The file a codegen.yml's plugins and presets are loaded from: the project's, else the ones beside Twinspec. */
export async function pluginLoader(name: string): Promise<unknown> {
  let resolved: string;
  try {
    resolved = createRequire(join(process.cwd(), "codegen.yml")).resolve(name);
  } catch {
    resolved = createRequire(import.meta.url).resolve(name);
  }
  return import(pathToFileURL(resolved).href);
}

const list = (value: unknown): unknown[] => (value === undefined || value === null ? [] : [value].flat());

/** Whether every schema and documents pointer of `config` is a local .graphql file or glob, or SDL text. */
function graphqlFilesOnly(config: CodegenConfig): boolean {
  const outputs = Object.values(config.generates ?? {}) as Output[];
  if (OUTSIDE_IN_PROCESS.some((k) => k in config || outputs.some((o) => o && typeof o === "object" && k in o)))
    return false;
  const pointers = [config.schema, config.documents, ...outputs.flatMap((o) => [o?.schema, o?.documents])].flatMap(
    list,
  );
  return pointers.every(
    (p) =>
      typeof p === "string" &&
      // SDL itself (the schema with the Twinspec parts' SDL after it) is parsed by the loader as is.
      (isDocumentString(p) ||
        (!/^[a-z][a-z0-9+.-]*:/i.test(p) &&
          (GRAPHQL_FILE.test(p) ||
            (GRAPHQL_EXTENSIONS.test(p) &&
              p
                .match(GRAPHQL_EXTENSIONS)![0]
                .slice(1, -1)
                .split(",")
                .every((e) => GRAPHQL_FILE.test(`.${e}`)))))),
  );
}

/** Each output's file name and text, as `graphql-codegen` would write them (without writing anything). */
export async function runCodegen(config: CodegenConfig): Promise<{ filename: string; content: string }[]> {
  if (!graphqlFilesOnly(config)) {
    const { generate } = await import("@graphql-codegen/cli");
    return generate({ ...config, pluginLoader, cwd: process.cwd(), silent: true, verbose: false } as never, false);
  }
  const [{ codegen }, helpers, load, { GraphQLFileLoader }] = await Promise.all([
    import("@graphql-codegen/core"),
    import("@graphql-codegen/plugin-helpers"),
    import("@graphql-tools/load"),
    import("@graphql-tools/graphql-file-loader"),
  ]);
  const cwd = process.cwd();
  const loaders = [new GraphQLFileLoader()];
  const rootConfig = config.config ?? {};
  const hash = (text: string) => createHash("sha256").update(text).digest("hex");

  /** The schema (and its document) of a list of pointers, loaded once per list. */
  const schemas = new Map<
    string,
    Promise<{ schemaAst: import("graphql").GraphQLSchema; schema: import("graphql").DocumentNode }>
  >();
  const schemaOf = (pointers: string[]) => {
    const key = JSON.stringify(pointers);
    if (!schemas.has(key))
      schemas.set(
        key,
        load
          .loadSchema(pointers, {
            assumeValidSDL: true,
            sort: true,
            convertExtensions: true,
            includeSources: true,
            cwd,
            loaders,
            ...rootConfig,
          })
          .then((schemaAst) => ({ schemaAst, schema: helpers.getCachedDocumentNodeFromSchema(schemaAst) })),
      );
    return schemas.get(key)!;
  };
  // Generated files are not documents (an output that is a file, as the CLI leaves them out).
  const ignore = Object.keys(config.generates ?? {})
    .filter((f) => extname(f) !== "")
    .map((f) => join(cwd, f));
  const documentsOf = async (pointers: string[]) => {
    if (pointers.length === 0) return [];
    try {
      const sources = await load.loadDocuments(pointers, {
        sort: true,
        skipGraphQLImport: true,
        cwd,
        ignore,
        loaders,
        ...rootConfig,
      });
      return sources.map((s) =>
        Object.assign(s, { hash: s.rawSDL ? hash(s.rawSDL) : null, type: "standard" as const }),
      );
    } catch (error) {
      if (error instanceof load.NoTypeDefinitionsFound && config.ignoreNoDocuments) return [];
      throw error;
    }
  };

  const outputs = await Promise.all(
    Object.entries(config.generates ?? {}).map(async ([filename, raw]) => {
      const output = helpers.normalizeOutputParam(raw as never) as unknown as Output;
      const preset = output.preset
        ? typeof output.preset === "string"
          ? await presetByName(output.preset)
          : (output.preset as Preset)
        : undefined;
      let documents = [...list(config.documents), ...list(output.documents)] as string[];
      if (preset?.prepareDocuments) documents = await preset.prepareDocuments(filename, documents);
      const [{ schemaAst, schema }, documentFiles] = await Promise.all([
        schemaOf([...list(config.schema), ...list(output.schema)] as string[]),
        documentsOf(documents),
      ]);
      const plugins = helpers.normalizeConfig(output.plugins as never);
      const pluginMap = Object.fromEntries(
        await Promise.all(plugins.map(async (p) => [Object.keys(p)[0], await pluginByName(Object.keys(p)[0])])),
      );
      const own = typeof output.config === "string" ? { value: output.config } : (output.config ?? {});
      const merged = {
        ...rootConfig,
        emitLegacyCommonJSImports: config.emitLegacyCommonJSImports,
        importExtension: config.importExtension,
        ...own,
      } as Record<string, unknown>;
      const importExtension = helpers.normalizeImportExtension({
        emitLegacyCommonJSImports: merged.emitLegacyCommonJSImports as boolean | undefined,
        importExtension: merged.importExtension as "" | `.${string}` | undefined,
      });
      const emitLegacyCommonJSImports = (merged.emitLegacyCommonJSImports as boolean | undefined) ?? true;
      const mergedConfig = { ...merged, importExtension, emitLegacyCommonJSImports };
      const common = {
        schema,
        schemaAst,
        documents: documentFiles,
        config: mergedConfig,
        pluginMap,
        pluginContext: {},
        documentTransforms: [],
      };
      const sections = preset
        ? await preset.buildGeneratesSection({
            ...common,
            baseOutputDir: filename,
            presetConfig: output.presetConfig ?? {},
            plugins,
          })
        : [{ ...common, filename, plugins }];
      return Promise.all(
        sections.map(async (section) => ({
          filename: section.filename,
          content: await codegen({ ...section, importExtension, emitLegacyCommonJSImports } as never),
        })),
      );
    }),
  );
  return outputs.flat();
}

interface Preset {
  prepareDocuments?: (filename: string, documents: string[]) => string[] | Promise<string[]>;
  buildGeneratesSection(options: Record<string, unknown>): Promise<{ filename: string; [key: string]: unknown }[]>;
}

/** The first of `names` that can be loaded. */
async function firstLoadable(names: string[], what: string): Promise<Record<string, unknown>> {
  for (const name of names) {
    try {
      return (await pluginLoader(name)) as Record<string, unknown>;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== "MODULE_NOT_FOUND" && code !== "ERR_MODULE_NOT_FOUND") throw error;
    }
  }
  throw new Error(`codegen.yml: cannot find the ${what}; install one of ${names.join(", ")}`);
}

/** A plugin by its codegen.yml name ("typescript": @graphql-codegen/typescript, …), as graphql-codegen looks it up. */
const pluginByName = (name: string) =>
  firstLoadable(
    [
      ...["@graphql-codegen/", "graphql-codegen-", "codegen-"].flatMap((prefix) =>
        ["", "-template", "-plugin"].map((suffix) => `${prefix}${name}${suffix}`),
      ),
      name,
      join(process.cwd(), name),
    ],
    `plugin "${name}"`,
  );

/** A preset by its codegen.yml name ("client": @graphql-codegen/client-preset, …). */
async function presetByName(name: string): Promise<Preset> {
  const loaded = await firstLoadable(
    [`@graphql-codegen/${name}`, `@graphql-codegen/${name}-preset`, name, join(process.cwd(), name)],
    `preset "${name}"`,
  );
  return (loaded.preset ?? loaded.default ?? loaded) as Preset;
}
