/**
 * Splits one CSV line into its fields (RFC 4180: comma-separated, a field in double quotes may
 * hold commas and doubled quotes; no line breaks inside a field). The common line has no quote
 * and costs one `split`.
 *
 * @returns the fields, or a string saying why the line is not CSV (an unclosed quote).
 */
export function splitCsvLine(text: string): string[] | string {
  if (!text.includes('"')) return text.split(',');
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (text[i] === '"') {
      let value = '';
      i += 1;
      for (;;) {
        const close = text.indexOf('"', i);
        if (close < 0) return 'a quoted field is not closed';
        value += text.slice(i, close);
        if (text[close + 1] === '"') {
          value += '"';
          i = close + 2;
          continue;
        }
        i = close + 1;
        break;
      }
      fields.push(value);
      if (i === text.length) return fields;
      if (text[i] !== ',') return `a quoted field is followed by ${JSON.stringify(text[i])}`;
      i += 1;
      continue;
    }
    const comma = text.indexOf(',', i);
    if (comma < 0) {
      fields.push(text.slice(i));
      return fields;
    }
    fields.push(text.slice(i, comma));
    i = comma + 1;
  }
}
