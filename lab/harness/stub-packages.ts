// esbuild plugins for bench variants: named packages (and their subpaths) resolved to a do-nothing
// stub, or one of our modules resolved to a stand-in.

import type { Plugin } from 'esbuild';
import { benchDir } from '../config.ts';

export function stubPackages(packages: string[]): Plugin {
  const filter = new RegExp(`^(${packages.map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})(/.*)?$`);
  return {
    name: 'stub-packages',
    setup(build) {
      build.onResolve({ filter }, () => ({ path: `${benchDir}entries/powertools-stub.js` }));
    },
  };
}

/**
 * Imports whose path matches `filter` (e.g. `/\/warm-up\.ts$/`) load `replacement` instead, except
 * in `replacement` itself, which may wrap the module it replaces.
 */
export function replaceModule(filter: RegExp, replacement: string): Plugin {
  return {
    name: 'replace-module',
    setup(build) {
      build.onResolve({ filter }, ({ importer }) => (importer === replacement ? undefined : { path: replacement }));
    },
  };
}
