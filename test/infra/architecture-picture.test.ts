// The README's architecture picture, its one mermaid block: it parses as Mermaid, draws every
// resource type the synthesized stack has and no other, and the function's real middleware chain in
// order.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { type Architecture, parse } from '@mermaid-js/parser';
import { type Synthesized, synth } from '../helpers/cdk.ts';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const [, SOURCE = ''] = /```mermaid\n([\s\S]*?)```/.exec(read('README.md')) ?? [];

/** What each node drawn inside the `aws` group stands for in the template. */
const DRAWN_AS: Record<string, string[]> = {
  api: ['AWS::ApiGatewayV2::Api'],
  fn: ['AWS::Lambda::Function', 'AWS::Lambda::Alias'],
  table: ['AWS::DynamoDB::Table'],
  pool: ['AWS::Cognito::UserPool', 'AWS::Cognito::UserPoolClient'],
  deploy: ['AWS::CodeDeploy::Application', 'AWS::CodeDeploy::DeploymentGroup'],
  alarms: ['AWS::CloudWatch::Alarm', 'AWS::CloudWatch::Dashboard'],
  logs: ['AWS::Logs::LogGroup'],
};

/** Wiring the picture leaves out on purpose: every other type the stack gains must be drawn. */
const NOT_DRAWN = [
  'AWS::IAM::Role',
  'AWS::IAM::Policy',
  'AWS::Lambda::Permission',
  'AWS::Lambda::Version',
  'AWS::ApiGatewayV2::Integration',
  'AWS::ApiGatewayV2::Route',
  'AWS::ApiGatewayV2::Stage',
];

let picture: Architecture;
let stack: Synthesized;
beforeAll(async () => {
  picture = await parse('architecture', SOURCE);
  stack = await synth();
});

/** The ids of the nodes (services and groups) inside a group, at any depth. */
function inside(group: string): string[] {
  const children = [...picture.groups, ...picture.services].filter((node) => node.in === group).map((node) => node.id);
  return children.flatMap((id) => [id, ...inside(id)]);
}

describe('the architecture picture', () => {
  it('joins only nodes it declares', () => {
    const declared = new Set(picture.services.map((service) => service.id));
    const ends = picture.edges.flatMap((link) => [link.lhsId, link.rhsId]);

    expect(ends.filter((id) => !declared.has(id))).toEqual([]);
  });

  it('draws each resource type of the synthesized stack, and none it lacks', () => {
    const inStack = new Set(
      Object.values(stack.template.toJSON().Resources as Record<string, { Type: string }>).map((r) => r.Type),
    );
    const middleware = new Set(inside('fn'));
    const unmapped = inside('aws').filter((id) => !middleware.has(id) && !DRAWN_AS[id]);
    const drawn = inside('aws').flatMap((id) => DRAWN_AS[id] ?? []);

    expect(unmapped).toEqual([]);
    expect(drawn.filter((type) => !inStack.has(type))).toEqual([]);
    expect([...inStack].filter((type) => !drawn.includes(type) && !NOT_DRAWN.includes(type)).sort()).toEqual([]);
  });

  it("draws the function's middleware chain in the order handlers/list-plants.ts builds it", () => {
    const code = read('handlers/list-plants.ts');
    const chain = [...code.matchAll(/^\s*\.(?:use|handler)\((\w+)/gm)].map((match) => match[1]);
    const fn = new Set(inside('fn'));
    const next = new Map(
      picture.edges.filter((e) => fn.has(e.lhsId) && fn.has(e.rhsId)).map((e) => [e.lhsId, e.rhsId]),
    );
    const drawn = [picture.edges.find((link) => link.lhsId === 'api')?.rhsId];
    while (drawn.length < chain.length + 1 && next.has(drawn.at(-1) ?? '')) drawn.push(next.get(drawn.at(-1) ?? ''));

    expect(chain.length).toBeGreaterThan(1);
    expect(drawn.slice(0, chain.length)).toEqual(chain);
    expect(fn).toEqual(new Set(chain));
  });
});
