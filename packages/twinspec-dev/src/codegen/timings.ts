// How long each part of a generation took, for generate's summary (the total) and --verbose (each part).

/** One part of the work and its duration. */
interface Part {
  label: string;
  ms: number;
}

export class Timings {
  readonly parts: Part[] = [];
  private readonly started = performance.now();

  /** Runs `work`, recording its duration under `label`. */
  async time<T>(label: string, work: () => T | Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.parts.push({ label, ms: performance.now() - started });
    }
  }

  /** Since this was made. */
  total(): number {
    return performance.now() - this.started;
  }

  /** One line per part, for --verbose: "  REST (openapi-typescript, validators)  1.23 s". */
  lines(): string[] {
    const width = Math.max(0, ...this.parts.map((p) => p.label.length));
    return this.parts.map((p) => `  ${p.label.padEnd(width)}  ${seconds(p.ms)}`);
  }
}

/** A duration for people: "840 ms", "2.3 s". */
export const seconds = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
