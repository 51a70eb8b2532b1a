// Types of bin/build.mjs (`twinspec-app build`, also "twinspec/build": twinspec-dev's `twinspec client` compiles with it) for the TypeScript that imports it.
export const root: string;
export function canBuild(): boolean;
export function stale(): boolean;
export function build(): void;
export function buildPackage(): void;
export function removeOrphans(outDir: string, srcDir: string): number;
export function main(args: string[]): number;
export function inCheckout(dir: string): boolean;
export function newest(dir: string): number;
export function tsc(project: string, what: string, bin?: string): void;
