// Where a V8 CPU profile's samples went, by stage of a request (token, query building, signing, …):
// each sample goes to the innermost frame whose source (through the bundle's source maps) names a
// stage; Node's own code (sockets, streams, crypto, JSON) counts for the bundle code that called it.

import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const STAGES = [
  'loading the bundle (read, compile, run its top level)',
  'token verify',
  'query building',
  'signing',
  'endpoint resolution',
  'HTTP',
  'parsing',
  'unmarshalling',
  'SDK middleware and command',
  'our middleware and client code',
  'response building',
  'garbage collection',
  'Node and V8 (no caller in the bundle)',
  'harness (the measuring loop)',
] as const;
export type Stage = (typeof STAGES)[number];

/** A frame's source: what the bundle's source map says it was compiled from, and that line's text. */
export interface Origin {
  /** The path from node_modules/ on, or from the repository's root. */
  source: string;
  /** The original line where the function starts: names its function even where the bundle renamed it. */
  line: string;
}

type Rule = [source: RegExp, stage: Stage | 'defer', line?: RegExp];

/**
 * The first rule whose source (and line, when given) matches names a frame's stage; `defer` hands it
 * to the frame that called it (shared helpers such as the SDK's schema walker serve several stages).
 */
const RULES: Rule[] = [
  [/^aws-jwt-verify\/|^handlers\/lib\/auth\//, 'token verify'],
  [/^handlers\/lib\/(page-budget|http|cursor|public-url)\.ts$/, 'response building'],
  [/^handlers\/lib\/(plants|plant-query|partitions|limit|group-cache)\.ts$/, 'query building'],
  [/^handlers\/lib\/credentials-from-env\.ts$/, 'signing'],
  // The hand-written yardstick's parts: its hash for the signer, its HTTP, its endpoint.
  [/^lab\/entries\/hand-written\/dynamodb-client\.ts$/, 'signing', /Sha256|#hash|digest|update\(|const bytes/],
  [/^lab\/entries\/hand-written\/http\.ts$/, 'HTTP'],
  [/^lab\/entries\/hand-written\/endpoint\.ts$/, 'endpoint resolution'],
  [/^(handlers\/|@middy\/|lab\/entries\/)/, 'our middleware and client code'],
  // The document client's walk of the input (marshallInput) and of the output (unmarshallOutput).
  [/^@aws-sdk\/lib-dynamodb\/.*utils\.js$/, 'query building', /marshallInput/],
  [/^@aws-sdk\/lib-dynamodb\/.*utils\.js$/, 'unmarshalling', /unmarshallOutput/],
  [/^@aws-sdk\/lib-dynamodb\/.*utils\.js$/, 'defer'],
  [/^@aws-sdk\/util-dynamodb\/.*(convertToAttr|marshall)\.js$/, 'query building'],
  [/^@aws-sdk\/util-dynamodb\/.*(convertToNative|unmarshall)\.js$/, 'unmarshalling'],
  [/^@aws-sdk\/lib-dynamodb\//, 'SDK middleware and command'],
  // The SDK's schema-driven protocol: what writes the request, what reads the answer.
  [/schemaSerializationMiddleware|ShapeSerializer|requestBuilder|protocol-http\//, 'query building'],
  [/schemaDeserializationMiddleware|ShapeDeserializer|parseJsonBody|util-utf8|dynamodb-codec\//, 'parsing'],
  [/\/protocols\/[A-Za-z]*Protocol\.js$/, 'query building', /serializeRequest/],
  [/\/protocols\/[A-Za-z]*Protocol\.js$/, 'parsing', /deserializeResponse|handleError/],
  [/@smithy\/core\/.*\/(schema|serde)\//, 'defer'],
  [/signature-v4\/|httpAuthSchemes\/|middleware-http-signing\/|middleware-http-auth-scheme\/|checksum\//, 'signing'],
  [/util-hex-encoding\/|credential-provider/, 'signing'],
  [/endpoints?\/|endpoint-discovery\/|account-id-endpoint\/|\/endpoint\//, 'endpoint resolution'],
  [/node-http-handler\/|util-stream\/|collect-stream-body|\/transport\//, 'HTTP'],
  [/^@aws-sdk\/|^@smithy\//, 'SDK middleware and command'],
];

/** Frames of Node and V8 that name no stage: they count for their caller, or by where they are when none. */
const NODE_ALONE: [RegExp, Stage][] = [
  [/^\(garbage collector\) /, 'garbage collection'],
  [/ node:internal\/modules\//, 'loading the bundle (read, compile, run its top level)'],
  [/_http_|node:net|node:tls|node:https?|stream|socket|writev|(^| )node:internal\/(dns|net)/, 'HTTP'],
  [/function-process\.mjs|^cpuUsage |^threadCpuUsage /, 'harness (the measuring loop)'],
];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  startTime: number;
  endTime: number;
}

/** Reads each bundle file's source map once, and each original file's lines once. */
export class Origins implements OriginOf {
  readonly #maps = new Map<string, { map: SourceMap; dir: string } | undefined>();
  readonly #lines = new Map<string, string[]>();

  of(url: string, line: number, column: number): Origin | undefined {
    if (!url.startsWith('file:')) return undefined;
    const file = fileURLToPath(url);
    if (!this.#maps.has(file)) this.#maps.set(file, this.#read(file));
    const bundle = this.#maps.get(file);
    if (!bundle) return { source: file, line: '' };
    const entry = bundle.map.findEntry(line, column);
    if (!('originalSource' in entry)) return undefined;
    const path = resolve(bundle.dir, entry.originalSource);
    return { source: sourceName(path), line: this.#line(path, entry.originalLine) };
  }

  #read(file: string) {
    try {
      return { map: new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))), dir: dirname(file) };
    } catch {
      return undefined;
    }
  }

  #line(path: string, line: number): string {
    if (!this.#lines.has(path)) {
      let lines: string[] = [];
      try {
        lines = readFileSync(path, 'utf8').split('\n');
      } catch {}
      this.#lines.set(path, lines);
    }
    return this.#lines.get(path)?.[line] ?? '';
  }
}

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));

/** `@smithy/core/dist-es/…` from `…/node_modules/@smithy/core/dist-es/…`; `handlers/…` from the repository's own files (a baseline's too). */
export function sourceName(path: string): string {
  const inModules = path.lastIndexOf('/node_modules/');
  if (inModules >= 0) return path.slice(inModules + '/node_modules/'.length);
  // A baseline's sources, taken from git beside the lab (profile.ts --baseline), as the working tree's.
  const baseline = /\/baseline-\d+\/(handlers\/.*)$/.exec(path)?.[1];
  if (baseline) return baseline;
  return path.startsWith(REPOSITORY) ? path.slice(REPOSITORY.length) : path;
}

function ruleStage(origin: Origin): Stage | 'defer' | undefined {
  for (const [source, stage, line] of RULES) {
    if (source.test(origin.source) && (!line || line.test(origin.line))) return stage;
  }
  return undefined;
}

/** What a component of the bundle is, for the finer table: a package, or the SDK's submodule and folder. */
export function componentOf(source: string): string {
  const parts = source.split('/');
  if (source.startsWith('@smithy/core/') || source.startsWith('@aws-sdk/core/')) {
    const at = parts.indexOf('submodules');
    return parts
      .slice(0, 2)
      .concat(at >= 0 ? parts.slice(at + 1, at + 3) : parts.slice(3, 4))
      .join('/')
      .replace(/\.js$/, '');
  }
  if (source.startsWith('@')) return parts.slice(0, 2).join('/');
  if (source.startsWith('handlers/') || source.startsWith('lab/')) return source;
  return parts[0] ?? source;
}

export interface StageSplit {
  /** Samples per stage (idle samples excluded). */
  stages: Record<Stage, number>;
  /** Samples per component of the bundle (the innermost bundle frame's), for frames in the bundle. */
  components: Record<string, number>;
  samples: number;
}

/** Where a frame came from: Origins reads it from the bundle's source maps. */
export interface OriginOf {
  of(url: string, line: number, column: number): Origin | undefined;
}

/** Splits the non-idle samples of `profile` by stage and by component. */
export function splitByStage(profile: CpuProfile, origins: OriginOf): StageSplit {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const stageOfNode = new Map<number, { stage: Stage; component?: string }>();

  const classify = (id: number): { stage: Stage; component?: string } => {
    const known = stageOfNode.get(id);
    if (known) return known;
    const frame = (nodes.get(id) as ProfileNode).callFrame;
    const origin = frame.url.includes('function-process.mjs')
      ? undefined
      : origins.of(frame.url, frame.lineNumber, frame.columnNumber);
    const parent = parents.get(id);
    const fromCaller = parent === undefined ? undefined : classify(parent);
    const callerInBundle = fromCaller?.component !== undefined;
    let result: { stage: Stage; component?: string };
    // A module's top level (line 0, column 0 of a bundle file) runs once, as the bundle loads.
    const topLevel = origin !== undefined && frame.lineNumber === 0 && frame.columnNumber === 0;
    const stage = topLevel ? 'loading the bundle (read, compile, run its top level)' : origin && ruleStage(origin);
    if (origin && stage && stage !== 'defer') result = { stage, component: componentOf(origin.source) };
    else if (origin && stage === 'defer' && callerInBundle && fromCaller)
      result = { stage: fromCaller.stage, component: componentOf(origin.source) };
    else if (frame.url === '' && /^(parse|stringify)$/.test(frame.functionName) && callerInBundle && fromCaller)
      result = jsonStage(frame.functionName, fromCaller);
    else if (callerInBundle && fromCaller) result = fromCaller;
    else {
      const where = `${frame.functionName} ${frame.url}`;
      const alone = NODE_ALONE.find(([pattern]) => pattern.test(where))?.[1];
      result = { stage: alone ?? fromCaller?.stage ?? 'Node and V8 (no caller in the bundle)' };
    }
    stageOfNode.set(id, result);
    return result;
  };

  const stages = Object.fromEntries(STAGES.map((stage) => [stage, 0])) as Record<Stage, number>;
  const components: Record<string, number> = {};
  let samples = 0;
  for (const id of profile.samples) {
    if ((nodes.get(id) as ProfileNode).callFrame.functionName === '(idle)') continue;
    const { stage, component } = classify(id);
    stages[stage]++;
    if (component) components[component] = (components[component] ?? 0) + 1;
    samples++;
  }
  return { stages, components, samples };
}

/** JSON.parse in a DynamoDB client reads its answer; JSON.stringify there writes its request. */
function jsonStage(name: string, caller: { stage: Stage; component?: string }) {
  if (!/^(@aws-sdk|@smithy)\/|dynamodb-client|^lab\/entries\//.test(caller.component ?? '')) return caller;
  return { stage: name === 'parse' ? ('parsing' as const) : ('query building' as const), component: caller.component };
}
