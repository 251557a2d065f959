// How bench:profile attributes a CPU profile's samples to stages: by the innermost frame whose source
// names one, Node's own frames counting for the bundle code that called them; and callgrind's total.

import { describe, expect, it } from '@jest/globals';
import { type CpuProfile, componentOf, type Origin, type OriginOf, splitByStage } from '../measure/cpu-stages.ts';
import { totalOf } from '../measure/instructions.ts';

/** A profile of one sample per call stack, each stack's frames from the root as `url#functionName`. */
function profileOf(stacks: string[][]): CpuProfile {
  const nodes: CpuProfile['nodes'] = [{ id: 1, callFrame: frame('#(root)'), children: [] }];
  const ids = new Map<string, number>();
  const samples = stacks.map((stack) =>
    stack.reduce((parent, name, depth) => {
      const path = stack.slice(0, depth + 1).join(' > ');
      let id = ids.get(path);
      if (id === undefined) {
        id = nodes.length + 1;
        ids.set(path, id);
        nodes.push({ id, callFrame: frame(name), children: [] });
        nodes[parent - 1]?.children?.push(id);
      }
      return id;
    }, 1),
  );
  return { nodes, samples, startTime: 0, endTime: samples.length };
}

function frame(name: string) {
  const [url = '', functionName = ''] = name.split('#');
  return { functionName, url, lineNumber: 3, columnNumber: 7 };
}

/** Source maps in miniature: each bundle URL's original source and the line its function starts on. */
const withSources = (sources: Record<string, Origin>): OriginOf => ({ of: (url) => sources[url] });

describe('splitByStage', () => {
  it('gives each sample to the innermost frame whose source names a stage, Node frames to their caller', () => {
    // Prepare
    const sources = withSources({
      'file:///b/signer': { source: '@smithy/signature-v4/dist-es/SignatureV4.js', line: 'async sign(request) {' },
      'file:///b/schema': {
        source: '@smithy/core/dist-es/submodules/schema/schemas/NormalizedSchema.js',
        line: 'of(x) {',
      },
      'file:///b/deser': {
        source: '@smithy/core/dist-es/submodules/schema/middleware/schemaDeserializationMiddleware.js',
        line: 'export const schemaDeserializationMiddleware = (config) => (next, context) => async (args) => {',
      },
      'file:///b/utils': {
        source: '@aws-sdk/lib-dynamodb/dist-es/commands/utils.js',
        line: 'export const unmarshallOutput = (obj, keyNodes, options) => {',
      },
      'file:///b/verify': { source: 'aws-jwt-verify/dist/esm/jwt-rsa.js', line: 'verify(jwt) {' },
    });
    const profile = profileOf([
      ['file:///b/signer#sign', 'node:internal/crypto/hash#digest'],
      ['file:///b/deser#', 'file:///b/schema#of'],
      ['file:///b/deser#', '#parse'],
      ['file:///b/utils#Yx'],
      ['file:///b/verify#verify', '#parse'],
      ['node:internal/stream_base_commons#onStreamRead', '#writev'],
      ['#(garbage collector)'],
      ['#(idle)'],
    ]);

    // Act
    const { stages, components, samples } = splitByStage(profile, sources);

    // Assess
    expect(samples).toBe(7);
    expect(stages.signing).toBe(1);
    expect(stages.parsing).toBe(2);
    expect(stages.unmarshalling).toBe(1);
    expect(stages['token verify']).toBe(1);
    expect(stages.HTTP).toBe(1);
    expect(stages['garbage collection']).toBe(1);
    expect(components['@smithy/core/schema/schemas']).toBe(1);
  });

  it('counts frames outside any bundle by where they are', () => {
    const profile = profileOf([['#(program)'], ['node:internal/modules/esm/utils#compileSourceTextModule']]);
    const { stages } = splitByStage(profile, withSources({}));
    expect(stages['Node and V8 (no caller in the bundle)']).toBe(1);
    expect(stages['loading the bundle (read, compile, run its top level)']).toBe(1);
  });
});

describe('componentOf', () => {
  it("names the SDK's submodule and folder, a package, or our own file", () => {
    expect(componentOf('@smithy/core/dist-es/submodules/client/middleware-stack/MiddlewareStack.js')).toBe(
      '@smithy/core/client/middleware-stack',
    );
    expect(componentOf('@smithy/signature-v4/dist-es/SignatureV4.js')).toBe('@smithy/signature-v4');
    expect(componentOf('aws-jwt-verify/dist/esm/jwt.js')).toBe('aws-jwt-verify');
    expect(componentOf('handlers/lib/plants.ts')).toBe('handlers/lib/plants.ts');
  });
});

describe("callgrind's total", () => {
  it('reads the summary line of a dump', () => {
    expect(totalOf('version: 1\ncmd: node\nevents: Ir\nsummary: 398744716\n')).toBe(398744716);
  });
});
