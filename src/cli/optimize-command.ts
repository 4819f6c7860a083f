import { systemClock } from '../clock/clock.ts';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { stderr, stdout } from 'node:process';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { createLocalPool, defaultThreads, type SetRunner } from '../optimize/local-pool.ts';
import { formatRanking } from '../optimize/format-ranking.ts';
import { runOptimize, serializeOptimizeResult } from '../optimize/optimize.ts';
import { renderOptimizeHtml } from '../optimize/optimize-html.ts';
import { createSetProgress } from '../optimize/set-progress.ts';
import { writeBestReports } from '../optimize/best-reports.ts';
import type { HoldoutSpec, WalkForwardSpec } from '../optimize/walk-forward.ts';
import type { CommandInput } from './command-spec.ts';
import type { COMMANDS } from './commands.ts';
import { PROJECT_ROOT } from './common.ts';
import { parseDuration } from './parse-duration.ts';

/**
 * `quanta optimize`: a parameter sweep of the config's strategy over a recording, on a pool of
 * worker threads (every core by default) or, with `--queue`, on `quanta worker` processes through
 * BullMQ. Prints a ranking table (or, with `--json`, only the result JSON, the same bytes for the
 * same inputs) and writes results.jsonl, optimize.json, optimize.html and the best runs' reports
 * into `--out` (default ./optimize). Started again with the same inputs it resumes.
 */
export async function run({ flags }: CommandInput<typeof COMMANDS.optimize>): Promise<number> {
  const usage = (message: string): QuantaError => new QuantaError(ErrorCodes.USAGE, message);
  const walkForward = parseWalkForward(flags['walk-forward'], usage);
  const holdout = parseHoldout(flags.holdout, usage);
  const threads = wholeNumber(flags.threads, '--threads', defaultThreads(), usage);
  const reports = wholeNumber(flags.reports, '--reports', 0, usage, 0);
  const heatmap = flags.heatmap?.split(',').map((name) => name.trim());
  if (heatmap !== undefined && heatmap.length !== 2)
    throw usage('--heatmap expects two param names like window,entryZ');
  const outDir = resolve(flags.out);

  const runner: SetRunner =
    flags.queue === undefined
      ? createLocalPool(threads)
      : await (await import('../optimize/queue.ts')).createQueueRunner(flags.queue);
  if (flags.queue !== undefined)
    stderr.write(
      'optimize: sets go onto the queue; `quanta worker --queue URL` processes run them\n',
    );
  let progress: ReturnType<typeof createSetProgress> | undefined;
  let run;
  try {
    run = await runOptimize({
      configFile: flags.config,
      data: flags.data,
      spaceFile: flags.space,
      outDir,
      projectRoot: PROJECT_ROOT,
      ...(walkForward === undefined ? {} : { walkForward }),
      ...(holdout === undefined ? {} : { holdout }),
      runner,
      onStart: (total, resumed) => {
        if (resumed > 0) stderr.write(`optimize: resuming, ${resumed} of ${total} sets done\n`);
        progress = createSetProgress({
          total,
          done: resumed,
          stream: stderr,
          isTTY: stderr.isTTY === true,
          now: systemClock.monotonic,
        });
      },
      onProgress: () => progress?.tick(),
      onNote: (line) => stderr.write(`optimize: ${line}\n`),
    });
  } finally {
    progress?.done();
    await runner.close();
  }
  const { result } = run;
  const links = await writeBestReports(run, {
    count: reports,
    outDir,
    projectRoot: PROJECT_ROOT,
  });
  const json = serializeOptimizeResult(result);
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'optimize.json'), json, 'utf8');
  await writeFile(
    join(outDir, 'optimize.html'),
    renderOptimizeHtml(result, { links, ...(heatmap === undefined ? {} : { heatmap }) }),
    'utf8',
  );
  stderr.write(`optimize written: ${join(outDir, 'optimize.html')}\n`);
  stdout.write(flags.json ? json : formatRanking(result));
  return 0;
}

function parseWalkForward(
  text: string | undefined,
  usage: (message: string) => QuantaError,
): WalkForwardSpec | undefined {
  if (text === undefined) return undefined;
  const folds = /^(?:folds=)?(\d+)$/.exec(text);
  if (folds !== null) {
    const n = Number(folds[1]);
    if (n < 1) throw usage('--walk-forward folds=N needs N >= 1');
    return { folds: n };
  }
  const parts = new Map(text.split(',').map((part) => part.split('=') as [string, string]));
  const train = parts.get('train');
  const test = parts.get('test');
  if (train === undefined || test === undefined || parts.size !== 2)
    throw usage(
      `--walk-forward expects train=D,test=D (like train=4h,test=1h) or folds=N, got ${JSON.stringify(text)}`,
    );
  return {
    trainMs: parseDuration(train, '--walk-forward train'),
    testMs: parseDuration(test, '--walk-forward test'),
  };
}

function parseHoldout(
  text: string | undefined,
  usage: (message: string) => QuantaError,
): HoldoutSpec | undefined {
  if (text === undefined) return undefined;
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(text);
  if (percent !== null) {
    const value = Number(percent[1]);
    if (value <= 0 || value >= 100) throw usage('--holdout P% needs 0 < P < 100');
    return { percent: value };
  }
  return { ms: parseDuration(text, '--holdout') };
}

function wholeNumber(
  text: string | undefined,
  flag: string,
  fallback: number,
  usage: (message: string) => QuantaError,
  min = 1,
): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min)
    throw usage(`${flag} expects a whole number >= ${min}, got ${JSON.stringify(text)}`);
  return Number(text);
}
