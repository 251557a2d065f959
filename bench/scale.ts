// `npm run bench:scale [-- --update-reference]`: measures one page of the stated population's shape
// with the production bundle (read units per partition through the capacity proxy; warm read units
// and latency with the group cache off and on), feeds them to the scale model, prints the table, and
// writes the `scale` key of results.json and scale.svg to bench/out/ (or the committed reference).

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { buildBundle } from './bundles.ts';
import { outDir, tmpDir } from './config.ts';
import { startEnvironment } from './environment.ts';
import { renderScaleChart } from './scale-chart.ts';
import { measureForScale } from './scale-measure.ts';
import { renderScale } from './scale-report.ts';
import { modelScale } from './scale-scenarios.ts';

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
  const scale = { generatedAt: new Date().toISOString(), bundleBytes: handler.bytes, ...modelScale(measured) };
  // The other keys of results.json are npm run bench's: kept as they are.
  const file = `${outDir}results.json`;
  const results = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  writeFileSync(file, `${JSON.stringify({ ...results, scale }, null, 2)}\n`);
  writeFileSync(`${outDir}scale.svg`, renderScaleChart(scale));
  console.log(renderScale(scale));
  log(`wrote the scale key of ${file} and ${outDir}scale.svg`);
} finally {
  await env.stop();
}
