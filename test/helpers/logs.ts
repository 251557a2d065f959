// Captures what the function writes to stdout and stderr (Powertools logs and EMF metrics are
// JSON lines; the Logger writes WARN and ERROR to stderr).

import { jest } from '@jest/globals';

export interface CapturedLogs {
  /** Every line written, as written. */
  raw(): string[];
  /** The lines that parse as JSON objects. */
  entries(): Record<string, unknown>[];
  clear(): void;
  restore(): void;
}

export function captureOutput(): CapturedLogs {
  let chunks: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  };
  const spies = [process.stdout, process.stderr].map((stream) =>
    jest.spyOn(stream, 'write').mockImplementation(capture),
  );
  const raw = () => chunks.join('').split('\n').filter(Boolean);
  return {
    raw,
    entries: () =>
      raw().flatMap((line) => {
        try {
          const value = JSON.parse(line);
          return typeof value === 'object' && value !== null ? [value] : [];
        } catch {
          return [];
        }
      }),
    clear: () => {
      chunks = [];
    },
    restore: () => {
      for (const spy of spies) spy.mockRestore();
    },
  };
}
