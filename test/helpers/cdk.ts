// Synthesizes the stack as `cdk synth` does (cdk-nag included). A test run synthesizes each context
// once, in its synth server (synth-server.ts): the cloud assembly, cdk-nag's findings and
// acknowledgements are kept on disk for the run, so a test file loads neither aws-cdk-lib's
// constructs nor the stack.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { Environment } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { PRODUCTION_STACK } from '../../infra/stack-environment.ts';

/** The stack's name in these synths without -c env or -c stackName: production's, as app.ts names it. */
export const STACK = PRODUCTION_STACK;

/** The run's synth server (test/helpers/synth-server.ts, started by test/global-setup.ts). */
export const SYNTH_SERVER_ENV = 'PLANT_STORE_TEST_SYNTH_SERVER';

export interface SynthOptions {
  /** Bundle the function's code, as `cdk deploy` does: most tests are about the template. */
  bundle?: boolean;
  /** The account and Region the CDK CLI would pass (an option may need a Region at synth); none by default. */
  env?: Environment;
}

export interface Synthesized {
  template: Template;
  /** The template file, as `sam local` and cfn-lint read it. */
  templatePath: string;
  /** The cloud assembly (manifest, templates, assets), shared by the run: read it, never write it. */
  outdir: string;
  /** The stacks an option adds beside the service's, by the suffix of their name. */
  beside: Record<string, { template: Template; templatePath: string }>;
  /** cdk-nag's AwsSolutions findings left unacknowledged anywhere in the app. */
  nagViolations: unknown[];
  /** The stack's acknowledged cdk-nag findings: [rule id, written reason]. */
  acknowledged: [string, string][];
}

/** What the synth server keeps of a synth besides its cloud assembly. */
export interface Kept {
  outdir: string;
  templatePath: string;
  /** Each stack beside the service's: its name's suffix, its template file. */
  beside: [suffix: string, templatePath: string][];
  nagViolations: unknown[];
  acknowledged: [string, string][];
}

/** The stacks the synth server knows how to make. */
export type Recipe = 'app' | 'access';

export interface SynthInput {
  context: Record<string, unknown>;
  env?: Environment;
  bundle?: boolean;
}

const templateAt = (path: string) =>
  Template.fromJSON(JSON.parse(readFileSync(path, 'utf8')), { skipCyclicalDependenciesCheck: true });

/** The stack for `context`, synthesized once a run by the run's synth server. */
export async function synth(context: Record<string, unknown> = {}, options: SynthOptions = {}): Promise<Synthesized> {
  const kept = await synthOnServer('app', { context, env: options.env ?? {}, bundle: options.bundle ?? false });
  return {
    template: templateAt(kept.templatePath),
    templatePath: kept.templatePath,
    outdir: kept.outdir,
    beside: Object.fromEntries(
      kept.beside.map(([suffix, templatePath]) => [suffix, { template: templateAt(templatePath), templatePath }]),
    ),
    nagViolations: kept.nagViolations,
    acknowledged: kept.acknowledged,
  };
}

/** Asks this run's synth server for a recipe's synth, made now or earlier in the run. */
export async function synthOnServer(recipe: Recipe, input: SynthInput): Promise<Kept> {
  const server = process.env[SYNTH_SERVER_ENV];
  if (!server) throw new Error(`${SYNTH_SERVER_ENV} is unset: the synth server starts in test/global-setup.ts`);
  // A connection per request: the server's event loop is busy for the length of a synth, and a
  // kept-alive connection it timed out meanwhile would fail the next request.
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = httpRequest(`${server}/${recipe}`, { method: 'POST', agent: false }, async (response) => {
      const body = Buffer.concat(await Array.fromAsync(response)).toString();
      resolve({ status: response.statusCode ?? 0, body });
    });
    request.on('error', reject);
    request.end(JSON.stringify(input));
  });
  const answer = JSON.parse(body) as { kept?: Kept; name?: string; message?: string; stack?: string };
  if (status === 200 && answer.kept !== undefined) return answer.kept;
  const error = new Error(answer.message ?? `synth server: ${status}`);
  throw Object.assign(error, { name: answer.name ?? 'Error', stack: answer.stack ?? error.stack });
}

/** The cache key of one synth: its recipe and input, whatever the order of the input's keys. */
export function keyOf(recipe: Recipe, input: SynthInput): string {
  const sorted = (value: unknown): unknown =>
    value === null || typeof value !== 'object' || Array.isArray(value)
      ? value
      : Object.fromEntries(
          Object.entries(value)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([key, inner]) => [key, sorted(inner)]),
        );
  return `${recipe}-${createHash('sha256')
    .update(JSON.stringify(sorted(input)))
    .digest('hex')
    .slice(0, 24)}`;
}

/** The acknowledged cdk-nag findings under `scope`: [rule id, written reason]. */
export async function acknowledgedIn(scope: IConstruct): Promise<[string, string][]> {
  const { Validations } = await import('aws-cdk-lib');
  return scope.node
    .findAll()
    .flatMap((construct) => construct.node.metadata)
    .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
    .flatMap((entry) => Object.entries(entry.data as Record<string, string>));
}

/** Synthesizes the app now, in this process, into `outdir` (the synth server's recipe). */
export async function synthApp(outdir: string, { context, env = {}, bundle = false }: SynthInput): Promise<Kept> {
  const [{ AwsSolutionsChecks }, { synthesize }] = await Promise.all([import('cdk-nag'), import('./synth.ts')]);
  const { app, stack, assembly } = synthesize(context, { outdir, bundle, env });
  const beside = assembly.stacks.filter((artifact) => artifact.stackName !== stack.stackName);
  return {
    outdir,
    templatePath: assembly.getStackByName(stack.stackName).templateFullPath,
    beside: beside.map((artifact) => [artifact.stackName.slice(stack.stackName.length), artifact.templateFullPath]),
    nagViolations: new AwsSolutionsChecks().validateScope(app).violations,
    acknowledged: await acknowledgedIn(stack),
  };
}
