// Types for the test command's result counting (test/tools/count-results.js), so its TypeScript test can import it.

/** What one step counted; every problem is also one of `failed`. */
export interface Counted {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly todo: number;
  /** Why (part of) the step's result cannot be trusted, one line each. */
  readonly problems: string[];
}

export function countVitest(text: string | undefined, options: { exitCode: number; expectedFiles?: readonly string[] }): Counted;
export function countSummaries(output: string, options: { exitCode: number; last?: boolean }): Counted;
export function testFiles(root: string): string[];
