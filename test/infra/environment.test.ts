// Environments by name: production keeps today's stack name and the logical ids of its retained
// resources; another environment is its own stack with its own metrics; a disposable production is
// refused. Where the app's own behaviour is the point (stack names written, stderr, exit code) it
// runs as the CDK CLI runs it (context in CDK_CONTEXT_JSON), bundling skipped; each run costs a
// whole CDK process, so the rules it applies are also checked in-process.

import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Match } from 'aws-cdk-lib/assertions';
import { NO_ALARM_EMAIL } from '../../infra/alarm-mail.ts';
import { refuseDisposableProduction, stackKindLine, stackNameOf } from '../../infra/stack-environment.ts';
import { synth } from '../helpers/cdk.ts';

/** `-c` values as the app reads them. */
const contextOf = (values: Record<string, string>) => (key: string) => values[key];

const outdirs: string[] = [];
afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

interface AppRun {
  code: number;
  stderr: string;
  /** The templates written, by stack name. */
  templates: Record<
    string,
    { Resources: Record<string, { Type: string; DeletionPolicy?: string; UpdateReplacePolicy?: string }> }
  >;
}

async function runApp(context: Record<string, unknown>, region?: string): Promise<AppRun> {
  const outdir = mkdtempSync(join(tmpdir(), 'plant-store-env-'));
  outdirs.push(outdir);
  const env = {
    ...process.env,
    CDK_OUTDIR: outdir,
    CDK_CONTEXT_JSON: JSON.stringify({ 'aws:cdk:bundling-stacks': [], ...context }),
    // What the CDK CLI passes from the profile: an option may need a Region at synth.
    ...(region && { CDK_DEFAULT_REGION: region, CDK_DEFAULT_ACCOUNT: '123456789012' }),
  };
  const { code, stderr } = await promisify(execFile)(process.execPath, ['infra/app.ts'], { env }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );
  const templates = Object.fromEntries(
    readdirSync(outdir)
      .filter((file) => file.endsWith('.template.json'))
      .map((file) => [file.replace('.template.json', ''), JSON.parse(readFileSync(join(outdir, file), 'utf8'))]),
  );
  return { code, stderr, templates };
}

// The app's two runs start at once: each is a whole CDK process, and the tests only read them.
const runs = {
  production: runApp({}),
  disposableProduction: runApp({ dev: 'true' }),
};

// Today's production template (synthesized from main before environments existed): CloudFormation
// replaces a resource whose logical id changes, and these four hold the users, the plants and the logs.
const RETAINED = {
  PlantsTable0ED39346: 'AWS::DynamoDB::Table',
  IdentityUserPool96FE3B9B: 'AWS::Cognito::UserPool',
  FunctionLogsAE28C13D: 'AWS::Logs::LogGroup',
  ApiAccessLogs50B185DB: 'AWS::Logs::LogGroup',
};

describe('the production environment (no -c env, or -c env=production)', () => {
  it('keeps the stack name PlantStore and the logical ids of its retained table, user pool and log groups', async () => {
    const run = await runs.production;
    expect(Object.keys(run.templates)).toEqual(['PlantStore']);
    const resources = run.templates.PlantStore?.Resources ?? {};
    for (const [id, type] of Object.entries(RETAINED)) {
      // Kept on a delete or a replacement; deleted when the create that made it rolls back, so a failed
      // first deploy leaves nothing behind to block the next.
      const { Type, DeletionPolicy, UpdateReplacePolicy } = resources[id] ?? {};
      expect({ id, Type, DeletionPolicy, UpdateReplacePolicy }).toEqual({
        id,
        Type: type,
        DeletionPolicy: 'RetainExceptOnCreate',
        UpdateReplacePolicy: 'Retain',
      });
    }
    // The CDK CLI drops `-c dev` (no `=true`) with only a warning: every synth says which kind it made.
    expect(run.stderr.trim().split('\n')).toContain(
      'PlantStore: a retained stack: its table, user pool and logs outlive cdk destroy (-c dev=true: a disposable one)',
    );
    expect(stackNameOf(contextOf({ env: 'production' }))).toBe('PlantStore');
  });

  it('says on every synth without alarmEmail that no alarm notifies anyone', async () => {
    const run = await runs.production;
    expect(run.stderr.trim().split('\n')).toContain(`PlantStore: ${NO_ALARM_EMAIL}`);
  });

  it("keeps today's service dimension, plant-store, in the function and in every metric it is read by", async () => {
    const { template } = await synth();
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ POWERTOOLS_SERVICE_NAME: 'plant-store' }) },
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Metrics: Match.arrayWith([
        Match.objectLike({
          MetricStat: Match.objectLike({
            Metric: Match.objectLike({ Dimensions: Match.arrayWith([{ Name: 'service', Value: 'plant-store' }]) }),
          }),
        }),
      ]),
    });
  });
});

describe('another environment (-c env=dev)', () => {
  it('is its own stack, PlantStore-dev, and a disposable one only when asked', async () => {
    expect(stackNameOf(contextOf({ env: 'dev' }))).toBe('PlantStore-dev');
    const retained = await synth({ env: 'dev' });
    expect(Object.values(retained.template.findResources('AWS::DynamoDB::Table'))[0]?.DeletionPolicy).toBe(
      'RetainExceptOnCreate',
    );

    // Disposable on request, and saying so as the app prints it for every synth (the production run
    // above prints the retained kind). A stack an option stands beside it is named after the
    // environment's too: the option's own tests.
    const disposable = await synth({ env: 'dev', dev: 'true' });
    expect(basename(disposable.templatePath)).toBe('PlantStore-dev.template.json');
    expect(Object.values(disposable.template.findResources('AWS::DynamoDB::Table'))[0]?.DeletionPolicy).toBe('Delete');
    expect(stackKindLine('PlantStore-dev', true)).toBe(
      'PlantStore-dev: a disposable stack (-c dev=true): cdk destroy deletes its table, user pool and logs',
    );
  });

  it('records under its own service dimension, which its alarms, canary alarms and dashboard read', async () => {
    const { template } = await synth({ env: 'dev' });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ POWERTOOLS_SERVICE_NAME: 'plant-store-dev' }) },
    });
    const json = JSON.stringify(template.toJSON());
    expect(json).not.toMatch(/"service",\s*"plant-store"|"Value":"plant-store"/);
    const dashboard = JSON.stringify(Object.values(template.findResources('AWS::CloudWatch::Dashboard'))[0]);
    expect(dashboard).toContain('\\"service\\",\\"plant-store-dev\\"');
    // The canary's alarm on the new version's 5xx reads the function's own EMF count.
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Metrics: Match.arrayWith([
        Match.objectLike({
          MetricStat: Match.objectLike({
            Metric: Match.objectLike({
              Dimensions: Match.arrayWith([{ Name: 'service', Value: 'plant-store-dev' }]),
            }),
          }),
        }),
      ]),
    });
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolTags: { PlantStoreEnvironment: 'dev' },
    });
  });
});

describe('a disposable stack under the production name', () => {
  const REFUSALS: [Record<string, string>, string][] = [
    [{ dev: 'true' }, 'type -c env=dev -c dev=true (stack PlantStore-dev)'],
    [{ dev: 'true', env: 'production' }, 'type -c env=dev -c dev=true (stack PlantStore-dev)'],
    [{ dev: 'true', env: 'qa', stackName: 'PlantStore' }, 'drop -c stackName (stack PlantStore-qa)'],
  ];

  it('is refused by the app before any stack exists, in one line on stderr, exit code 1', async () => {
    const run = await runs.disposableProduction;
    expect(run.code).toBe(1);
    expect(Object.keys(run.templates)).toEqual([]);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Refusing to synthesize: -c dev=true would make .* disposable \(cdk destroy would delete/,
    );
  });

  // The app prints the refusal's own message (above); each way of asking for it names what to type instead.
  it.each(REFUSALS)('is refused saying what to type instead: %j', (values, instead) => {
    const context = contextOf(values);
    expect(() => refuseDisposableProduction(context, stackNameOf(context))).toThrow(instead);
  });
});
