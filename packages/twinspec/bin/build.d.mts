// Types of bin/build.mjs (`twinspec build`) for the TypeScript that imports it (tests).
export const root: string;
export function canBuild(): boolean;
export function stale(): boolean;
export function build(): void;
export function buildPackage(): void;
export function removeOrphans(outDir: string, srcDir: string): number;
export function main(args: string[]): number;
