// `npm run bench:scale -w lab [-- --update-reference]`: measures with the production bundle the read units
// of a group read at each page size for company-wide groups of 10 to 10,000 plants (capacity proxy,
// checked against the 4 KB computation), and one page's warm read units and latency with the group
// cache off and on; feeds them to the scale model, prints the tables, and writes the `scale` key of
// results.json and scale.svg to lab/out/ (or the committed reference).

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { outDir, tmpDir } from './config.ts';
import { buildBundle } from './harness/bundles.ts';
import { startEnvironment } from './harness/environment.ts';
import { renderScaleChart } from './report/scale-chart.ts';
import { renderScale } from './report/scale-report.ts';
import { measureGroupReads } from './scale/scale-group-reads.ts';
import { measureForScale } from './scale/scale-measure.ts';
import { modelScale } from './scale/scale-scenarios.ts';

const started = performance.now();
const log = (message: string) =>
  console.error(`[bench:scale ${((performance.now() - started) / 1000).toFixed(1)}s] ${message}`);
mkdirSync(tmpDir, { recursive: true });
mkdirSync(outDir, { recursive: true });

log('building the production bundle');
const handler = await buildBundle('handler');
const env = await startEnvironment();
try {
  const measured = await measureForScale(env, handler);
  const groupReads = await measureGroupReads(env, handler);
  const scale = {
    generatedAt: new Date().toISOString(),
    bundleBytes: handler.bytes,
    ...modelScale(measured, groupReads),
  };
  // The other keys of results.json are npm run bench -w lab's: kept as they are.
  const file = `${outDir}results.json`;
  const results = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  writeFileSync(file, `${JSON.stringify({ ...results, scale }, null, 2)}\n`);
  writeFileSync(`${outDir}scale.svg`, renderScaleChart(scale));
  console.log(renderScale(scale));
  log(`wrote the scale key of ${file} and ${outDir}scale.svg`);
} finally {
  await env.stop();
}
