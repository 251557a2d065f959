// Instructions a function process executes (valgrind's callgrind): a count that a busy machine does
// not move, where time and CPU time do. Callgrind zeroes its count at function-process.mjs's pauses and
// dumps it at the next: from the bundle's import to the first response (the cold start past Node's own
// start-up), and over the timed warm invocations; every thread counts (V8's compiler and GC threads
// included). It instruments from the start: switched on later, it would translate everything anew
// inside the first counted invocation, which then runs for minutes and meets the function's deadline.

import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const FUNCTION_PROCESS = fileURLToPath(new URL('../harness/function-process.mjs', import.meta.url));

export interface InstructionCount {
  /** From the bundle's import to the first response. */
  cold: number;
  /** Per timed warm invocation. */
  perRequest: number;
  invocations: number;
}

/** Fails with what to install when valgrind is missing. */
export async function requireValgrind(): Promise<string> {
  try {
    const { stdout } = await run('valgrind', ['--version']);
    return stdout.trim();
  } catch {
    throw new Error('--instructions needs valgrind (Debian and Ubuntu: apt-get install valgrind)');
  }
}

/** One function process under callgrind: `warmup` uncounted invocations, then `invocations` counted. */
export async function countInstructions(options: {
  bundle: string;
  env: NodeJS.ProcessEnv;
  event: unknown;
  warmup: number;
  invocations: number;
  dir: string;
}): Promise<InstructionCount> {
  const { bundle, env, event, warmup, invocations, dir } = options;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const out = `${dir}/callgrind.out`;
  const child = spawn(
    'valgrind',
    ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, FUNCTION_PROCESS],
    {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: {
        ...env,
        BENCH_BUNDLE: bundle,
        BENCH_EVENT: JSON.stringify(event),
        BENCH_WARMUP: String(warmup),
        BENCH_INVOCATIONS: String(invocations),
        BENCH_PAUSE: `${dir}/go`,
        // Under valgrind the first counted invocation runs a hundred times slower than it would.
        BENCH_REMAINING_MS: '600000',
      },
    },
  );
  // The function's own records (a refused or failed request writes one) and valgrind's messages.
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  child.stdout?.on('data', (chunk) => {
    stdout = (stdout + chunk).slice(-4000);
  });
  const control = (...args: string[]) => run('callgrind_control', [...args, String(child.pid)]);
  // What callgrind does at each pause; the function process waits there until its go file exists.
  const steps: Record<string, () => Promise<unknown>> = {
    import: () => control('--zero'),
    first: () => control('--dump=cold'),
    warm: () => control('--zero'),
    end: () => control('--dump=warm'),
  };
  let result = '';
  let pending = '';
  let queue: Promise<unknown> = Promise.resolve();
  child.stdio[3]?.on('data', (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const where = line.startsWith('pause ') ? line.slice('pause '.length) : undefined;
      if (where === undefined) result += line;
      else queue = queue.then(() => steps[where]?.()).then(() => writeFileSync(`${dir}/go.${where}`, ''));
    }
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  await queue;
  if (code !== 0) throw new Error(`valgrind's function process exited with ${code}: ${stderr}`);
  const { statusCode, failures } = JSON.parse(result + pending) as { statusCode: number; failures: number };
  if (statusCode !== 200 || failures > 0)
    throw new Error(`under valgrind: ${statusCode}, ${failures} failures: ${stdout}`);
  const [cold, warm] = [`${out}.1`, `${out}.2`].map((file) => {
    if (!existsSync(file)) throw new Error(`callgrind wrote no ${file}: ${stderr}`);
    return totalOf(readFileSync(file, 'utf8'));
  });
  return { cold: cold ?? 0, perRequest: (warm ?? 0) / invocations, invocations };
}

/** A callgrind dump's total instructions (its `summary:` or `totals:` line). */
export function totalOf(dump: string): number {
  const total = /^(?:summary|totals): (\d+)/m.exec(dump)?.[1];
  if (total === undefined) throw new Error('a callgrind dump without a total');
  return Number(total);
}
