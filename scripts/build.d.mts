// Types of scripts/build.mjs for the TypeScript that imports it (tests).
export function canBuild(): boolean;
export function stale(): boolean;
export function build(): void;
export function buildPackage(): void;
export function removeOrphans(outDir: string, srcDir: string): number;
