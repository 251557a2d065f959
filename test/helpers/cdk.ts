// Synthesizes the stack as `cdk synth` does (cdk-nag included). A test run synthesizes each context
// once: the template, cdk-nag's findings and acknowledgements are kept on disk for the run, so a
// file that only reads them loads neither aws-cdk-lib's constructs nor the stack.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App, Environment } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { PlantStoreStack } from '../../infra/plant-store-stack.ts';

import { PRODUCTION_STACK } from '../../infra/stack-environment.ts';

/** The stack's id in these synths: production's, as app.ts names it (infra/synth.ts). */
export const STACK = PRODUCTION_STACK;

/** Where synthesized templates are kept for one jest run (set by test/global-setup.ts). */
export const SYNTH_CACHE_ENV = 'PLANT_STORE_TEST_SYNTH_DIR';

export interface SynthOptions {
  /** Bundle the function's code (a live synth, never cached): most tests are about the template. */
  bundle?: boolean;
  /** The account and Region the CDK CLI would pass (the edge needs a Region at synth); none by default. */
  env?: Environment;
}

export interface Synthesized {
  template: Template;
  /** The template file, as `sam local` and cfn-lint read it. */
  templatePath: string;
  /** With the edge outside us-east-1: the web ACL's own stack there. */
  waf?: { template: Template; templatePath: string };
  /** cdk-nag's AwsSolutions findings left unacknowledged anywhere in the app. */
  nagViolations: unknown[];
  /** The stack's acknowledged cdk-nag findings: [rule id, written reason]. */
  acknowledged: [string, string][];
  cleanup(): void;
}

/** A synth whose construct tree is still at hand. */
export interface LiveSynthesized extends Synthesized {
  app: App;
  stack: PlantStoreStack;
  outdir: string;
}

/** What a cached synth keeps: everything in Synthesized but the parsed templates. */
interface Kept {
  template: unknown;
  waf?: unknown;
  nagViolations: unknown[];
  acknowledged: [string, string][];
}

/**
 * The stack for `context`, read from this run's cache when another test synthesized it already.
 * Outside jest (no cache folder) every call synthesizes.
 */
export async function synth(context: Record<string, unknown> = {}, options: SynthOptions = {}): Promise<Synthesized> {
  const dir = process.env[SYNTH_CACHE_ENV];
  if (!dir || options.bundle) return synthLive(context, options);
  const key = createHash('sha256')
    .update(JSON.stringify({ context, env: options.env ?? {} }))
    .digest('hex')
    .slice(0, 24);
  const base = join(dir, key);
  if (!existsSync(`${base}.json`)) {
    const live = await synthLive(context, options);
    try {
      keep(base, live);
    } finally {
      live.cleanup();
    }
  }
  const kept = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as Kept;
  return {
    template: Template.fromJSON(kept.template as Record<string, unknown>, { skipCyclicalDependenciesCheck: true }),
    templatePath: `${base}.template.json`,
    ...(kept.waf !== undefined && {
      waf: {
        template: Template.fromJSON(kept.waf as Record<string, unknown>, { skipCyclicalDependenciesCheck: true }),
        templatePath: `${base}.waf.template.json`,
      },
    }),
    nagViolations: kept.nagViolations,
    acknowledged: kept.acknowledged,
    cleanup: () => {},
  };
}

// Written under a temporary name and renamed: two jest workers may synthesize the same context at
// once, and a reader must never see half a file.
function keep(base: string, live: LiveSynthesized): void {
  const kept: Kept = {
    template: live.template.toJSON(),
    ...(live.waf && { waf: live.waf.template.toJSON() }),
    nagViolations: live.nagViolations,
    acknowledged: live.acknowledged,
  };
  const write = (file: string, content: unknown) => {
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, JSON.stringify(content));
    renameSync(partial, file);
  };
  write(`${base}.template.json`, kept.template);
  if (kept.waf !== undefined) write(`${base}.waf.template.json`, kept.waf);
  write(`${base}.json`, kept);
}

/** Synthesizes now, into a temporary cloud assembly, keeping the app and the stack. */
export async function synthLive(
  context: Record<string, unknown> = {},
  { bundle = false, env = {} }: SynthOptions = {},
): Promise<LiveSynthesized> {
  const [{ Validations }, { AwsSolutionsChecks }, { synthesize }] = await Promise.all([
    import('aws-cdk-lib'),
    import('cdk-nag'),
    import('../../infra/synth.ts'),
  ]);
  const outdir = mkdtempSync(join(tmpdir(), 'plant-store-cdk-'));
  const { app, stack, assembly } = synthesize(context, { outdir, bundle, env });
  const wafStack = assembly.stacks.find((artifact) => artifact.stackName === `${STACK}EdgeWaf`);
  const acknowledged = stack.node
    .findAll()
    .flatMap((construct) => construct.node.metadata)
    .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
    .flatMap((entry) => Object.entries(entry.data as Record<string, string>));
  return {
    app,
    stack,
    template: Template.fromStack(stack),
    templatePath: assembly.getStackByName(STACK).templateFullPath,
    outdir,
    ...(wafStack && {
      waf: { template: Template.fromJSON(wafStack.template), templatePath: wafStack.templateFullPath },
    }),
    nagViolations: new AwsSolutionsChecks().validateScope(app).violations,
    acknowledged,
    cleanup: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

/** Makes this run's cache folder (global set-up). */
export function makeSynthCache(runDir: string): string {
  const dir = join(runDir, 'synth');
  mkdirSync(dir, { recursive: true });
  return dir;
}
