// Starting a fixture in steps: when one fails, what the earlier ones started is closed.

/** Awaits `step`; if it rejects, runs `undo` in order (each may fail on its own) and rethrows. */
export async function orUndo<T>(step: Promise<T>, ...undo: Array<() => unknown>): Promise<T> {
  try {
    return await step;
  } catch (error) {
    for (const close of undo) {
      try {
        await close();
      } catch {
        // The step's error is the one worth reporting; a failed close must not hide it.
      }
    }
    throw error;
  }
}
