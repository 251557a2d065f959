// The template `sam local` runs, synthesized for the Docker engine's architecture into its own folder.

import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cdkSynth, SynthError } from '../cdk-synth.ts';

export { SynthError };

export type SamTemplate = ReturnType<typeof readSamTemplate>;

export async function synthForSam(outdir: string, architecture: string, context: string[]) {
  // A fresh folder: every code change adds an asset folder, and only the current one matters.
  rmSync(outdir, { recursive: true, force: true });
  await cdkSynth(outdir, ['samLocal=true', `architecture=${architecture}`, ...context]);
  return readSamTemplate(outdir);
}

export function readSamTemplate(outdir: string) {
  const manifest = JSON.parse(readFileSync(join(outdir, 'manifest.json'), 'utf8'));
  const stacks = Object.entries(
    manifest.artifacts as Record<string, { type: string; properties?: { templateFile?: string } }>,
  ).filter(([, artifact]) => artifact.type === 'aws:cloudformation:stack');
  const [stack] = stacks;
  if (stacks.length !== 1 || !stack?.[1].properties?.templateFile)
    throw new SynthError(`Expected one stack in ${outdir}`);
  const file = join(outdir, stack[1].properties.templateFile);
  const template = JSON.parse(readFileSync(file, 'utf8'));
  // The construct's logical id: its id plus a hash of its path (ListPlantsFunctionF67D8BDA).
  const functions = Object.entries(template.Resources as Record<string, TemplateResource>).filter(
    ([id, resource]) => resource.Type === 'AWS::Lambda::Function' && /^ListPlantsFunction[0-9A-F]{8}$/.test(id),
  );
  const [fn] = functions;
  if (!fn) throw new SynthError(`No ListPlantsFunction in ${file}`);
  const [functionId, { Properties: properties, Metadata: metadata }] = fn;
  return {
    stackName: stack[0],
    file,
    // The function's logical id, as `sam local invoke` takes it.
    functionId,
    // The function's code folder (the bundle), mounted in the container as /var/task.
    assetDir: join(outdir, String(metadata?.['aws:asset:path'])),
    runtime: String(properties.Runtime),
    architecture: String(properties.Architectures?.[0] ?? 'x86_64'),
    // The function's environment as the template declares it: only these can be overridden.
    variables: (properties.Environment?.Variables ?? {}) as Record<string, unknown>,
  };
}

interface TemplateResource {
  Type: string;
  Metadata?: Record<string, unknown>;
  Properties: { Runtime?: string; Architectures?: string[]; Environment?: { Variables?: Record<string, unknown> } };
}
