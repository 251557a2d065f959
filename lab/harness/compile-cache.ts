// The V8 compile-cache lever of bench:variants: Node's module compile cache (NODE_COMPILE_CACHE,
// portable mode) written beside a bundle by one run of the same Node, then read by every cold
// start after it: the best a cache shipped with the artifact could do, on a runtime that matches it.

import { readdirSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** Where a bundle's cache goes: inside the artifact, as it would ship (portable: paths relative to it). */
export const compileCacheDir = (bundleFile: string) => `${dirname(bundleFile)}/.compile-cache`;

/** The environment that makes Node read (and, where it can, write) the cache beside `bundleFile`. */
export const compileCacheEnv = (bundleFile: string) => ({
  NODE_COMPILE_CACHE: compileCacheDir(bundleFile),
  NODE_COMPILE_CACHE_PORTABLE: '1',
});

export function clearCompileCache(bundleFile: string): void {
  rmSync(compileCacheDir(bundleFile), { recursive: true, force: true });
}

/**
 * Files and bytes of the cache beside `bundleFile`. Node keeps it in one directory per runtime
 * (`<Node version>-<arch>-<V8 cache tag>-<uid>`), so a cache written by another Node is never read.
 */
export function compileCacheSize(bundleFile: string): { files: number; bytes: number; tags: string[] } {
  const root = compileCacheDir(bundleFile);
  const tags = readdirSync(root);
  let files = 0;
  let bytes = 0;
  for (const tag of tags) {
    for (const file of readdirSync(`${root}/${tag}`)) {
      files++;
      bytes += statSync(`${root}/${tag}/${file}`).size;
    }
  }
  return { files, bytes, tags };
}
