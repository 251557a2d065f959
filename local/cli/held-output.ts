// Stdout held back while `npm start` loads the bundle, so its `init` record follows the banner.

/** Runs `step` with stdout held, and returns its result and what it wrote (to pass to `release`). */
export async function holdingStdout<T>(step: () => Promise<T>): Promise<[T, string[]]> {
  const held: string[] = [];
  const write = process.stdout.write;
  // The function's logger writes through process.stdout when it logs, so this catches its records.
  process.stdout.write = ((chunk: string | Uint8Array) => {
    held.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }) as typeof process.stdout.write;
  try {
    return [await step(), held];
  } finally {
    process.stdout.write = write;
  }
}

/** Writes what was held, in order. */
export function release(held: readonly string[]): void {
  for (const chunk of held) process.stdout.write(chunk);
}
