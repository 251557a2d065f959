// The architecture picture's one source, docs/architecture.mmd, copied into the README's and
// docs/layout.md's mermaid block (`npm run docs:picture`, local/cli/docs-picture.ts, is its command
// line; test/infra/architecture-picture.test.ts checks the copies through withPicture).

import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
export const PICTURE_SOURCE = 'docs/architecture.mmd';
/** The pages that show the picture, each in its one ```mermaid block. */
export const PICTURE_PAGES = ['README.md', 'docs/layout.md'];

const BLOCK = /```mermaid\n[\s\S]*?```/g;

/** The page with its mermaid block replaced by the source; throws unless it has exactly one. */
export function withPicture(page: string, text: string, source: string): string {
  const blocks = text.match(BLOCK) ?? [];
  if (blocks.length !== 1) throw new Error(`${page} must hold one \`\`\`mermaid block, found ${blocks.length}`);
  return text.replace(BLOCK, () => `\`\`\`mermaid\n${source}\`\`\``);
}

/**
 * Writes the source into every page whose copy differs; with `check`, writes nothing. `ok` is false
 * only for a check that found a stale copy.
 */
export function architecturePicture({ check = false }: { check?: boolean | undefined }) {
  const source = readFileSync(new URL(PICTURE_SOURCE, root), 'utf8');
  const stale = PICTURE_PAGES.filter((page) => {
    const url = new URL(page, root);
    const text = readFileSync(url, 'utf8');
    const updated = withPicture(page, text, source);
    if (updated !== text && !check) writeFileSync(url, updated);
    return updated !== text;
  });
  if (stale.length === 0) return { ok: true, message: `The picture matches ${PICTURE_SOURCE}` };
  return check
    ? { ok: false, message: `${stale.join(', ')}: the picture is not ${PICTURE_SOURCE}'s: run npm run docs:picture` }
    : { ok: true, message: `Wrote the picture into ${stale.join(', ')}` };
}
