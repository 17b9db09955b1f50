/**
 * Where the command-line tools write. Commands take an `Output` instead of touching `process` so that tests
 * can run them in-process and read what they printed.
 */
export interface Output {
  /** A line for the user (stdout). */
  out(line: string): void;
  /** A diagnostic or error line (stderr). */
  err(line: string): void;
  /** Transient progress (stderr, overwritten in place on a terminal, silent otherwise). */
  progress(text: string): void;
}

export const processOutput: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  progress: (text) => {
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${text}`);
  },
};

/** An Output that keeps everything, for tests. */
export function memoryOutput(): Output & { readonly lines: string[]; readonly errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (l) => lines.push(l), err: (l) => errors.push(l), progress: () => undefined };
}

/** Renders a JSON value as indented `key: value` lines, for people rather than programs. */
export function renderTree(value: unknown, indent = ''): string[] {
  if (value === null || typeof value !== 'object') return [`${indent}${JSON.stringify(value)}`];
  const lines: string[] = [];
  const entries = Array.isArray(value) ? value.map((v, i) => [`- [${i}]`, v] as const) : Object.entries(value);
  for (const [key, v] of entries) {
    const scalar = v === null || typeof v !== 'object';
    const compact = !scalar && JSON.stringify(v).length <= 80;
    if (scalar || compact) lines.push(`${indent}${key}: ${JSON.stringify(v)}`);
    else lines.push(`${indent}${key}:`, ...renderTree(v, `${indent}  `));
  }
  return lines;
}
