/**
 * Writes a table of typed columns as CSV or Parquet for analysis tools (pandas, Polars,
 * DuckDB): times as UTC timestamps (ISO 8601 with `Z` in CSV, Parquet INT64 TIMESTAMP(MILLIS,
 * UTC)), money as exact decimals (the canonical decimal text in CSV, Parquet DECIMAL(38,18)
 * from the x18 integer itself), never a float. Parquet is written by hyparquet-writer (pure
 * JavaScript, no native build).
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { fileWriter, ParquetWriter, type SchemaElement } from 'hyparquet-writer';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import { formatX18 } from '../../money/index.ts';

/** A column's type: what its values are and how each format writes them. */
export type ColumnType = 'timestamp' | 'decimal' | 'integer' | 'text' | 'boolean';

/** A value of a column: ms (timestamp), x18 (decimal), number (integer), string, boolean. */
export type Cell = number | bigint | string | boolean | null;

/** A table: its columns' names and types, and its rows (each a cell per column). */
export interface Table {
  readonly columns: readonly { readonly name: string; readonly type: ColumnType }[];
  readonly rows: Iterable<readonly Cell[]> | AsyncIterable<readonly Cell[]>;
}

/** DECIMAL(38,18) holds x18 integers below 10^38 in magnitude. */
const DECIMAL_LIMIT = 10n ** 38n;

function csvText(value: Cell, type: ColumnType): string {
  if (value === null) return '';
  if (type === 'timestamp') return new Date(value as number).toISOString();
  if (type === 'decimal') return formatX18(value as bigint);
  if (type === 'text') {
    const text = value as string;
    return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  }
  return String(value);
}

function exportFailure(path: string, error: unknown): QuantaError {
  if (error instanceof QuantaError) return error;
  return new QuantaError(
    ErrorCodes.REPORT_WRITE_FAILED,
    `${path}: cannot write (${error instanceof Error ? error.message : String(error)})`,
    { cause: error },
  );
}

/** Streams a table to a CSV file with a header line; returns the rows written. */
async function writeCsv(path: string, table: Table): Promise<number> {
  const out = createWriteStream(path);
  const failed = once(out, 'error').then(([error]: unknown[]) => {
    throw exportFailure(path, error);
  });
  failed.catch(() => undefined);
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await Promise.race([once(out, 'drain'), failed]);
  };
  await write(`${table.columns.map((c) => c.name).join(',')}\n`);
  let count = 0;
  for await (const row of table.rows) {
    await write(
      `${row.map((cell, i) => csvText(cell, table.columns[i]?.type ?? 'text')).join(',')}\n`,
    );
    count += 1;
  }
  out.end();
  await Promise.race([once(out, 'finish'), failed]);
  return count;
}

function schemaOf(name: string, type: ColumnType): SchemaElement {
  const repetition_type = 'OPTIONAL';
  switch (type) {
    case 'timestamp':
      return {
        name,
        type: 'INT64',
        repetition_type,
        converted_type: 'TIMESTAMP_MILLIS',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
      };
    case 'decimal':
      return {
        name,
        type: 'FIXED_LEN_BYTE_ARRAY',
        type_length: 16,
        repetition_type,
        converted_type: 'DECIMAL',
        precision: 38,
        scale: 18,
        logical_type: { type: 'DECIMAL', precision: 38, scale: 18 },
      };
    case 'integer':
      return { name, type: 'INT64', repetition_type };
    case 'text':
      return { name, type: 'BYTE_ARRAY', repetition_type, converted_type: 'UTF8' };
    case 'boolean':
      return { name, type: 'BOOLEAN', repetition_type };
  }
}

/**
 * Rows a Parquet row group holds: the rows are collected column by column a row group at a time
 * and written as it fills, so an export of any length holds one row group in memory.
 */
export const PARQUET_ROW_GROUP_ROWS = 100_000;

/** Writes a table as a Parquet file, a row group at a time; returns the rows. */
async function writeParquet(path: string, table: Table): Promise<number> {
  const schema: SchemaElement[] = [
    { name: 'root', num_children: table.columns.length },
    ...table.columns.map((c) => schemaOf(c.name, c.type)),
  ];
  const parquet = new ParquetWriter({
    writer: fileWriter(path),
    schema,
    createdBy: 'quanta export',
  });
  let data: Cell[][] = table.columns.map(() => []);
  let inGroup = 0;
  let count = 0;
  const writeGroup = async (): Promise<void> => {
    if (inGroup === 0) return;
    const columnData = table.columns.map((column, i) => ({
      name: column.name,
      data: data[i] as Cell[],
    }));
    await parquet.write({ columnData, rowGroupSize: PARQUET_ROW_GROUP_ROWS });
    data = table.columns.map(() => []);
    inGroup = 0;
  };
  for await (const row of table.rows) {
    for (let i = 0; i < data.length; i++) {
      let cell = row[i] ?? null;
      const column = table.columns[i];
      if (column?.type === 'integer' && typeof cell === 'number') cell = BigInt(cell);
      if (
        column?.type === 'decimal' &&
        typeof cell === 'bigint' &&
        (cell >= DECIMAL_LIMIT || -cell >= DECIMAL_LIMIT)
      )
        throw new QuantaError(
          ErrorCodes.REPORT_WRITE_FAILED,
          `${path}: ${column.name} ${formatX18(cell)} does not fit DECIMAL(38,18); export it as CSV`,
        );
      (data[i] as Cell[]).push(cell);
    }
    count += 1;
    inGroup += 1;
    if (inGroup === PARQUET_ROW_GROUP_ROWS) await writeGroup();
  }
  await writeGroup();
  await parquet.finish();
  return count;
}

/**
 * Writes `table` to `path` as CSV or Parquet (through a temporary file renamed into place, so
 * a failed export leaves no half file under the name).
 *
 * @returns the number of rows written.
 * @throws QuantaError `QUANTA_REPORT_WRITE_FAILED` when the file cannot be written or a decimal
 *   does not fit DECIMAL(38,18).
 */
export async function writeTable(
  path: string,
  table: Table,
  format: 'csv' | 'parquet',
): Promise<number> {
  const temporary = `${path}.partial`;
  try {
    const count =
      format === 'csv' ? await writeCsv(temporary, table) : await writeParquet(temporary, table);
    await rename(temporary, path);
    return count;
  } catch (error) {
    // The half-written file goes too: nothing of a failed export is left behind.
    await rm(temporary, { force: true });
    throw exportFailure(path, error);
  }
}
