// `npm run sam -- invoke | start-api`: the synthesized template under the AWS SAM CLI in one command.

import { execFile } from 'node:child_process';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { ENV } from '../../handlers/lib/environment.ts';
import { checkPrerequisites } from '../sam/prerequisites.ts';
import { runSam } from '../sam/run-sam.ts';
import { type SamTemplate, synthForSam } from '../sam/template.ts';
import { LOCAL_DYNAMODB_DEADLINE_MS, localDirOf, OptionValueError, parsePort } from '../server/options.ts';
import { UsageError } from './args.ts';
import { runCli } from './shell.ts';

const DEFAULT_API_PORT = 3001;
const USAGE = `Usage: npm run sam -- invoke [--rest] [--limit N] | start-api [--port N]   [--skip-pull-image] [-c key=value]...

  invoke              one invocation with an HTTP API event (payload 2.0) as the demo user alice: her
                      plants and her group greenhouse's; SAM's result on stdout
    --rest            the REST API event (payload 1.0) instead
    --limit N         ask for N plants (the result's Link header names the next page)
  start-api           the API on http://127.0.0.1:${DEFAULT_API_PORT}/plants until Ctrl+C (a container per request)
    --port N          its port
  --skip-pull-image   don't ask the registry for a newer Lambda image (automatic when the image is local)
  -c key=value        more CDK context for the synth, e.g. -c requestLog=all

Needs the AWS SAM CLI and Docker. Files go to .local/sam/: the template, env.json, the events and
a token per demo user (alice, bob). Everything started here stops when SAM does.`;

const OPTIONS = {
  rest: { type: 'boolean' },
  limit: { type: 'string' },
  port: { type: 'string' },
  'skip-pull-image': { type: 'boolean' },
  context: { type: 'string', short: 'c', multiple: true },
} as const;
process.exitCode = await runCli(
  { usage: USAGE, options: OPTIONS, positionals: true },
  async ({ values: flags, positionals }) => {
    const [command, ...extra] = positionals;
    if (command !== 'invoke' && command !== 'start-api')
      throw new UsageError(command ? `Unknown command "${command}"` : 'Give a command: invoke or start-api');
    if (extra.length > 0) throw new UsageError(`Unexpected ${extra.join(' ')}`);
    if (command === 'start-api' && (flags.rest || flags.limit))
      throw new UsageError('--rest and --limit go with invoke');
    if (command === 'invoke' && flags.port) throw new UsageError('--port goes with start-api');
    if (flags.limit !== undefined && !/^[1-9]\d{0,9}$/.test(flags.limit))
      throw new UsageError('--limit takes a positive integer');
    const apiPort = parsePort(flags.port ?? String(DEFAULT_API_PORT), '--port');
    // SAM listens where it is told: a port the next links and the printed curl can name.
    if (apiPort === 0) throw new OptionValueError('--port must be from 1 to 65535 for start-api, got "0"');

    const docker = await checkPrerequisites(process.env);
    const dir = join(localDirOf(process.env), 'sam');
    const shown = (path: string) => relative(process.cwd(), path);
    console.error(
      `Synthesizing for ${docker.architecture} (npx cdk synth -c samLocal=true -c architecture=${docker.architecture})…`,
    );
    const template = await synthForSam(join(dir, 'cdk.out'), docker.architecture, flags.context ?? []);
    const requiredScope = template.variables[ENV.requiredScope];
    const scope = typeof requiredScope === 'string' ? requiredScope.split(/\s+/)[0] : undefined;
    // Loaded only now: a missing tool is said before DynamoDB, the SDK and the issuer are loaded.
    const [{ startSamServices }, { writeSamFiles }] = await Promise.all([
      import('../sam/services.ts'),
      import('../sam/files.ts'),
    ]);
    const services = await startSamServices(join(dir, 'issuer'), docker.bindAddress, scope);
    try {
      const apiOrigin = command === 'start-api' ? `http://127.0.0.1:${apiPort}` : undefined;
      const files = writeSamFiles(dir, template, services, { limit: flags.limit, apiOrigin });
      console.error(
        `DynamoDB (dynalite, in memory, ${services.seeded} demo plants; deadline ${LOCAL_DYNAMODB_DEADLINE_MS / 1000} s, ` +
          `${ENV.dynamodbDeadlineMs}) and the issuer on ${docker.bindAddress}, ` +
          `as ${new URL(services.dynamodbEndpoint).hostname} to the container; template ${shown(template.file)}, env ${shown(files.envFile)}`,
      );
      const skipPull = flags['skip-pull-image'] === true || (await imageIsLocal(template));
      const common = [
        '--template-file',
        template.file,
        '--env-vars',
        files.envFile,
        '--add-host',
        'host.docker.internal:host-gateway',
        ...(skipPull ? ['--skip-pull-image'] : []),
      ];
      const args =
        command === 'invoke'
          ? [
              'local',
              'invoke',
              template.functionId,
              '--event',
              flags.rest ? files.events.rest : files.events.http,
              ...common,
            ]
          : ['local', 'start-api', ...common, '--port', String(apiPort)];
      const alice = shown(files.tokenFiles.alice ?? '');
      const run = runSam(args, {
        onLine: (line) => {
          if (!/Running on http/.test(line)) return;
          console.error(
            `\nFrom another terminal (tokens valid 1 h, for alice and bob, in ${shown(dir)}/):\n` +
              `  curl -i -H "Authorization: Bearer $(cat ${alice})" http://127.0.0.1:${apiPort}/plants\n` +
              'A container starts per request (2–3 s). After a code change, Ctrl+C and run again: the bundle is built at synth.\n',
          );
        },
      });
      // Ctrl+C reaches npm and this process, not SAM (its own process group): SAM is asked once, as
      // Ctrl+C would, stops its containers and exits; then DynamoDB and the issuer close.
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => run.stop());
      return await run.exited;
    } finally {
      await services.close();
      if (command === 'start-api') console.error('Stopped SAM, DynamoDB and the issuer.');
    }
  },
);

// `nodejs24.x` on x86_64 runs in public.ecr.aws/lambda/nodejs:24-x86_64, as SAM names it.
async function imageIsLocal(template: SamTemplate): Promise<boolean> {
  const [, language, version] = /^([a-z]+)(\d+)\.x$/.exec(template.runtime) ?? [];
  if (!language || !version) return false;
  const image = `public.ecr.aws/lambda/${language}:${version}-${template.architecture}`;
  return promisify(execFile)('docker', ['image', 'inspect', image], { timeout: 15_000 }).then(
    () => true,
    () => false,
  );
}
