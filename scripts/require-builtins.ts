// esbuild plugin: bundled ES modules reach Node's built-in modules through `require`, not `import`.
//
// Importing a built-in from an ES module makes Node build an ESM facade that reads every export of
// the module, which runs lazy getters: on Node 24 `node:http`'s getters load undici (the fetch
// implementation), about 50 ms of a cold start for nothing. `require` returns the same module
// object without the facade. The bundle's banner provides `require` (createRequire).

import { builtinModules } from 'node:module';
import type { Plugin } from 'esbuild';

const BUILTINS = new Set(builtinModules);
const NAMESPACE = 'require-builtin';

export const requireBuiltins: Plugin = {
  name: 'require-builtins',
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, ({ path, kind, namespace }) => {
      const name = path.replace(/^node:/, '');
      if (!BUILTINS.has(name)) return undefined;
      // require() calls (from CommonJS dependencies and from the stubs below) stay as they are.
      if (kind === 'require-call' || namespace === NAMESPACE) return { path: `node:${name}`, external: true };
      return { path: name, namespace: NAMESPACE };
    });
    // A CommonJS stub per built-in: esbuild gives its importers the named exports they ask for.
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, ({ path }) => ({
      contents: `module.exports = require('node:${path}');`,
      loader: 'js',
    }));
  },
};
