/** Reading a Parquet file back with DuckDB, an independent reader of what `quanta export` writes. */
import { DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';

/** Every row of a Parquet file as DuckDB reads it, each value as plain data. */
export async function duckRows(path: string): Promise<{ types: string[]; rows: unknown[][] }> {
  const db = await DuckDBInstance.create(':memory:');
  const connection = await db.connect();
  try {
    const result = await connection.runAndReadAll(`SELECT * FROM read_parquet('${path}')`);
    const plain = (value: DuckDBValue): unknown => {
      if (value === null || typeof value !== 'object') return value;
      if ('micros' in value) return { utcMicros: value.micros };
      if ('scale' in value && 'value' in value)
        return { decimal: value.value, scale: value.scale, width: value.width };
      return String(value);
    };
    return {
      types: result.columnTypes().map(String),
      rows: result.getRows().map((row) => row.map(plain)),
    };
  } finally {
    connection.closeSync();
    db.closeSync();
  }
}
