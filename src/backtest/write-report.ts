import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { renderReportHtml } from './report-html.ts';
import { serializeReport, type BacktestReport } from './report-json.ts';

/** Where `writeReport` put the files. */
export interface WrittenReport {
  readonly jsonPath: string;
  readonly htmlPath: string;
}

/**
 * Writes `report.json` and the self-contained `report.html` into `dir` (created if missing;
 * existing files are replaced).
 *
 * @param dir - the report folder.
 * @param report - from `buildReport`.
 * @returns the two file paths.
 * @throws QuantaError `QUANTA_REPORT_WRITE_FAILED` naming the path when a folder or file cannot
 *   be written (cause kept).
 */
export async function writeReport(dir: string, report: BacktestReport): Promise<WrittenReport> {
  const jsonPath = join(dir, 'report.json');
  const htmlPath = join(dir, 'report.html');
  const html = renderReportHtml(report);
  await attempt(dir, () => mkdir(dir, { recursive: true }));
  await attempt(jsonPath, () => writeFile(jsonPath, serializeReport(report), 'utf8'));
  await attempt(htmlPath, () => writeFile(htmlPath, html, 'utf8'));
  return { jsonPath, htmlPath };
}

async function attempt(path: string, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : 'error';
    throw new QuantaError(
      ErrorCodes.REPORT_WRITE_FAILED,
      `backtest report ${path}: cannot write (${reason})`,
      { cause: error, details: ['Check that the --report folder is writable.'] },
    );
  }
}
