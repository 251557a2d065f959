// esbuild plugin for bench variants: resolves the named packages (and their subpaths) to a stub.

import type { Plugin } from 'esbuild';
import { benchDir } from './config.ts';

export function stubPackages(packages: string[]): Plugin {
  const filter = new RegExp(`^(${packages.map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})(/.*)?$`);
  return {
    name: 'stub-packages',
    setup(build) {
      build.onResolve({ filter }, () => ({ path: `${benchDir}entries/powertools-stub.js` }));
    },
  };
}
