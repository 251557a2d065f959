// Environment names (infra/stack-environment.ts): the stack name each gives, the names refused, and the
// disposable stacks kept out of production.

import { describe, expect, it } from '@jest/globals';
import {
  environmentOf,
  refuseDisposableProduction,
  stackNameOf,
  stackRoleName,
} from '../../infra/stack-environment.ts';

describe('environment names', () => {
  const from = (context: Record<string, string>) => (key: string) => context[key];

  it('name the stack: PlantStore for production, PlantStore-<env> for others, -c stackName over both', () => {
    expect(stackNameOf(from({}))).toBe('PlantStore');
    expect(stackNameOf(from({ env: 'staging' }))).toBe('PlantStore-staging');
    expect(stackNameOf(from({ env: 'dev', stackName: 'Sandbox' }))).toBe('Sandbox');
    expect(stackNameOf(from({ env: 'dev', stackName: 'PlantStore-dev-alice' }))).toBe('PlantStore-dev-alice');
  });

  it.each([
    [{ env: 'dev', stackName: 'PlantStore' }, 'PlantStore-dev'],
    [{ stackName: 'PlantStore-dev' }, 'PlantStore'],
    [{ env: 'dev', stackName: 'PlantStore-staging' }, 'PlantStore-dev'],
  ])("refuse %j: another environment's stack, retagged", (context, own) => {
    expect(() => stackNameOf(from(context))).toThrow(
      new RegExp(`names another environment's stack, .*drop -c stackName \\(stack ${own}\\)`),
    );
  });

  it('refuse a -c stackName too long for the role names that carry it (IAM allows 64 characters)', () => {
    const longest = 'S'.repeat(64 - '-CodeDeploy'.length);
    expect(stackRoleName(stackNameOf(from({ stackName: longest })), 'CodeDeploy')).toHaveLength(64);
    expect(() => stackNameOf(from({ stackName: `${longest}x` }))).toThrow(
      /-c stackName=S+x is 54 characters; at most 53: the stack's role names carry it/,
    );
  });

  it("keep a disposable stack of another name out of production's metrics: it needs an environment of its own", () => {
    // What docs/deploy.md used to suggest for a dev stack.
    const before = from({ dev: 'true', stackName: 'PlantStoreDev' });
    expect(() => refuseDisposableProduction(before, 'PlantStoreDev')).toThrow(
      "-c dev=true in the production environment would feed production's alarms with PlantStoreDev's metrics: add -c env=dev",
    );
    const after = from({ dev: 'true', stackName: 'PlantStoreDev', env: 'dev' });
    expect(() => refuseDisposableProduction(after, stackNameOf(after))).not.toThrow();
    expect(stackNameOf(after)).toBe('PlantStoreDev');
  });

  it('are refused unless lower-case letters, digits and "-", so one name fits a stack, a dimension and a GitHub environment', () => {
    for (const bad of ['Dev', 'dev_1', '1dev', 'a'.repeat(21), 'dev env']) {
      expect(() => environmentOf(from({ env: bad }))).toThrow(/^env must be 1 to 20 lower-case letters/);
    }
  });
});
