// The memory of a server started with --inspect, after forced garbage collection: what it still
// holds, so growth that survives GC (a leak) is told apart from garbage not yet collected.

export interface MemoryAfterGc {
  heapUsedMb: number;
  arrayBuffersMb: number;
  rssMb: number;
}

/** The inspector's WebSocket URL from the line Node prints on stderr: `Debugger listening on ws://…`. */
export function inspectorUrl(stderr: string): string | undefined {
  return /Debugger listening on (ws:\/\/\S+)/.exec(stderr)?.[1];
}

/** Collects garbage twice (a second pass frees what the first one's finalizers released), then reads process.memoryUsage(). */
export async function memoryAfterGc(url: string): Promise<MemoryAfterGc> {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', () => reject(new Error(`cannot reach the inspector at ${url}`)), { once: true });
  });
  let nextId = 0;
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<{ result?: { value?: unknown } }>((resolve, reject) => {
      const id = ++nextId;
      const onMessage = (event: MessageEvent) => {
        const message = JSON.parse(String(event.data));
        if (message.id !== id) return;
        socket.removeEventListener('message', onMessage);
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result);
      };
      socket.addEventListener('message', onMessage);
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    const reply = await call('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    });
    const usage = JSON.parse(String(reply.result?.value)) as NodeJS.MemoryUsage;
    const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
    return { heapUsedMb: mb(usage.heapUsed), arrayBuffersMb: mb(usage.arrayBuffers), rssMb: mb(usage.rss) };
  } finally {
    socket.close();
  }
}
