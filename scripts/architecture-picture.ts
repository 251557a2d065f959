// `npm run docs:picture [-- --check]`: copies docs/architecture.mmd, the one source of the
// architecture picture, into the README's and docs/layout.md's mermaid block; --check exits 1 when
// a copy differs (test/infra/architecture-picture.test.ts runs it).

import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

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

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { check: { type: 'boolean' } } });
  const source = readFileSync(new URL(PICTURE_SOURCE, root), 'utf8');
  const stale: string[] = [];
  for (const page of PICTURE_PAGES) {
    const url = new URL(page, root);
    const text = readFileSync(url, 'utf8');
    const updated = withPicture(page, text, source);
    if (updated === text) continue;
    stale.push(page);
    if (!values.check) writeFileSync(url, updated);
  }
  if (values.check && stale.length > 0) {
    console.error(`${stale.join(', ')}: the picture is not ${PICTURE_SOURCE}'s: run npm run docs:picture`);
    process.exit(1);
  }
  console.log(
    stale.length === 0 ? `The picture matches ${PICTURE_SOURCE}` : `Wrote the picture into ${stale.join(', ')}`,
  );
}
