/**
 * No module but the state machine writes an order state. Checked by reading the source: every
 * way src/ has ever written a state (an assignment, an object literal that creates an order, a
 * SQL SET or CASE or INSERT with a state word) must go through `transition(...)` or be a bound
 * parameter the journal computed with it. A grep, not types: branding OrderState would also
 * refuse the many harmless literals that read or compare states (`inStates(['OPEN'])`,
 * `state === 'PENDING'`), and the compiler cannot see inside SQL text.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const STATE = `(?:PENDING|SENT|ACCEPTED|OPEN|PARTIALLY_FILLED|PARTIAL|FILLED|CANCELLED|REJECTED|EXPIRED|UNKNOWN)`;

/** The state machine itself: the one place allowed to name the next state. */
const STATE_MACHINE = 'src/domain/order-state.ts';

/** Places that match a rule but write no order state, each with the reason. */
const NOT_ORDER_STATES: readonly { file: string; text: string; why: string }[] = [
  { file: 'src/venue/errors.ts', text: 'this.status = init.status', why: 'an HTTP status' },
  {
    file: 'src/simulation/sim-response.ts',
    text: 'this.status = init.status',
    why: "the simulated network's answer's HTTP status",
  },
  {
    file: 'src/execution/journal-schema.ts',
    text: "SET state = 'PARTIALLY_FILLED'",
    why: 'a schema migration renaming the stored word; every order keeps its state',
  },
  {
    file: 'src/execution/sqlite-journal-kv.ts',
    text: 'SET state = excluded.state, row_sum = excluded.row_sum',
    why: "the exits table's `state` is a protective exit's levels (JSON), not an order state",
  },
];

/**
 * Modules that still *propose* a state (`{ state: 'UNKNOWN', … }`) to `OrderJournal.recordOutcome`
 * instead of naming the event. The journal applies the event leading there through the state
 * machine and refuses what the table forbids, so they write nothing; they are listed so that the
 * list can only shrink (a listed file without a proposal fails the test).
 */
const PROPOSERS: readonly string[] = ['src/execution/retry-policy.ts', 'src/execution/recovery.ts'];

/** A place in the code that writes an order state without the state machine. */
interface Finding {
  readonly rule: string;
  readonly text: string;
}

/** Comments out: doc examples may show what the code must not do. */
function codeOf(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
}

/** Every write of an order state in `code` that does not go through `transition(...)`. */
function stateWrites(code: string): Finding[] {
  const found: Finding[] = [];
  const add = (rule: string, re: RegExp): void => {
    for (const match of code.matchAll(re)) found.push({ rule, text: match[0].trim() });
  };
  // order.status = 'FILLED'; order.state = next;
  add('member assignment', /[\w#$.\])]*\.(?:state|status)\s*=(?![=>])(?!\s*transition\()[^;\n]*/g);
  // status = 'FILLED' (a local that is written to an order later); in SQL, `WHERE state = 'X'`
  // compares (a SET is the SQL rule's business)
  add(
    'variable assignment',
    new RegExp(
      `(?<![.\\w#])(?<!\\b(?:WHERE|AND|OR|SET|WHEN)\\s+)(?:state|status)\\s*=(?![=>])\\s*'${STATE}'`,
      'g',
    ),
  );
  // { status: 'OPEN', … }: an order created (or an outcome proposed) in a state of its choosing.
  // Type annotations (`state: 'A' | 'B';`) are not followed by `,` or `}` and do not match.
  add('object literal', new RegExp(`\\b(?:state|status)\\s*:\\s*'${STATE}'(?=\\s*[,}])`, 'g'));
  // SQL: UPDATE … SET state = 'SENT' / CASE … THEN 'SENT' / INSERT … VALUES (…, 'PENDING', …)
  for (const set of code.matchAll(/\bSET\b((?:(?!\bWHERE\b)[^`;])*)/g)) {
    const assigned = /\bstate\s*=\s*(?!\?)[^,\s]+/.exec(set[1] ?? '');
    if (assigned !== null) found.push({ rule: 'SQL SET', text: set[0].trim() });
  }
  add('SQL CASE', new RegExp(`\\bTHEN\\s+'${STATE}'`, 'g'));
  add('SQL INSERT', new RegExp(`\\bINSERT\\s+INTO\\s+orders\\b[^\`]*?'${STATE}'`, 'g'));
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(ROOT, path)] : [];
  });
}

describe('order state writes', () => {
  it('the rules catch every way the code wrote states before the state machine', () => {
    const before = [
      "order.status = 'CANCELLED';",
      'order.status = status;',
      "else status = filled > 0n ? 'PARTIAL' : 'OPEN';\nif (x) status = 'FILLED';",
      "const order = { id, status: 'OPEN', fills: [] };",
      "this.#finish(record, { state: 'UNKNOWN', error });",
      "`UPDATE orders SET attempts = attempts + 1, updated_at = ?,\n state = CASE WHEN state = 'PENDING' THEN 'SENT' ELSE state END WHERE id = ?`",
      "`INSERT INTO orders (strategy, state) VALUES (?, 'PENDING')`",
    ];
    expect(before.map((code) => stateWrites(code).map((f) => f.rule))).toEqual([
      ['member assignment'],
      ['member assignment'],
      ['variable assignment'],
      ['object literal'],
      ['object literal'],
      ['SQL SET', 'SQL CASE'],
      ['SQL INSERT'],
    ]);
    const allowed = [
      "order.status = transition(order.status, 'cancelled');",
      "if (record.state === 'PENDING' || order.status !== record.state) return;",
      "readonly state: 'CANCELLED' | 'UNKNOWN';\nfinish: (outcome: { state: 'CANCELLED' | 'UNKNOWN'; error: string }) => void",
      'status: reportedStatus(order),',
      "journal.inStates(['OPEN', 'PARTIALLY_FILLED'])",
      '`UPDATE orders SET attempts = attempts + 1, state = ?, updated_at = ? WHERE id = ?`',
      "`SELECT * FROM orders WHERE state IN ('OPEN') ORDER BY id`",
    ];
    expect(allowed.flatMap(stateWrites)).toEqual([]);
  });

  const files = sourceFiles(join(ROOT, 'src')).filter((file) => file !== STATE_MACHINE);

  it('no module in src/ but the state machine writes an order state', () => {
    expect(files.length).toBeGreaterThan(50);
    const offences: string[] = [];
    for (const file of files) {
      for (const finding of stateWrites(codeOf(readFileSync(join(ROOT, file), 'utf8')))) {
        const excused = NOT_ORDER_STATES.some(
          (n) => n.file === file && finding.text.includes(n.text),
        );
        const proposal = finding.rule === 'object literal' && PROPOSERS.includes(file);
        if (!excused && !proposal) offences.push(`${file}: ${finding.rule}: ${finding.text}`);
      }
    }
    expect(offences).toEqual([]);
  });

  it.each(PROPOSERS)('%s still proposes a state (else take it off the list)', (file) => {
    const proposals = stateWrites(codeOf(readFileSync(join(ROOT, file), 'utf8'))).filter(
      (f) => f.rule === 'object literal',
    );
    expect(proposals.length).toBeGreaterThan(0);
  });

  it.each(NOT_ORDER_STATES)('$file still has "$text" ($why)', ({ file, text }) => {
    expect(readFileSync(join(ROOT, file), 'utf8')).toContain(text);
  });
});
