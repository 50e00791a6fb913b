/** Bundles the console into `outdir` (default: dist/console) and returns it. */
export function buildConsole(outdir?: string): Promise<string>;
