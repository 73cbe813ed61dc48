// What PageSpeed Insights would say about Askbox (`npm run bench:lighthouse`; issue 19): Lighthouse's performance
// audit of the benchmark's host page without the widget, with the built dist/askbox.js and, with `--baseline <file>`,
// with another build of it (a single-file askbox.js from before issue 19), in Debian's Chromium.
// It reports the performance score, Total Blocking Time, and whether any Askbox file is listed under "Reduce unused
// JavaScript"; it asserts nothing (a loaded machine moves the numbers).
//
//   tsx test/bench/lighthouse.ts [--runs 3] [--baseline /tmp/old-askbox.js]
import { readFileSync, readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { startDemoServer } from '../../demo/server';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { freshBuild } from '../helpers/build';
import { startBenchHost, type Variant } from './browser-host';
import { median } from './browser-report';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, baseline: { type: 'string' } },
});
const RUNS = Math.max(1, Number.parseInt(args.runs, 10) || 3);
const PORT = 9333;

interface Audit {
  score: number;
  tbtMs: number;
  unusedAskbox: string[];
}

const chatFile = readdirSync('dist').find((name) => /^askbox-chat\.[\w-]+\.js$/.test(name));
const demo = await startDemoServer({ port: 0, proxy: { limits: false } });
const host = await startBenchHost(
  [readFileSync(freshBuild('dist/askbox.js'), 'utf8'), ...(args.baseline ? [readFileSync(args.baseline, 'utf8')] : [])],
  DEMO_BOT_ID,
  demo.url,
  chatFile ? { [chatFile]: readFileSync(`dist/${chatFile}`, 'utf8') } : {},
);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', `--remote-debugging-port=${PORT}`],
});

async function audit(variant: Variant): Promise<Audit> {
  const result = await lighthouse(host.url(variant), {
    port: PORT,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    // Lighthouse's default mobile run: simulated slow 4G and a 4x slower CPU, as PageSpeed Insights does.
  });
  const lhr = result?.lhr;
  if (!lhr) throw new Error('Lighthouse returned no report');
  const unused = lhr.audits['unused-javascript']?.details;
  const items = unused && 'items' in unused ? (unused.items as Array<{ url?: string }>) : [];
  return {
    score: Math.round((lhr.categories.performance?.score ?? Number.NaN) * 100),
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
    unusedAskbox: items.map((item) => item.url ?? '').filter((url) => url.includes('/build/')),
  };
}

try {
  const variants: Array<[string, Variant]> = [
    ['blank', { kind: 'blank' }],
    ['current', { kind: 'build', index: 0 }],
    ...(args.baseline ? [['baseline', { kind: 'build', index: 1 }] as [string, Variant]] : []),
  ];
  const rows: Record<string, Audit[]> = Object.fromEntries(variants.map(([label]) => [label, []]));
  for (let run = 0; run < RUNS; run += 1)
    for (const [label, variant] of variants) rows[label]?.push(await audit(variant));
  console.log(`Lighthouse (mobile, simulated throttling) in Chromium ${browser.version()}, median of ${RUNS} runs`);
  for (const [label, audits] of Object.entries(rows)) {
    const unused = [...new Set(audits.flatMap((a) => a.unusedAskbox))];
    console.log(
      `${label.padEnd(16)} score ${median(audits.map((a) => a.score))}  TBT ${median(audits.map((a) => a.tbtMs)).toFixed(0)} ms  ` +
        `Askbox under "Reduce unused JavaScript": ${unused.length > 0 ? unused.join(', ') : 'no'}`,
    );
  }
} finally {
  await browser.close();
  await host.close();
  await demo.close();
}
