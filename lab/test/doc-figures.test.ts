// Every figure lab/docs/scale.md, lab/docs/cost.md, docs/deploy.md's price and worst-hour lines and README.md quote,
// tied to the committed reference (lab/results.json; lab/profile.json for lab/docs/profile.md): tables
// rendered from it must appear verbatim, and a table row may hold no dollar figure the reference does
// not give. Rerun the bench, and a page that still says the old figure fails here.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { READ_UNITS_PER_REQUEST, TABLE_READ_UNITS_QUOTA } from '../../infra/ceiling.ts';
import { billOf } from '../cost/bill-of.ts';
import { OPTION_COSTS } from '../cost/options.ts';
import { PRICES } from '../cost/prices.ts';
import { flagCells, memoryTable, money, monthlyTable, worstHourTable } from '../report/doc-figures.ts';
import { coldStagesTable, instructionsTable, type ProfileResults, warmStagesTable } from '../report/profile-report.ts';
import { designsTable, groupReadsTable, itemsTable, limitsTable, rate } from '../report/scale-report.ts';
import type { BenchResults } from '../results.ts';
import { BEFORE, type ScaleResults } from '../scale/scale-scenarios.ts';

const results = JSON.parse(readFileSync('results.json', 'utf8')) as BenchResults & { scale: ScaleResults };
const { cost, scale } = results;
/** A lab page (lab/docs/), or a product one (docs/, the README) that quotes a figure with a link here. */
const page = (name: string) => readFileSync(`docs/${name}`, 'utf8');
const productPage = (path: string) => readFileSync(`../${path}`, 'utf8');
/** The one line of `text` holding `key`. */
const lineWith = (text: string, key: string): string => {
  const lines = text.split('\n').filter((line) => line.includes(key));
  expect(lines).toHaveLength(1);
  return lines[0] ?? '';
};
/** Dollar figures without their sign: `+$0.05`, `−$2.08` and `$13` as `0.05`, `2.08`, `13`. */
const dollars = (text: string) => (text.match(/\$\d{1,3}(,\d{3})*(\.\d+)?/g) ?? []).map((d) => d.slice(1));
/** The line quotes every expected figure, and none other. */
const expectFigures = (line: string, expected: string[]) => {
  const wanted = expected.flatMap(dollars);
  for (const figure of wanted) expect(dollars(line)).toContain(figure);
  for (const figure of dollars(line)) expect(wanted).toContain(figure);
};
const flag = (name: string) => flagCells(cost, name).filter((cell) => cell !== '+$0.00');

describe('results.json', () => {
  it('holds the bill the code computes today from its measured figures (what npm run bench:bill -w lab prints)', () => {
    const refusalDurationMs = Math.max(1, Math.ceil(results.warm.handler.p50Ms));
    const bill = billOf(cost, cost.monthlyUsd, { refusalDurationMs, cpuMs: results.warm.handler.p50Ms });
    expect(cost.worstHour).toEqual(bill.worstHour);
    expect(cost.monthly).toEqual(bill.monthly);
    expect(cost.flagPrices).toEqual(bill.flagPrices);
    expect(cost.options).toEqual(bill.options);
  });

  it('holds a section for each option the lab prices (options/), and none for a removed one', () => {
    expect(Object.keys(cost.options).sort()).toEqual(Object.keys(OPTION_COSTS).sort());
    expect(Object.keys(cost.monthlyUsd.options).sort()).toEqual(Object.keys(OPTION_COSTS).sort());
  });
});

describe("each option's page", () => {
  it.each(Object.entries(OPTION_COSTS))(
    '%s: its Cost section states its figures as the reference does',
    (name, option) => {
      const text = productPage(option.page);
      const start = text.indexOf('## Cost');
      expect(start).toBeGreaterThanOrEqual(0);
      const section = text.slice(start, text.indexOf('\n## ', start + 1) >>> 0);
      const figures = option.figures(cost.options[name]);
      expect(figures.length).toBeGreaterThan(0);
      for (const figure of figures) expect(dollars(section)).toContain(dollars(figure)[0]);
    },
  );
});

describe('lab/docs/scale.md', () => {
  const doc = page('scale.md');

  it("quotes bench:scale's tables verbatim", () => {
    for (const table of [groupReadsTable(scale), designsTable(scale), limitsTable(scale), itemsTable(scale)]) {
      expect(doc).toContain(table);
    }
  });

  it('names the crossing before the change and the measured figures its model uses', () => {
    const before = scale.scenarios.find(
      (s) => s.design === BEFORE && s.quota === 10_000 && s.request === 'first page' && s.groupPlants === 10_000,
    );
    expect(doc).toContain(`at ${rate(before?.crossings.rates.hotPartition ?? null)} req/s`);
    expect(doc).toContain(`${scale.measured.ownRru} RRU a request`);
    expect(doc).toContain(`a warm ${scale.measured.off.meanMs} ms loopback mean`);
  });
});

describe('lab/docs/cost.md', () => {
  const doc = page('cost.md');

  it('quotes the month at each traffic level and the worst hour as rendered from the reference', () => {
    expect(doc).toContain(monthlyTable(cost));
    expect(doc).toContain(worstHourTable(cost));
    expect(doc).toContain(memoryTable(cost));
    expect(doc).toContain(`100-plant pages (${(cost.responseBytesPerRequest / 1000).toFixed(1)} KB)`);
  });

  it('states the read budget and the largest ceiling the table quota allows as infra/ceiling.ts computes them', () => {
    const most = Math.floor(TABLE_READ_UNITS_QUOTA / READ_UNITS_PER_REQUEST).toLocaleString('en-US');
    expect(doc).toContain(`${READ_UNITS_PER_REQUEST}·N read units`);
    expect(doc).toContain(`N is at most ${most}`);
    expect(productPage('docs/deploy.md')).toContain(`at most ${most} ([cost.md]`);
  });

  it("states the flood's largest lines and the 404s' price as the reference computes them", () => {
    const w = cost.worstHour;
    expect(doc).toContain(`(${w.floodBytes.accessLog.lean} bytes \`lean\`, ${w.floodBytes.accessLog.full} \`full\``);
    // The gateway's JWT authorizer adds its fields to every line: the flood's price with them.
    const jwt = w.floodBytes.accessLogWithJwtAuthorizer;
    const jwtUsd = w.floodPerThousandWithJwtAuthorizerUsd;
    expect(doc.replace(/\s+/g, ' ')).toContain(
      `${jwt.lean.toLocaleString('en-US')} and ${jwt.full.toLocaleString('en-US')}: ${money(jwtUsd.lean)} and ${money(jwtUsd.full)} per 1,000 req/s`,
    );
    expect(doc).toContain(`Gateway's ${w.floodBytes.response}-byte 429`);
    expect(doc).toContain(`add ${money(w.floodPerThousandUsd.if404sBilled)} per 1,000 req/s`);
    expect(doc).toContain(`${money(w.machineTokens.perTokenPerSecondHourUsd)} an hour per token a second`);
  });

  it('splits the price of a million requests as the reference does', () => {
    const p = cost.perMillionUsd;
    const line =
      lineWith(doc, '**Per million requests**') + lineWith(doc, '([performance.md](performance.md)), DynamoDB');
    const stack = p.total - p.dataTransferOut - p.cognito;
    for (const figure of [p.total, stack, p.apiGateway, p.lambdaRequests + p.lambdaDuration + p.init, p.dynamodb]) {
      expect(line).toContain(money(figure));
    }
    for (const figure of [p.logsIngestion + p.logsStorage, p.dataTransferOut, p.cognito]) {
      expect(line).toContain(money(figure));
    }
  });

  it("prices every flag's row as the reference does", () => {
    const rows: [string, string[]][] = [
      ['| `requestLog=all`', flag('requestLog=all')],
      ['| `accessLog=full`', flag('accessLog=full')],
      ['| `accessLogClass=standard`', flag('accessLogClass=standard')],
      ['| `tracing=true`', flag('tracing=true')],
      ['| `systemLogLevel=INFO`', [...flag('systemLogLevel=INFO'), ...flag('systemLogLevel=DEBUG')]],
      ['| `jwtAuthorizer=true`', flag('jwtAuthorizer=true')],
      ['| `architecture=x86_64`', flag('architecture=x86_64')],
      [
        '| `authRequiredScope=…`',
        [...flag('authRequiredScope=…'), '$6', '$2.25', `$${cost.worstHour.machineTokens.perTokenUsd}`],
      ],
      ['| `provisionedConcurrency=N`', flag('provisionedConcurrency=1')],
      ['| `deploymentStrategy=all-at-once`', flag('deploymentStrategy=all-at-once')],
    ];
    for (const [key, expected] of rows) expectFigures(lineWith(doc, key), expected);
  });
});

describe('docs/deploy.md', () => {
  const doc = productPage('docs/deploy.md');
  const w = cost.worstHour;

  it('states the worst hour the reference sums', () => {
    const start = doc.indexOf('**Worst hour.**');
    const paragraph = doc.slice(start, doc.indexOf('\n\n', start));
    expectFigures(paragraph, [money(w.worstHourUsd.total), money(w.floodPerThousandUsd.lean)]);
  });

  it("leaves every flag's price to cost.md: its flag tables state none", () => {
    const start = doc.indexOf('## Context flags');
    const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
    expect(section).toContain('../lab/docs/cost.md#every-flags-price');
    expect(dollars(section)).toEqual([]);
  });
});

describe('README.md', () => {
  it("quotes the cost of a million requests, the page and the month's monitoring as the reference does", () => {
    const doc = productPage('README.md');
    const start = doc.indexOf('**Cost**');
    const paragraph = doc.slice(start, doc.indexOf('\n\n', start));
    const p = cost.perMillionUsd;
    expect(paragraph).toContain(`${(cost.responseBytesPerRequest / 1000).toFixed(1)} KB pages`);
    expectFigures(paragraph, [
      money(p.total),
      money(p.total - p.dataTransferOut - p.cognito),
      money(cost.monthlyUsd.total),
      // Prices, not measurements: storage and point-in-time recovery per GB-month.
      money(PRICES.dynamodbStorage.usd + PRICES.dynamodbPitr.usd),
    ]);
  });
});

describe('lab/docs/profile.md', () => {
  it("quotes bench:profile's reference tables verbatim (lab/profile.json)", () => {
    const profile = JSON.parse(readFileSync('profile.json', 'utf8')) as ProfileResults;
    const doc = page('profile.md');
    for (const table of [warmStagesTable(profile), coldStagesTable(profile), instructionsTable(profile)]) {
      expect(doc).toContain(table);
    }
  });
});
